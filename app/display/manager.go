package display

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"syscall"

	"fixthis/app/errcode"
)

// Manager changes display settings and keeps each phone's original values, in
// memory and in a 0600 file, from the first change until they are restored. All
// methods are safe for concurrent use; calls for one phone run one at a time.
type Manager struct {
	path string
	// OnChange, when set before use, is told the serial of every phone a Set or a
	// Restore changed (the app publishes ChangedEvent from it).
	OnChange func(serial string)

	mu    sync.Mutex
	saved map[string]raw // serial → the values before FixThis changed any
	// sizeOnly: the originals were kept by SetSize and nothing but the size was
	// changed since, so ResetSize, which puts the size back, leaves nothing to restore.
	sizeOnly map[string]bool
	busy     map[string]*sync.Mutex
}

// savedFile is the file's shape.
type savedFile struct {
	Version int            `json:"version"`
	Devices map[string]raw `json:"devices"`
}

// Open returns a manager that keeps originals at path, loading any a previous run
// left there (it crashed, or could not reach the phone when it quit). A file that
// does not parse is an error; the manager still works, starting empty.
func Open(path string) (*Manager, error) {
	m := &Manager{path: path, saved: map[string]raw{}, sizeOnly: map[string]bool{}, busy: map[string]*sync.Mutex{}}
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return m, nil
	case err != nil:
		return m, fmt.Errorf("read the saved display settings %s: %w", path, err)
	}
	var f savedFile
	if err := json.Unmarshal(b, &f); err != nil {
		return m, fmt.Errorf("read the saved display settings %s: %w", path, err)
	}
	for k, v := range f.Devices {
		m.saved[k] = v
	}
	return m, nil
}

// Pending lists the phones whose originals are kept, sorted.
func (m *Manager) Pending() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]string, 0, len(m.saved))
	for k := range m.saved {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Changed reports whether FixThis holds originals of serial.
func (m *Manager) Changed(serial string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.saved[serial]
	return ok
}

// lock serialises the calls for one phone.
func (m *Manager) lock(serial string) func() {
	m.mu.Lock()
	l, ok := m.busy[serial]
	if !ok {
		l = &sync.Mutex{}
		m.busy[serial] = l
	}
	m.mu.Unlock()
	l.Lock()
	return l.Unlock
}

// Read returns the phone's display conditions.
func (m *Manager) Read(ctx context.Context, t Target) (State, error) {
	defer m.lock(t.Serial)()
	return m.read(ctx, t)
}

func (m *Manager) read(ctx context.Context, t Target) (State, error) {
	r, sdk, err := readPhone(ctx, t)
	if err != nil {
		return State{}, err
	}
	st := r.state(sdk)
	st.Changed = m.Changed(t.Serial)
	return st, nil
}

// Set applies c and returns the conditions now in effect. The phone's values are
// saved (file first) before the first change; a value out of range or a locale on
// Android 12 and older changes nothing.
func (m *Manager) Set(ctx context.Context, t Target, c Change) (State, error) {
	if err := c.CheckValues(); err != nil {
		return State{}, err // refused by the grammar: nothing is sent to the phone
	}
	defer m.lock(t.Serial)()
	sdk, err := sdkOf(ctx, t)
	if err != nil {
		return State{}, err
	}
	if c.Locale != nil && sdk < LocaleSDK {
		return State{}, errcode.New(errcode.InvalidInput, "per-app languages need Android 13 (API %d); this phone runs API %d", LocaleSDK, sdk)
	}
	if c.Locale != nil && t.Package == "" {
		return State{}, errcode.New(errcode.InvalidInput, "no app to set the language of: the project names no application and no app is in front")
	}
	cur, err := readRaw(ctx, t, sdk)
	if err != nil {
		return State{}, err
	}
	if c.Locale != nil && cur.LocaleRefused != nil {
		// The app in front has no languages of its own to set (the phone would not
		// even read them): the request cannot apply to it. Nothing is changed.
		return State{}, errcode.Wrap(errcode.InvalidInput, cur.LocaleRefused, "%s has no per-app languages to set: %s",
			t.Package, reasonOf(cur.LocaleRefused))
	}
	if err := c.Validate(cur.PhysicalDensity); err != nil {
		return State{}, err
	}
	if err := m.keep(t.Serial, cur); err != nil {
		return State{}, err
	}
	m.mu.Lock()
	delete(m.sizeOnly, t.Serial) // more than the size now differs
	m.mu.Unlock()
	// Told even when a step fails: the steps before it changed the phone.
	defer m.changed(t.Serial)
	if err := apply(ctx, t, c); err != nil {
		return State{}, err
	}
	return m.read(ctx, t)
}

// changed tells OnChange that serial's settings may differ from a moment ago.
func (m *Manager) changed(serial string) {
	if m.OnChange != nil {
		m.OnChange(serial)
	}
}

// keep saves cur as serial's originals unless some are kept already; a locale
// read for an app the kept values do not cover is added to them.
func (m *Manager) keep(serial string, cur raw) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	old, ok := m.saved[serial]
	switch {
	case !ok:
		m.saved[serial] = cur
	case (old.Locales == nil && cur.Locales != nil) || (old.Size == nil && cur.Size != nil):
		with := old
		if old.Locales == nil && cur.Locales != nil {
			with.Package, with.Locales = cur.Package, cur.Locales
		}
		if old.Size == nil {
			with.Size = cur.Size
		}
		m.saved[serial] = with
	default:
		return nil
	}
	if err := m.writeLocked(); err != nil {
		// Not on disk, not kept: the next Set tries the file again rather than
		// change a phone whose originals a crash would lose.
		if ok {
			m.saved[serial] = old
		} else {
			delete(m.saved, serial)
		}
		return withConsequence(err, "the phone's settings were not changed, since a crash could not restore them")
	}
	return nil
}

func apply(ctx context.Context, t Target, c Change) error {
	if c.Night != nil {
		mode := "no"
		if *c.Night {
			mode = "yes"
		}
		if err := setNight(ctx, t.Shell, mode); err != nil {
			return err
		}
	}
	if c.FontScale != nil {
		if err := putSetting(ctx, t.Shell, "system", "font_scale", fmtSetting(*c.FontScale)); err != nil {
			return err
		}
	}
	if c.Density != nil {
		if err := setDensity(ctx, t.Shell, *c.Density); err != nil {
			return err
		}
	}
	if c.Locale != nil {
		if err := setLocales(ctx, t.Shell, t.Package, *c.Locale); err != nil {
			return err
		}
	}
	if c.AnimationScale != nil {
		for _, k := range animationKeys {
			if err := putSetting(ctx, t.Shell, "global", k, fmtSetting(*c.AnimationScale)); err != nil {
				return err
			}
		}
	}
	return nil
}

// Restore puts serial's original values back and forgets them; restored is false
// when none were kept. The originals stay kept when the phone refuses, so a later
// restore (or the next start) tries again.
func (m *Manager) Restore(ctx context.Context, t Target) (restored bool, err error) {
	defer m.lock(t.Serial)()
	m.mu.Lock()
	r, ok := m.saved[t.Serial]
	m.mu.Unlock()
	if !ok {
		return false, nil
	}
	defer m.changed(t.Serial)
	if err := restore(ctx, t.Shell, r); err != nil {
		return false, fmt.Errorf("restore the display settings of %s: %w", t.Serial, err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.saved, t.Serial)
	delete(m.sizeOnly, t.Serial)
	return true, m.writeLocked()
}

func restore(ctx context.Context, sh Shell, r raw) error {
	mode := r.NightMode
	switch {
	case mode == "yes" || mode == "no" || mode == "auto":
	case len(mode) >= 6 && mode[:6] == "custom":
		mode = "custom"
	default:
		mode = "auto"
	}
	if err := setNight(ctx, sh, mode); err != nil {
		return err
	}
	if err := putSetting(ctx, sh, "system", "font_scale", r.FontScale); err != nil {
		return err
	}
	if r.Size != nil {
		if err := setSize(ctx, sh, r.Size.Override); err != nil {
			return err
		}
	}
	if err := setDensity(ctx, sh, r.DensityOverride); err != nil {
		return err
	}
	if r.Locales != nil {
		if err := setLocales(ctx, sh, r.Package, *r.Locales); err != nil {
			return err
		}
	}
	for _, k := range animationKeys {
		if err := putSetting(ctx, sh, "global", k, r.Animation[k]); err != nil {
			return err
		}
	}
	return nil
}

// writeLocked writes the kept originals atomically (0600), or removes the file
// when none are kept. A failed write leaves no temporary file behind, and its
// error names no absolute path: it reaches the console as it is.
func (m *Manager) writeLocked() error {
	if m.path == "" {
		return nil
	}
	if len(m.saved) == 0 {
		if err := os.Remove(m.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return saveErr(err)
		}
		return nil
	}
	b, err := json.MarshalIndent(savedFile{Version: 1, Devices: m.saved}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(m.path), 0o700); err != nil {
		return saveErr(err)
	}
	tmp := m.path + ".tmp" + strconv.Itoa(os.Getpid())
	if err := writeSynced(tmp, b); err != nil {
		os.Remove(tmp)
		return saveErr(err)
	}
	if err := os.Rename(tmp, m.path); err != nil {
		os.Remove(tmp)
		return saveErr(err)
	}
	return nil
}

// writeSynced writes b to a new 0600 file at path and flushes it, so a full disk
// shows up here and not as a short file after the rename.
func writeSynced(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// originalsFile is how errors name the originals file: relative to the project,
// never the user's absolute path.
const originalsFile = ".fixthis/display-originals.json"

// saveErr is the error for a failed write of the originals file: a full or
// read-only disk gets its own code (507 and 503 on the console's routes), with
// what to do. The caller adds what the failure means for the phone.
func saveErr(err error) error {
	switch {
	case errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT):
		return errcode.Wrap(errcode.StorageFull, err, "the disk is full: %s could not be written; free some space and retry", originalsFile)
	case errors.Is(err, syscall.EROFS) || errors.Is(err, fs.ErrPermission):
		return errcode.Wrap(errcode.StorageReadOnly, err, "%s cannot be written (read-only or no permission); make it writable and retry", originalsFile)
	}
	return errcode.Wrap(errcode.StorageFailed, err, "%s could not be written: %s", originalsFile, errName(err))
}

// withConsequence adds to a save error what it means for the phone, keeping its code.
func withConsequence(err error, what string) error {
	var ce *errcode.Error
	if errors.As(err, &ce) {
		return errcode.Wrap(ce.Code, ce.Err, "%s; %s", ce.Msg, what)
	}
	return err
}

// errName is an I/O error without the path it carries ("input/output error").
func errName(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Op + ": " + le.Err.Error()
	}
	return err.Error()
}
