package source

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"unsafe"
)

// Restore brings back an index written by WriteCache (data is the cache file's
// bytes, read or mapped) for the project at root, and re-indexes what changed on
// disk since; the disk is scanned while the cache decodes. The index's strings
// are slices of data, so the caller must not change data afterwards. It returns
// the paths it re-indexed; a cache of another project is an error.
func Restore(ctx context.Context, data []byte, root string) (*Index, []string, error) {
	var (
		disk    []diskFile
		scanErr error
		scanned = make(chan struct{})
		started bool
	)
	idx, err := unmarshal(data, func(h *Index) {
		started = true
		if h.root != root || len(h.modules) == 0 {
			close(scanned)
			return
		}
		go func() {
			defer close(scanned)
			disk, scanErr = scanDisk(ctx, h.root, h.modules)
		}()
	})
	if started {
		<-scanned
	}
	if err != nil {
		return nil, nil, fmt.Errorf("decode source index: %w", err)
	}
	if idx.root != root {
		return nil, nil, fmt.Errorf("the cached source index is of %s, not %s", idx.root, root)
	}
	if scanErr != nil || len(idx.modules) == 0 {
		return idx, nil, scanErr
	}
	changed, err := idx.refreshFrom(ctx, disk)
	return idx, changed, err
}

// unmarshal decodes data written by marshal; header, when set, is called with the index as soon as
// its root and modules are known, before the files are read.
func unmarshal(data []byte, header func(*Index)) (*Index, error) {
	if len(data) < len(snapshotMagic) || string(data[:len(snapshotMagic)]) != snapshotMagic {
		return nil, errors.New("not a FixThis source index cache")
	}
	r := &snapshotReader{data: data, pos: len(snapshotMagic)}
	if v := r.num(); r.err == nil && v != snapshotVersion {
		return nil, fmt.Errorf("version %d, want %d", v, snapshotVersion)
	}
	r.readTable()
	idx := newIndex(r.str())
	idx.reason = r.str()
	for n := r.count(2); n > 0 && r.err == nil; n-- {
		idx.modules = append(idx.modules, module{Name: r.str(), Dir: r.str()})
	}
	nFiles, filesLen, nEntries := r.count(7), r.num(), r.count(6)
	if r.err == nil && filesLen > uint64(len(data)-r.pos) {
		r.fail("a files section of %d bytes with %d left", filesLen, len(data)-r.pos)
	}
	if r.err != nil {
		return nil, r.err
	}
	if header != nil {
		header(idx)
	}
	// The files are one array, so the lookup section can point at them before
	// they are read: the two sections are read at once.
	files := make([]FileIndex, nFiles)
	lookupAt := r.pos + int(filesLen)
	lr := &snapshotReader{data: data, pos: lookupAt, strs: r.strs, files: files}
	// Every file's entries are slices of one array: one allocation, not 5,000.
	r.entries = make([]Entry, nEntries)
	var wg sync.WaitGroup
	wg.Go(func() { lr.lookup(idx) })
	for i := range files {
		r.file(&files[i])
	}
	if r.err == nil && r.pos != lookupAt {
		r.fail("the files section ends at byte %d, not where the lookup section starts", r.pos)
	}
	idx.files = make(map[string]*FileIndex, nFiles)
	for i := range files {
		idx.files[files[i].Path] = &files[i]
	}
	wg.Wait()
	if err := errors.Join(r.err, lr.err); err != nil {
		return nil, err
	}
	if len(idx.files) != nFiles {
		return nil, fmt.Errorf("%d files share a path", nFiles-len(idx.files))
	}
	if lr.pos != len(data) {
		return nil, fmt.Errorf("%d bytes after the lookup section", len(data)-lr.pos)
	}
	return idx, idx.checkPostings()
}

// snapshotReader reads the format marshal writes. The first error sticks: every
// later read answers zero, so callers check once per record, not per field.
type snapshotReader struct {
	data  []byte
	pos   int
	strs  []string
	files []FileIndex // the lookup section's readers: what file numbers name
	err   error
	// entries and postings are what is left of the arrays the lists are cut from.
	entries  []Entry
	postings []posting
}

// cut takes the next n items of *slab as a list of its own: its capacity ends
// where it does, so a later append moves it rather than overwriting the next.
func cut[T any](r *snapshotReader, slab *[]T, n int) []T {
	if n > len(*slab) {
		r.fail("a list of %d items with %d left of the count given", n, len(*slab))
		return nil
	}
	l := (*slab)[:n:n]
	*slab = (*slab)[n:]
	return l
}

func (r *snapshotReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("at byte %d: "+format, append([]any{r.pos}, args...)...)
	}
}

func (r *snapshotReader) num() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.data[r.pos:])
	if n <= 0 {
		r.fail("a number is cut short or too long")
		return 0
	}
	r.pos += n
	return v
}

// signed reads what binary.AppendVarint wrote: an unsigned varint, zigzagged.
func (r *snapshotReader) signed() int64 {
	v := r.num()
	return int64(v>>1) ^ -int64(v&1)
}

func (r *snapshotReader) int32() int32 {
	v := r.signed()
	if v != int64(int32(v)) {
		r.fail("%d is out of range", v)
		return 0
	}
	return int32(v)
}

// count reads a list's length, refusing one that the bytes left could not hold
// (each item takes at least minBytes), so a damaged cache cannot ask for a huge
// allocation.
func (r *snapshotReader) count(minBytes int) int {
	v := r.num()
	if left := len(r.data) - r.pos; r.err == nil && v > uint64(left/minBytes) {
		r.fail("a count of %d does not fit the %d bytes left", v, left)
		return 0
	}
	return int(v)
}

func (r *snapshotReader) str() string {
	id := r.num()
	if r.err == nil && id >= uint64(len(r.strs)) {
		r.fail("string %d of %d", id, len(r.strs))
	}
	if r.err != nil {
		return ""
	}
	return r.strs[id]
}

func (r *snapshotReader) strList() []string {
	n := r.count(1)
	if n == 0 {
		return nil
	}
	l := make([]string, n)
	for i := range l {
		l[i] = r.str()
	}
	return l
}

// readTable reads the string table; its strings are slices of data, not copies.
func (r *snapshotReader) readTable() {
	n := r.count(1)
	if r.err != nil {
		return
	}
	whole := unsafe.String(unsafe.SliceData(r.data), len(r.data))
	r.strs = make([]string, n)
	for i := range r.strs {
		size := r.num()
		if r.err == nil && size > uint64(len(r.data)-r.pos) {
			r.fail("a string of %d bytes with %d left", size, len(r.data)-r.pos)
		}
		if r.err != nil {
			return
		}
		r.strs[i] = whole[r.pos : r.pos+int(size)]
		r.pos += int(size)
	}
}

func (r *snapshotReader) file(fi *FileIndex) {
	*fi = FileIndex{Path: r.str(), Module: r.str(), SourceSet: r.str(), ModTime: r.signed(), Size: r.signed(), Package: r.str(), Layout: r.str()}
	if n := r.count(6); n > 0 {
		fi.Entries = cut(r, &r.entries, n)
		for i := range fi.Entries {
			flags := r.num()
			if flags >= 1<<17 {
				r.fail("entry flags %#x", flags)
			}
			e := &fi.Entries[i]
			e.Kind, e.Ctx, e.Templated = uint8(flags>>9), uint8(flags>>1), flags&1 == 1
			e.Value, e.Key = r.str(), r.str()
			e.Line, e.Owner = r.int32(), r.int32()
			if h := r.num(); h <= 1<<32-1 {
				e.LineHash = uint32(h)
			} else {
				r.fail("line hash %d", h)
			}
		}
	}
	if n := r.count(6); n > 0 {
		fi.Defs = make([]Def, n)
		for i := range fi.Defs {
			d := &fi.Defs[i]
			d.Name = r.str()
			d.Line, d.EndLine, d.Start, d.End = r.int32(), r.int32(), r.int32(), r.int32()
			d.Preview = r.num() == 1
		}
	}
	if n := r.count(3); n > 0 {
		fi.Calls = make([]Call, n)
		for i := range fi.Calls {
			fi.Calls[i] = Call{Name: r.str(), Line: r.int32(), Owner: r.int32()}
		}
	}
	if n := r.count(3); n > 0 {
		fi.Activities = make([]Activity, n)
		for i := range fi.Activities {
			fi.Activities[i] = Activity{Name: r.str(), Line: r.int32(), Base: r.str()}
		}
	}
	fi.Classes, fi.Refs = r.strList(), r.strList()
}

// lookup reads the lookup maps, each list at its final size.
func (r *snapshotReader) lookup(idx *Index) {
	r.postings = make([]posting, r.count(2))
	idx.byValue = r.postingMap()
	idx.defs = r.postingMap()
	idx.calls = r.postingMap()
	n := r.count(3)
	idx.byKey = make(map[refKey][]posting, n)
	for ; n > 0 && r.err == nil; n-- {
		kind := r.num()
		if kind > 255 {
			r.fail("entry kind %d", kind)
		}
		k := refKey{uint8(kind), r.str()}
		idx.byKey[k] = r.postingList(true)
	}
	idx.classFiles, idx.layoutFiles = r.fileMap(), r.fileMap()
	n = r.count(4)
	idx.templated = make([]templatedPosting, 0, n)
	for ; n > 0 && r.err == nil; n-- {
		ps := r.postingList(false)
		if len(ps) != 1 {
			r.fail("a templated entry with %d postings", len(ps))
			return
		}
		idx.templated = append(idx.templated, templatedPosting{ps[0], r.strList()})
	}
}

func (r *snapshotReader) fileRef() *FileIndex {
	n := r.num()
	if r.err == nil && n >= uint64(len(r.files)) {
		r.fail("file %d of %d", n, len(r.files))
	}
	if r.err != nil {
		return nil
	}
	return &r.files[n]
}

// postingList reads a list of postings: one of the four maps' lists, cut from
// their array, or (fromSlab false) a list with an array of its own.
func (r *snapshotReader) postingList(fromSlab bool) []posting {
	n := r.count(2)
	if n == 0 {
		return nil
	}
	var ps []posting
	if fromSlab {
		ps = cut(r, &r.postings, n)
	} else {
		ps = make([]posting, n)
	}
	for i := range ps {
		ps[i].file = r.fileRef()
		if v := r.num(); v <= 1<<31-1 {
			ps[i].n = int32(v)
		} else {
			r.fail("posting %d", v)
		}
	}
	return ps
}

func (r *snapshotReader) postingMap() map[string][]posting {
	n := r.count(2)
	m := make(map[string][]posting, n)
	for ; n > 0 && r.err == nil; n-- {
		k := r.str()
		m[k] = r.postingList(true)
	}
	return m
}

func (r *snapshotReader) fileMap() map[string][]*FileIndex {
	n := r.count(2)
	m := make(map[string][]*FileIndex, n)
	for ; n > 0 && r.err == nil; n-- {
		k := r.str()
		fs := make([]*FileIndex, r.count(1))
		for i := range fs {
			fs[i] = r.fileRef()
		}
		m[k] = fs
	}
	return m
}

// checkPostings refuses a cache whose lookup lists point past a file's lists,
// which a damaged file could do and Match would not survive.
func (idx *Index) checkPostings() error {
	entries := func(fi *FileIndex) int { return len(fi.Entries) }
	check := func(what, key string, ps []posting, size func(*FileIndex) int) error {
		for _, p := range ps {
			if p.n < 0 || int(p.n) >= size(p.file) {
				return fmt.Errorf("decode source index: %s %q points at item %d of %s", what, key, p.n, p.file.Path)
			}
		}
		return nil
	}
	each := func(what string, m map[string][]posting, size func(*FileIndex) int) error {
		for k, ps := range m {
			if err := check(what, k, ps, size); err != nil {
				return err
			}
		}
		return nil
	}
	if err := errors.Join(each("value", idx.byValue, entries),
		each("composable", idx.defs, func(fi *FileIndex) int { return len(fi.Defs) }),
		each("call", idx.calls, func(fi *FileIndex) int { return len(fi.Calls) })); err != nil {
		return err
	}
	for k, ps := range idx.byKey {
		if err := check("reference", k.name, ps, entries); err != nil {
			return err
		}
	}
	for _, tp := range idx.templated {
		if err := check("template", "", []posting{tp.posting}, entries); err != nil {
			return err
		}
	}
	return nil
}
