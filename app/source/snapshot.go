package source

import (
	"encoding/binary"
	"os"
	"path/filepath"
)

// The cache format, written for a fast start rather than for anything but this
// package to read. A warm `fixthis source match` spends most of its time
// restoring the index. With gob that was a million small allocations (a string
// per field, the lookup lists growing entry by entry) and the page faults of
// the heap they fill, which on a virtual machine cost as much as the decoding.
// Here every distinct string is kept once, in a table at the front, and sliced
// out of the cache's bytes; the lookup maps are stored as they are, so
// restoring fills each list at its final size instead of filing 200,000
// entries one by one.
//
//	"FTSX", version
//	strings: count, then length + bytes each
//	root, reason, modules: count, (name, dir)…; files: count; the files
//	section's length in bytes (where the lookup section starts); entries: count
//	files: path, module, source set, mod time, size, package, layout,
//	       entries, defs, calls, activities, classes, refs (each a count, then items)
//	lookup: postings in the four maps: count
//	        byValue, defs, calls: count, (key, postings)…
//	        byKey: count, (kind, name, postings)…
//	        classFiles, layoutFiles: count, (key, files)…
//	        templated: count, (posting, parts)…
//
// Numbers are varints (signed ones zigzag); a string is its number in the table;
// a file is its number in the files section; a posting is a file and an index
// into one of its lists. The offset lets the files and the lookup section be
// read at once, on two cores.

const snapshotMagic = "FTSX"

// Version 2 added layout files and view references; 3 Java files, res/xml
// and navigation resources, plurals, classes and the names code reaches, and
// the batched layout; 4 is this format (up to 3 it was gob).
const snapshotVersion = 4

// marshal serialises the index so the app can cache it between runs.
func (idx *Index) marshal() ([]byte, error) {
	idx.mu.RLock()
	defer idx.mu.RUnlock()
	w := snapshotWriter{ids: map[string]uint64{}, fileNo: make(map[*FileIndex]uint64, len(idx.files))}
	var head, files, lookup []byte
	w.to(&files)
	for _, fi := range idx.files {
		w.fileNo[fi] = uint64(len(w.fileNo))
		w.file(fi)
	}
	w.to(&lookup)
	lists := 0 // every posting the maps hold, so the reader sets them aside at once
	for _, m := range []map[string][]posting{idx.byValue, idx.defs, idx.calls} {
		for _, ps := range m {
			lists += len(ps)
		}
	}
	for _, ps := range idx.byKey {
		lists += len(ps)
	}
	w.num(uint64(lists))
	w.postingMap(idx.byValue)
	w.postingMap(idx.defs)
	w.postingMap(idx.calls)
	w.num(uint64(len(idx.byKey)))
	for k, ps := range idx.byKey {
		w.num(uint64(k.kind))
		w.str(k.name)
		w.postings(ps)
	}
	w.fileMap(idx.classFiles)
	w.fileMap(idx.layoutFiles)
	w.num(uint64(len(idx.templated)))
	for _, tp := range idx.templated {
		w.postings([]posting{tp.posting})
		w.strList(tp.parts)
	}
	w.to(&head)
	w.str(idx.root)
	w.str(idx.reason)
	w.num(uint64(len(idx.modules)))
	for _, m := range idx.modules {
		w.str(m.Name)
		w.str(m.Dir)
	}
	w.num(uint64(len(idx.files)))
	w.num(uint64(len(files)))
	entries := 0
	for _, fi := range idx.files {
		entries += len(fi.Entries)
	}
	w.num(uint64(entries))

	out := make([]byte, 0, w.table+len(head)+len(files)+len(lookup)+16)
	out = append(out, snapshotMagic...)
	out = binary.AppendUvarint(out, snapshotVersion)
	out = binary.AppendUvarint(out, uint64(len(w.strs)))
	for _, s := range w.strs {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	out = append(append(append(out, head...), files...), lookup...)
	return out, nil
}

// snapshotWriter numbers strings and files as it meets them and writes records
// into whichever section it is pointed at.
type snapshotWriter struct {
	ids    map[string]uint64
	strs   []string
	table  int // the string table's size in bytes, to size the output
	fileNo map[*FileIndex]uint64
	out    *[]byte
}

func (w *snapshotWriter) to(section *[]byte) { w.out = section }

func (w *snapshotWriter) num(v uint64) { *w.out = binary.AppendUvarint(*w.out, v) }

func (w *snapshotWriter) signed(v int64) { *w.out = binary.AppendVarint(*w.out, v) }

func (w *snapshotWriter) str(s string) {
	id, ok := w.ids[s]
	if !ok {
		id = uint64(len(w.strs))
		w.ids[s] = id
		w.strs = append(w.strs, s)
		w.table += len(s) + binary.MaxVarintLen32
	}
	w.num(id)
}

func (w *snapshotWriter) strList(l []string) {
	w.num(uint64(len(l)))
	for _, s := range l {
		w.str(s)
	}
}

func (w *snapshotWriter) postings(ps []posting) {
	w.num(uint64(len(ps)))
	for _, p := range ps {
		w.num(w.fileNo[p.file])
		w.num(uint64(p.n))
	}
}

func (w *snapshotWriter) postingMap(m map[string][]posting) {
	w.num(uint64(len(m)))
	for k, ps := range m {
		w.str(k)
		w.postings(ps)
	}
}

func (w *snapshotWriter) fileMap(m map[string][]*FileIndex) {
	w.num(uint64(len(m)))
	for k, fs := range m {
		w.str(k)
		w.num(uint64(len(fs)))
		for _, fi := range fs {
			w.num(w.fileNo[fi])
		}
	}
}

func (w *snapshotWriter) file(fi *FileIndex) {
	w.str(fi.Path)
	w.str(fi.Module)
	w.str(fi.SourceSet)
	w.signed(fi.ModTime)
	w.signed(fi.Size)
	w.str(fi.Package)
	w.str(fi.Layout)
	w.num(uint64(len(fi.Entries)))
	for _, e := range fi.Entries {
		flags := uint64(e.Kind)<<9 | uint64(e.Ctx)<<1
		if e.Templated {
			flags |= 1
		}
		w.num(flags)
		w.str(e.Value)
		w.str(e.Key)
		w.signed(int64(e.Line))
		w.signed(int64(e.Owner))
		w.num(uint64(e.LineHash))
	}
	w.num(uint64(len(fi.Defs)))
	for _, d := range fi.Defs {
		w.str(d.Name)
		for _, v := range []int32{d.Line, d.EndLine, d.Start, d.End} {
			w.signed(int64(v))
		}
		preview := uint64(0)
		if d.Preview {
			preview = 1
		}
		w.num(preview)
	}
	w.num(uint64(len(fi.Calls)))
	for _, c := range fi.Calls {
		w.str(c.Name)
		w.signed(int64(c.Line))
		w.signed(int64(c.Owner))
	}
	w.num(uint64(len(fi.Activities)))
	for _, a := range fi.Activities {
		w.str(a.Name)
		w.signed(int64(a.Line))
		w.str(a.Base)
	}
	w.strList(fi.Classes)
	w.strList(fi.Refs)
}

// WriteCache writes the index to path (0600, its folder 0700) through a
// temporary file, so a reader never sees half a cache, and removes the cache
// an older FixThis kept beside it in gob.
func (idx *Index) WriteCache(path string) error {
	data, err := idx.marshal()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	_ = os.Remove(filepath.Join(filepath.Dir(path), legacyCacheName))
	return nil
}

// legacyCacheName is the gob cache of versions up to 3.
const legacyCacheName = "source-index.gob"
