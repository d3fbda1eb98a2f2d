// The device's in-memory file system.
package shell

import (
	"errors"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"time"
)

// FS is the device's in-memory file system: directories and regular files only,
// enough for push/pull, uiautomator dump to a file, and shell redirects. Paths are
// resolved against / with the device's storage aliases (see Clean); every method
// is safe for concurrent use.
type FS struct {
	mu    sync.RWMutex
	nodes map[string]*memNode // by clean absolute path
}

type memNode struct {
	dir   bool
	mode  fs.FileMode // permission bits
	data  []byte
	mtime time.Time
}

// fileInfo is a snapshot of one node; it is the fs.FileInfo every method returns.
type fileInfo struct {
	name  string
	dir   bool
	perm  fs.FileMode
	size  int64
	mtime time.Time
}

func (fi fileInfo) Name() string       { return fi.name }
func (fi fileInfo) Size() int64        { return fi.size }
func (fi fileInfo) ModTime() time.Time { return fi.mtime }
func (fi fileInfo) IsDir() bool        { return fi.dir }
func (fi fileInfo) Sys() any           { return nil }

func (fi fileInfo) Mode() fs.FileMode {
	if fi.dir {
		return fs.ModeDir | fi.perm
	}
	return fi.perm
}

// NewFS is a file system holding only the root directory.
func NewFS() *FS { return &FS{nodes: map[string]*memNode{"/": {dir: true, mode: 0o755}}} }

// Clean resolves name against /, mapping the storage aliases onto /sdcard and
// /data/data onto /data/user/0 as the device's symlinks do (a memory file system
// has no symlinks of its own).
func Clean(name string) string {
	if !strings.HasPrefix(name, "/") {
		name = "/" + name
	}
	p := path.Clean(name)
	if p == "/storage/self/primary" || strings.HasPrefix(p, "/storage/self/primary/") {
		p = "/sdcard" + strings.TrimPrefix(p, "/storage/self/primary")
	}
	if strings.HasPrefix(p, "/data/data/") {
		p = "/data/user/0/" + strings.TrimPrefix(p, "/data/data/")
	}
	if p == "/storage/emulated/0" || strings.HasPrefix(p, "/storage/emulated/0/") {
		p = "/sdcard" + strings.TrimPrefix(p, "/storage/emulated/0")
	}
	return p
}

// The errors carry the texts a phone's tools print for ENOENT, EISDIR, ENOTDIR.
var (
	ErrNotExist = errors.New("No such file or directory")
	ErrIsDir    = errors.New("Is a directory")
	ErrNotDir   = errors.New("Not a directory")
)

func (m *FS) MkdirAll(name string, mode fs.FileMode) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	p := Clean(name)
	var parts []string
	for q := p; q != "/"; q = path.Dir(q) {
		parts = append(parts, q)
	}
	for i := len(parts) - 1; i >= 0; i-- {
		n, ok := m.nodes[parts[i]]
		if ok && !n.dir {
			return ErrNotDir
		}
		if !ok {
			m.nodes[parts[i]] = &memNode{dir: true, mode: mode, mtime: time.Now()}
		}
	}
	return nil
}

func (m *FS) WriteFile(name string, data []byte, mode fs.FileMode) error {
	return m.put(name, data, mode, false)
}

func (m *FS) AppendFile(name string, data []byte) error {
	return m.put(name, data, 0o644, true)
}

func (m *FS) put(name string, data []byte, mode fs.FileMode, appendTo bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	p := Clean(name)
	parent, ok := m.nodes[path.Dir(p)]
	if !ok {
		return ErrNotExist
	}
	if !parent.dir {
		return ErrNotDir
	}
	n, ok := m.nodes[p]
	if ok && n.dir {
		return ErrIsDir
	}
	if ok && appendTo {
		n.data = append(n.data, data...)
		n.mtime = time.Now()
		return nil
	}
	m.nodes[p] = &memNode{mode: mode.Perm(), data: append([]byte(nil), data...), mtime: time.Now()}
	return nil
}

// SetMTime applies the modification time a push carries.
func (m *FS) SetMTime(name string, t time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if n, ok := m.nodes[Clean(name)]; ok {
		n.mtime = t
	}
}

func (m *FS) ReadFile(name string) ([]byte, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	n, ok := m.nodes[Clean(name)]
	if !ok {
		return nil, ErrNotExist
	}
	if n.dir {
		return nil, ErrIsDir
	}
	return n.data, nil // callers never modify it: writes replace the slice
}

func (m *FS) Stat(name string) (fs.FileInfo, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	p := Clean(name)
	n, ok := m.nodes[p]
	if !ok {
		return nil, ErrNotExist
	}
	return n.info(path.Base(p)), nil
}

func (n *memNode) info(name string) fileInfo {
	fi := fileInfo{name: name, dir: n.dir, size: int64(len(n.data)), mtime: n.mtime, perm: n.mode.Perm()}
	if n.dir {
		fi.size = 4096
	}
	return fi
}

func (m *FS) List(name string) ([]fs.FileInfo, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	p := Clean(name)
	n, ok := m.nodes[p]
	if !ok {
		return nil, ErrNotExist
	}
	if !n.dir {
		return []fs.FileInfo{n.info(path.Base(p))}, nil
	}
	var out []fs.FileInfo
	for q, c := range m.nodes {
		if q != "/" && path.Dir(q) == p {
			out = append(out, c.info(path.Base(q)))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

func (m *FS) Remove(name string, recursive bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	p := Clean(name)
	n, ok := m.nodes[p]
	if !ok {
		return ErrNotExist
	}
	if n.dir && !recursive {
		return ErrIsDir
	}
	delete(m.nodes, p)
	if n.dir {
		for q := range m.nodes {
			if strings.HasPrefix(q, p+"/") {
				delete(m.nodes, q)
			}
		}
	}
	return nil
}

// Push stores a pushed file: it refuses a directory's path, creates missing
// parent directories (what adbd's fixed_push_mkdir promises) and applies the
// pushed mtime unless it is zero.
func (m *FS) Push(name string, data []byte, perm fs.FileMode, mtime time.Time) error {
	if fi, err := m.Stat(name); err == nil && fi.IsDir() {
		return ErrIsDir
	}
	if err := m.MkdirAll(path.Dir(Clean(name)), 0o771); err != nil {
		return err
	}
	if err := m.WriteFile(name, data, perm); err != nil {
		return err
	}
	if !mtime.IsZero() {
		m.SetMTime(name, mtime)
	}
	return nil
}

// Paths lists the paths of the regular files, sorted: what a test looks at to see
// whether a command it sent created a file.
func (m *FS) Paths() []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []string
	for name, n := range m.nodes {
		if !n.dir {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}
