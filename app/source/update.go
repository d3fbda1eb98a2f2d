package source

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Update re-indexes only the given files (absolute or relative to the root):
// changed files are re-parsed, deleted ones dropped, new ones added when they
// lie under a module's src/<set>/ folder.
func (idx *Index) Update(ctx context.Context, changed []string) error {
	type result struct {
		rel string
		fi  *FileIndex
	}
	var results []result
	for _, p := range changed {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("update source index: %w", err)
		}
		rel := p
		if filepath.IsAbs(p) {
			r, err := filepath.Rel(idx.root, p)
			if err != nil {
				return fmt.Errorf("update source index: %s is outside %s: %w", p, idx.root, err)
			}
			rel = r
		}
		rel = filepath.ToSlash(filepath.Clean(rel))
		if strings.HasPrefix(rel, "../") || !wanted(rel) {
			continue
		}
		sf, ok := idx.locate(rel)
		if !ok {
			continue
		}
		fi, err := parseFile(idx.root, sf)
		if err != nil {
			// Deleted, or unreadable mid-write: drop the stale entries; the next
			// poll sees the file again if it comes back.
			fi = nil
		}
		results = append(results, result{rel, fi})
	}
	idx.mu.Lock()
	defer idx.mu.Unlock()
	for _, r := range results {
		if old, ok := idx.files[r.rel]; ok {
			idx.removeFile(old)
		}
		if r.fi != nil {
			idx.addFile(r.fi)
		}
	}
	return nil
}

// locate finds the module and source set a relative path belongs to.
func (idx *Index) locate(rel string) (sourceFile, bool) {
	best := -1
	for i, m := range idx.modules {
		prefix := m.Dir + "/src/"
		if m.Dir == "." {
			prefix = "src/"
		}
		if strings.HasPrefix(rel, prefix) && (best < 0 || len(m.Dir) > len(idx.modules[best].Dir) || idx.modules[best].Dir == ".") {
			best = i
		}
	}
	if best < 0 {
		return sourceFile{}, false
	}
	m := idx.modules[best]
	rest := strings.TrimPrefix(rel, strings.TrimPrefix(m.Dir+"/", "./")+"src/")
	set, _, ok := strings.Cut(rest, "/")
	if !ok {
		return sourceFile{}, false
	}
	return sourceFile{Rel: rel, Module: m.Name, SourceSet: set}, true
}

// Refresh compares the index with the disk (modification time and size) and
// re-indexes what changed. It returns the paths it updated.
func (idx *Index) Refresh(ctx context.Context) ([]string, error) {
	if idx.root == "" || len(idx.modules) == 0 {
		return nil, nil
	}
	disk, err := scanDisk(ctx, idx.root, idx.modules)
	if err != nil {
		return nil, err
	}
	return idx.refreshFrom(ctx, disk)
}

// diskFile is a source file as the disk has it now.
type diskFile struct {
	rel           string
	modTime, size int64
	statted       bool // false: it could not be read now (mid-write); left as indexed
}

// scanDisk lists the modules' source files with their modification times and sizes.
func scanDisk(ctx context.Context, root string, modules []module) ([]diskFile, error) {
	found, err := discover(ctx, root, modules)
	if err != nil {
		return nil, fmt.Errorf("refresh source index: %w", err)
	}
	disk := make([]diskFile, len(found))
	for i, sf := range found {
		disk[i].rel = sf.Rel
		if st, err := os.Stat(filepath.Join(root, filepath.FromSlash(sf.Rel))); err == nil {
			disk[i].modTime, disk[i].size, disk[i].statted = st.ModTime().UnixNano(), st.Size(), true
		}
	}
	return disk, nil
}

// refreshFrom re-indexes the files that differ from disk: changed, new and gone.
func (idx *Index) refreshFrom(ctx context.Context, disk []diskFile) ([]string, error) {
	idx.mu.RLock()
	var changed []string
	present := make(map[string]bool, len(disk))
	for _, d := range disk {
		present[d.rel] = true
		if !d.statted {
			continue
		}
		fi, ok := idx.files[d.rel]
		if !ok || fi.ModTime != d.modTime || fi.Size != d.size {
			changed = append(changed, d.rel)
		}
	}
	for rel := range idx.files {
		if !present[rel] {
			changed = append(changed, rel)
		}
	}
	idx.mu.RUnlock()
	if len(changed) == 0 {
		return nil, nil
	}
	return changed, idx.Update(ctx, changed)
}

// Watch keeps the index current by polling modification times every interval
// (1 s when zero) until ctx ends. Polling avoids a file-notification
// dependency and behaves the same on every OS. onChange, when set, is called
// with the paths re-indexed by each poll that found changes.
func (idx *Index) Watch(ctx context.Context, interval time.Duration, onChange func([]string)) error {
	if interval <= 0 {
		interval = time.Second
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		changed, err := idx.Refresh(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("watch %s: %w", idx.root, err)
		}
		if len(changed) > 0 && onChange != nil {
			onChange(changed)
		}
	}
}
