package source

import (
	"bytes"
	"encoding/gob"
	"fmt"
)

// The cache format: a header, then the files in batches, so loading can
// decode the next batch on one core while the lookup maps take in the last
// one on the other (the two halves cost about the same).

type snapshotHeader struct {
	Version int
	Root    string
	Reason  string
	Modules []module
	// Files and Entries size the maps on load.
	Files, Entries int
}

// Version 2 added layout files and view references; 3 Java files, res/xml
// and navigation resources, plurals, classes and the names code reaches, and
// the batched layout.
const snapshotVersion = 3

const snapshotBatch = 128

// Marshal serialises the index so the app can cache it between runs.
func (idx *Index) Marshal() ([]byte, error) {
	idx.mu.RLock()
	defer idx.mu.RUnlock()
	h := snapshotHeader{Version: snapshotVersion, Root: idx.root, Reason: idx.reason, Modules: idx.modules, Files: len(idx.files)}
	files := make([]*FileIndex, 0, len(idx.files))
	for _, fi := range idx.files {
		files = append(files, fi)
		h.Entries += len(fi.Entries)
	}
	var buf bytes.Buffer
	enc := gob.NewEncoder(&buf)
	if err := enc.Encode(&h); err != nil {
		return nil, fmt.Errorf("encode source index: %w", err)
	}
	for i := 0; i < len(files); i += snapshotBatch {
		if err := enc.Encode(files[i:min(i+snapshotBatch, len(files))]); err != nil {
			return nil, fmt.Errorf("encode source index: %w", err)
		}
	}
	return buf.Bytes(), nil
}

// Unmarshal restores an index written by Marshal. Call Refresh afterwards to
// pick up files that changed while it sat in the cache.
func Unmarshal(data []byte) (*Index, error) {
	dec := gob.NewDecoder(bytes.NewReader(data))
	var h snapshotHeader
	if err := dec.Decode(&h); err != nil {
		return nil, fmt.Errorf("decode source index: %w", err)
	}
	if h.Version != snapshotVersion {
		return nil, fmt.Errorf("decode source index: version %d, want %d", h.Version, snapshotVersion)
	}
	idx := newIndex(h.Root)
	idx.reason, idx.modules = h.Reason, h.Modules
	// Sizing the lookup maps up front spares the rehashing a large project
	// would otherwise go through on every start.
	idx.files = make(map[string]*FileIndex, h.Files)
	idx.byValue = make(map[string][]posting, h.Entries/2)
	idx.byKey = make(map[refKey][]posting, h.Entries/4)
	batches := make(chan []*FileIndex, 2)
	var decErr error
	go func() {
		defer close(batches)
		for read := 0; read < h.Files; {
			var batch []*FileIndex
			if err := dec.Decode(&batch); err != nil {
				decErr = err
				return
			}
			read += len(batch)
			batches <- batch
		}
	}()
	for batch := range batches {
		for _, fi := range batch {
			idx.addFile(fi)
		}
	}
	if decErr != nil {
		return nil, fmt.Errorf("decode source index: %w", decErr)
	}
	return idx, nil
}
