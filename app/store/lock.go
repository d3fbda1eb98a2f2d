package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// AppLock is held by the one FixThis app (window or `serve`) running on a
// project. A second app would overwrite the first's MCP endpoint file with its
// own and leave agents pointed at whichever stopped last; it is refused instead,
// with a message naming the first.
type AppLock struct{ f *os.File }

// LockApp takes the project's app lock, or fails naming the process that
// holds it. The lock is an flock, so it is released when the process exits,
// however it exits.
func LockApp(loc Locations) (*AppLock, error) {
	path := filepath.Join(loc.DataDir(), "app.lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, storageErr("opening "+path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		b, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			holder := "another process"
			if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); perr == nil {
				holder = "process " + strconv.Itoa(pid)
			}
			return nil, fmt.Errorf("FixThis is already running on %s (%s); use that window or console, or stop it first", loc.Project, holder)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &AppLock{f: f}, nil
}

// Release gives the lock up.
func (l *AppLock) Release() {
	if l != nil && l.f != nil {
		_ = l.f.Close()
	}
}

// DataExists says whether the project has a .fixthis folder, so read-only
// commands can answer without creating one.
func DataExists(loc Locations) bool {
	st, err := os.Stat(loc.DataDir())
	return err == nil && st.IsDir()
}
