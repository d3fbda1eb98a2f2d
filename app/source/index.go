// Package source indexes the Kotlin sources and string resources of an Android
// project, without Gradle, and matches a selected UI target (text, content
// description, testTag, role, nearby nodes, activity) to ranked source
// candidates carrying the handoff contract's reason tokens.
package source

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Index is a searchable snapshot of one project's UI sources. It is safe for
// concurrent use: Match may run while Update or Watch re-index files.
type Index struct {
	mu      sync.RWMutex
	root    string
	reason  string
	modules []module
	files   map[string]*FileIndex
	// byValue maps a normalised string to the entries showing it.
	byValue map[string][]posting
	// byKey maps a reference to the entries making it: {kindStringRes, x}
	// (code or layouts using R.string.x), {kindRef, NAME} (code passing
	// constant NAME), {kindViewID, x} (layout elements with android:id x),
	// {kindIDRef, x} (code reaching view x) and {kindLayoutRef, kind/x} (code
	// or <include> inflating layout x).
	byKey map[refKey][]posting
	// templated holds entries whose value has template holes; they are matched
	// by scanning, since a hole can stand for any text.
	templated []templatedPosting
	defs      map[string][]posting // composable name → file + def index (entry field)
	calls     map[string][]posting // composable-looking name → file + call index
	// classFiles and layoutFiles find the file declaring a class or a
	// layout-like resource ("layout/main", "xml/prefs"), for reachable.
	classFiles  map[string][]*FileIndex
	layoutFiles map[string][]*FileIndex
	// reachCache holds reachable's answer per Activity; any change to the
	// files clears it. reachMu guards it, since Match runs under the read lock.
	reachMu    sync.Mutex
	reachCache map[string]map[*FileIndex]bool
	buildTime  time.Duration
	// app is the source index the installed app carries, nil when none was read.
	app *AppIndex
}

type posting struct {
	file *FileIndex
	n    int32
}

// templatedPosting keeps the literal parts of a templated value, normalised
// once at index time so matching does not redo it per query.
type templatedPosting struct {
	posting
	parts []string
}

// Stats summarises an index for the CLI and the console.
type Stats struct {
	Root          string        `json:"root"`
	Reason        string        `json:"reason,omitempty"`
	Modules       int           `json:"modules"`
	Files         int           `json:"files"`
	KotlinFiles   int           `json:"kotlinFiles"`
	StringFiles   int           `json:"stringFiles"`
	LayoutFiles   int           `json:"layoutFiles"`
	ViewIDs       int           `json:"viewIds"`
	Composables   int           `json:"composables"`
	Entries       int           `json:"entries"`
	Tags          int           `json:"testTags"`
	StringRes     int           `json:"stringResources"`
	Activities    int           `json:"activities"`
	SharedCallees int           `json:"sharedComponents"`
	BuildTime     time.Duration `json:"buildTimeNs"`
}

// Build indexes the project at dir. A missing or unreadable project directory
// is not an error: it yields an empty index whose Stats().Reason says why, so
// callers show "no source candidates" instead of failing.
func Build(ctx context.Context, dir string) (*Index, error) {
	start := time.Now()
	idx := newIndex(dir)
	abs, err := filepath.Abs(dir)
	if err == nil {
		idx.root = abs
	}
	if dir == "" {
		idx.reason = "no project directory configured"
		return idx, nil
	}
	st, err := os.Stat(idx.root)
	switch {
	case os.IsNotExist(err):
		idx.reason = fmt.Sprintf("project directory %s does not exist", idx.root)
		return idx, nil
	case err != nil:
		idx.reason = fmt.Sprintf("project directory %s is unreadable: %v", idx.root, err)
		return idx, nil
	case !st.IsDir():
		idx.reason = fmt.Sprintf("project path %s is not a directory", idx.root)
		return idx, nil
	}
	mods, err := readModules(idx.root)
	if err != nil {
		return nil, fmt.Errorf("read modules of %s: %w", idx.root, err)
	}
	idx.modules = mods
	found, err := discover(ctx, idx.root, mods)
	if err != nil {
		return nil, err
	}
	parsed, err := parseAll(ctx, idx.root, found)
	if err != nil {
		return nil, err
	}
	for _, fi := range parsed {
		idx.addFile(fi)
	}
	if len(found) == 0 {
		idx.reason = fmt.Sprintf("no Kotlin sources under %s (looked in <module>/src/*/ of %d modules)", idx.root, len(mods))
	}
	idx.buildTime = time.Since(start)
	return idx, nil
}

func newIndex(root string) *Index {
	return &Index{
		root: root, files: map[string]*FileIndex{}, byValue: map[string][]posting{},
		byKey: map[refKey][]posting{}, defs: map[string][]posting{}, calls: map[string][]posting{},
		classFiles: map[string][]*FileIndex{}, layoutFiles: map[string][]*FileIndex{},
	}
}

// parseAll reads and indexes files on every core.
func parseAll(ctx context.Context, root string, files []sourceFile) ([]*FileIndex, error) {
	out := make([]*FileIndex, len(files))
	errs := make([]error, len(files))
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				out[i], errs[i] = parseFile(root, files[i])
			}
		}()
	}
	for i := range files {
		if ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("index %s: %w", root, err)
	}
	var kept []*FileIndex
	for i, fi := range out {
		if errs[i] != nil {
			continue // a file that vanished or fails to parse must not sink the index
		}
		kept = append(kept, fi)
	}
	return kept, nil
}

func parseFile(root string, sf sourceFile) (*FileIndex, error) {
	p := filepath.Join(root, filepath.FromSlash(sf.Rel))
	st, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("stat %s: %w", sf.Rel, err)
	}
	src, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", sf.Rel, err)
	}
	fi := &FileIndex{Path: sf.Rel, Module: sf.Module, SourceSet: sf.SourceSet, ModTime: st.ModTime().UnixNano(), Size: st.Size()}
	if key, ok := layoutOf(sf.Rel); ok {
		fi.Layout = key
		if err := extractLayout(fi, src); err != nil {
			return nil, err
		}
		return fi, nil
	}
	if strings.HasSuffix(sf.Rel, ".xml") {
		if err := extractStrings(fi, src); err != nil {
			return nil, err
		}
		return fi, nil
	}
	extractKotlin(fi, src)
	fi.Package = packageName(src)
	return fi, nil
}

func packageName(src []byte) string {
	for _, line := range bytes.SplitN(src, []byte("\n"), 60) {
		line = bytes.TrimSpace(line)
		if rest, ok := bytes.CutPrefix(line, []byte("package ")); ok {
			return string(bytes.TrimSpace(bytes.TrimSuffix(rest, []byte(";"))))
		}
	}
	return ""
}

// valueKind says whether entries of a kind are found by the text they show.
func valueKind(k uint8) bool {
	switch k {
	case kindText, kindCD, kindTag, kindLiteral, kindXMLString, kindConst:
		return true
	}
	return false
}

// templatedEntry says whether an entry's value has holes, so it is matched by
// scanning rather than looked up.
func templatedEntry(e Entry) bool { return e.Templated || strings.Contains(e.Value, templateMark) }

// addFile links a parsed file into the lookup maps.
func (idx *Index) addFile(fi *FileIndex) {
	idx.files[fi.Path] = fi
	idx.reachCache = nil
	for _, c := range fi.Classes {
		idx.classFiles[c] = append(idx.classFiles[c], fi)
	}
	if fi.Layout != "" {
		idx.layoutFiles[fi.Layout] = append(idx.layoutFiles[fi.Layout], fi)
	}
	for i, e := range fi.Entries {
		p := posting{fi, int32(i)}
		if valueKind(e.Kind) {
			if templatedEntry(e) {
				if parts := templateParts(e.Value); parts != nil {
					idx.templated = append(idx.templated, templatedPosting{p, parts})
				}
			} else if k := normalize(e.Value); k != "" {
				idx.byValue[k] = append(idx.byValue[k], p)
			}
		}
		if k, ok := entryKey(e); ok {
			idx.byKey[k] = append(idx.byKey[k], p)
		}
	}
	for i, d := range fi.Defs {
		idx.defs[d.Name] = append(idx.defs[d.Name], posting{fi, int32(i)})
	}
	for i, c := range fi.Calls {
		idx.calls[c.Name] = append(idx.calls[c.Name], posting{fi, int32(i)})
	}
}

// refKey is a byKey key: an entry kind and the name it refers to (a struct,
// so filing an entry allocates no key string).
type refKey struct {
	kind uint8
	name string
}

// entryKey is the byKey key an entry is filed under, if any.
func entryKey(e Entry) (refKey, bool) {
	switch e.Kind {
	case kindStringRes, kindRef, kindViewID, kindIDRef, kindLayoutRef:
		return refKey{e.Kind, e.Key}, true
	}
	return refKey{}, false
}

// removeFile unlinks a file; only the lists it appears in are touched, which
// keeps an update proportional to the file, not the project.
func (idx *Index) removeFile(fi *FileIndex) {
	delete(idx.files, fi.Path)
	idx.reachCache = nil
	dropFile := func(m map[string][]*FileIndex, k string) {
		kept := m[k][:0]
		for _, f := range m[k] {
			if f != fi {
				kept = append(kept, f)
			}
		}
		if len(kept) == 0 {
			delete(m, k)
		} else {
			m[k] = kept
		}
	}
	for _, c := range fi.Classes {
		dropFile(idx.classFiles, c)
	}
	if fi.Layout != "" {
		dropFile(idx.layoutFiles, fi.Layout)
	}
	drop := func(m map[string][]posting, k string) { dropPostings(m, k, fi) }
	templated := false
	for _, e := range fi.Entries {
		if e.Templated || strings.Contains(e.Value, templateMark) {
			templated = true
		} else if k := normalize(e.Value); k != "" {
			drop(idx.byValue, k)
		}
		if k, ok := entryKey(e); ok {
			dropPostings(idx.byKey, k, fi)
		}
	}
	if templated {
		kept := idx.templated[:0]
		for _, p := range idx.templated {
			if p.file != fi {
				kept = append(kept, p)
			}
		}
		idx.templated = kept
	}
	for _, d := range fi.Defs {
		drop(idx.defs, d.Name)
	}
	for _, c := range fi.Calls {
		drop(idx.calls, c.Name)
	}
}

// Root is the absolute project directory.
func (idx *Index) Root() string { return idx.root }

// Stats counts what the index holds.
func (idx *Index) Stats() Stats {
	idx.mu.RLock()
	defer idx.mu.RUnlock()
	st := Stats{Root: idx.root, Reason: idx.reason, Modules: len(idx.modules), Files: len(idx.files), BuildTime: idx.buildTime}
	for _, fi := range idx.files {
		if fi.Layout != "" {
			st.LayoutFiles++
		} else if strings.HasSuffix(fi.Path, ".xml") {
			st.StringFiles++
		} else {
			st.KotlinFiles++
		}
		st.Composables += len(fi.Defs)
		st.Entries += len(fi.Entries)
		st.Activities += len(fi.Activities)
		for _, e := range fi.Entries {
			switch e.Kind {
			case kindTag:
				st.Tags++
			case kindXMLString:
				st.StringRes++
			case kindViewID:
				st.ViewIDs++
			}
		}
	}
	for name := range idx.defs {
		if len(idx.calls[name]) >= 2 {
			st.SharedCallees++
		}
	}
	return st
}

// dropPostings removes fi's postings under key k.
func dropPostings[K comparable](m map[K][]posting, k K, fi *FileIndex) {
	ps := m[k]
	kept := ps[:0]
	for _, p := range ps {
		if p.file != fi {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		delete(m, k)
	} else {
		m[k] = kept
	}
}
