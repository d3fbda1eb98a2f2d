package sim

import (
	"errors"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"time"
)

// memFS is the device's in-memory file system: directories and regular files only,
// enough for push/pull, uiautomator dump to a file, and shell redirects.
type memFS struct {
	mu    sync.RWMutex
	nodes map[string]*memNode // by clean absolute path
}

type memNode struct {
	dir   bool
	mode  fs.FileMode // permission bits
	data  []byte
	mtime time.Time
}

// fileInfo is a snapshot of one node.
type fileInfo struct {
	Name  string
	Dir   bool
	Mode  uint32 // st_mode: type bits | permissions
	Size  int64
	MTime time.Time
}

const (
	sIFDIR = 0o040000
	sIFREG = 0o100000
)

func newDeviceFS(p Profile) *memFS {
	m := &memFS{nodes: map[string]*memNode{"/": {dir: true, mode: 0o755}}}
	for _, dir := range []string{
		"/sdcard", "/sdcard/Download", "/sdcard/DCIM", "/sdcard/Pictures", "/sdcard/Android",
		"/storage/emulated/0", "/data", "/data/local", "/data/local/tmp", "/system",
		"/system/bin", "/vendor", "/proc", "/dev", "/etc", "/data/app", "/data/user/0",
	} {
		m.mkdirAll(dir, 0o771)
	}
	m.writeFile("/system/build.prop", []byte(buildProp(p)), 0o644)
	m.writeFile("/proc/version", []byte("Linux version 5.15.123-android14-11 (build-user@build-host) #1 SMP PREEMPT\n"), 0o444)
	if p.App.Package != "" {
		m.mkdirAll("/data/app/"+p.App.Package+"-1", 0o755)
		m.writeFile("/data/app/"+p.App.Package+"-1/base.apk", []byte("PK\x03\x04"), 0o644)
	}
	return m
}

func buildProp(p Profile) string {
	keys := make([]string, 0, len(p.Props))
	for k := range p.Props {
		if strings.HasPrefix(k, "ro.") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("# begin build properties\n")
	for _, k := range keys {
		b.WriteString(k + "=" + p.Props[k] + "\n")
	}
	return b.String()
}

// clean resolves name against /, mapping the /sdcard alias onto the storage path
// as Android's symlink does.
func cleanPath(name string) string {
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

var (
	errNotExist = errors.New("No such file or directory")
	errIsDir    = errors.New("Is a directory")
	errNotDir   = errors.New("Not a directory")
)

func (m *memFS) mkdirAll(name string, mode fs.FileMode) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	p := cleanPath(name)
	var parts []string
	for q := p; q != "/"; q = path.Dir(q) {
		parts = append(parts, q)
	}
	for i := len(parts) - 1; i >= 0; i-- {
		n, ok := m.nodes[parts[i]]
		if ok && !n.dir {
			return errNotDir
		}
		if !ok {
			m.nodes[parts[i]] = &memNode{dir: true, mode: mode, mtime: time.Now()}
		}
	}
	return nil
}

func (m *memFS) writeFile(name string, data []byte, mode fs.FileMode) error {
	return m.put(name, data, mode, false)
}

func (m *memFS) appendFile(name string, data []byte) error {
	return m.put(name, data, 0o644, true)
}

func (m *memFS) put(name string, data []byte, mode fs.FileMode, appendTo bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	p := cleanPath(name)
	parent, ok := m.nodes[path.Dir(p)]
	if !ok {
		return errNotExist
	}
	if !parent.dir {
		return errNotDir
	}
	n, ok := m.nodes[p]
	if ok && n.dir {
		return errIsDir
	}
	if ok && appendTo {
		n.data = append(n.data, data...)
		n.mtime = time.Now()
		return nil
	}
	m.nodes[p] = &memNode{mode: mode.Perm(), data: append([]byte(nil), data...), mtime: time.Now()}
	return nil
}

// setMTime applies the modification time a push carries.
func (m *memFS) setMTime(name string, t time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if n, ok := m.nodes[cleanPath(name)]; ok {
		n.mtime = t
	}
}

func (m *memFS) readFile(name string) ([]byte, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	n, ok := m.nodes[cleanPath(name)]
	if !ok {
		return nil, errNotExist
	}
	if n.dir {
		return nil, errIsDir
	}
	return n.data, nil // callers never modify it: writes replace the slice
}

func (m *memFS) stat(name string) (fileInfo, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	p := cleanPath(name)
	n, ok := m.nodes[p]
	if !ok {
		return fileInfo{}, errNotExist
	}
	return n.info(path.Base(p)), nil
}

func (n *memNode) info(name string) fileInfo {
	fi := fileInfo{Name: name, Dir: n.dir, Size: int64(len(n.data)), MTime: n.mtime, Mode: uint32(n.mode.Perm())}
	if n.dir {
		fi.Mode |= sIFDIR
		fi.Size = 4096
	} else {
		fi.Mode |= sIFREG
	}
	return fi
}

func (m *memFS) list(name string) ([]fileInfo, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	p := cleanPath(name)
	n, ok := m.nodes[p]
	if !ok {
		return nil, errNotExist
	}
	if !n.dir {
		return []fileInfo{n.info(path.Base(p))}, nil
	}
	var out []fileInfo
	for q, c := range m.nodes {
		if q != "/" && path.Dir(q) == p {
			out = append(out, c.info(path.Base(q)))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func (m *memFS) remove(name string, recursive bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	p := cleanPath(name)
	n, ok := m.nodes[p]
	if !ok {
		return errNotExist
	}
	if n.dir && !recursive {
		return errIsDir
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

// Files lists the paths of the device's regular files, sorted: what a test looks at
// to see whether a command it sent created a file.
func (d *Device) Files() []string {
	d.fs.mu.RLock()
	defer d.fs.mu.RUnlock()
	var out []string
	for name, n := range d.fs.nodes {
		if !n.dir {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}
