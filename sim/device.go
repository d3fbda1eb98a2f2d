// Package sim is a simulated Android device that speaks the device side of the ADB
// transport over loopback TCP. The real adb server registers it with
// `adb connect 127.0.0.1:PORT`; from then on every adb client (the CLI, gadb, FixThis
// itself) talks to it as to a phone: shell, exec, sync, forwards to its sockets.
package sim

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fixthis/internal/sidekick"
	"fmt"
	"net"
	"path"
	"sort"
	"strings"
	"sync"
	"time"
)

// Options configure a simulated device.
type Options struct {
	// Addr is the listen address; "127.0.0.1:0" when empty.
	Addr string
	// Scenario is "demo" (built in) or a scenario directory; "demo" when empty.
	Scenario string
	// LatencyScale multiplies the scenario's latency model: 1 is a mid-range phone,
	// 0 removes every artificial delay (the real PNG encode still costs what it costs).
	LatencyScale float64
	// Logf receives diagnostics; nil discards them.
	Logf func(format string, args ...any)
	// Link throttles the connection to the host like a USB cable or Wi-Fi would.
	Link Link
	// Outputs is a directory of pinned command outputs (see pinnedOutput); "" for none.
	Outputs string
	// Phone and Profile replace the scenario when both are set.
	Phone   Phone
	Profile *Profile
	// NoSidekick runs the scenario's app without the FixThis sidekick, as most apps
	// are: the UI tree then comes from uiautomator only.
	NoSidekick bool
	// SidekickSocketTaken: a dead process still holds the sidekick's socket name, so
	// the app's sidekick bound "<name>-1" instead, as the real one does; session.json
	// still names the first.
	SidekickSocketTaken bool
}

// features are what adbd on Android 14 advertises, minus the compressed sync
// variants: the sim transfers files uncompressed, so it must not offer brotli, lz4
// or zstd to clients that would then use them.
var features = []string{
	"shell_v2", "cmd", "stat_v2", "ls_v2", "fixed_push_mkdir", "apex", "abb",
	"fixed_push_symlink_timestamp", "abb_exec", "remount_shell", "track_app",
	"sendrecv_v2", "sendrecv_v2_dry_run_send",
}

// Device is a running simulated device.
type Device struct {
	ln      net.Listener
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	logf    func(format string, args ...any)
	profile Profile
	phone   Phone
	scale   float64
	link    Link
	fs      *memFS
	outputs string
	token   string // the sidekick session token
	// createdAt is when the app wrote its sidekick session; lastBeat when the host
	// last sent a heartbeat (guarded by mu).
	createdAt time.Time
	lastBeat  time.Time
	// sidekickBound is the socket the app's sidekick listens on.
	sidekickBound string
	proc          appProcess
	logs          logBuffer
	pkgs          packageDB
	disp          displayState

	mu         sync.Mutex
	conns      map[net.Conn]struct{}
	reverses   []reverseRule
	socketDefs map[string]string // localabstract name -> protocol
}

type reverseRule struct{ Remote, Local string }

// Start listens and serves until ctx ends or Close is called.
func Start(ctx context.Context, opts Options) (*Device, error) {
	profile, phone, err := loadPhone(opts)
	if err != nil {
		return nil, err
	}
	if opts.NoSidekick {
		profile.App.Sidekick = false
		files := map[string]string{}
		for k, v := range profile.App.Files {
			if k != sidekickSessionFile {
				files[k] = v
			}
		}
		profile.App.Files = files
	}
	if err := checkOutputs(opts.Outputs); err != nil {
		return nil, err
	}
	addr := opts.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("simulated device listen on %s: %w", addr, err)
	}
	token, err := randomToken()
	if err != nil {
		ln.Close()
		return nil, err
	}
	logf := opts.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	ctx, cancel := context.WithCancel(ctx)
	d := &Device{
		ln: ln, ctx: ctx, cancel: cancel, logf: logf,
		profile: profile, phone: phone, scale: opts.LatencyScale, link: opts.Link,
		fs: newDeviceFS(profile), token: token, outputs: opts.Outputs, createdAt: time.Now(),
		conns: map[net.Conn]struct{}{}, socketDefs: map[string]string{},
	}
	d.phone = newAppsPhone(phone, d)
	d.bootPackages(time.Now())
	if err := d.installApp(); err != nil {
		ln.Close()
		cancel()
		return nil, err
	}
	for _, s := range profile.Sockets {
		d.socketDefs[s.Name] = s.Protocol
	}
	d.sidekickBound = d.sidekickSocket()
	if profile.App.Sidekick && opts.SidekickSocketTaken {
		delete(d.socketDefs, d.sidekickBound)
		d.sidekickBound = sidekick.SocketCandidate(d.sidekickBound, 1)
	}
	if profile.App.Sidekick {
		d.socketDefs[d.sidekickBound] = "sidekick"
	}
	d.seedLog()
	d.wg.Add(1)
	go d.acceptLoop()
	go func() {
		<-ctx.Done()
		d.shutdown()
	}()
	return d, nil
}

// sidekickSessionFile is where the sidekick writes its session, in the app's data.
const sidekickSessionFile = "files/fixthis/session.json"

// installApp writes the app's private files, and the sidekick's session file when
// the app carries it, into its data directory.
func (d *Device) installApp() error {
	app := d.profile.App
	if app.Package == "" {
		return nil
	}
	base := "/data/user/0/" + app.Package
	files := map[string]string{}
	for k, v := range app.Files {
		files[k] = v
	}
	if app.Sidekick {
		files[sidekickSessionFile] = string(d.sidekickSession())
	}
	for _, dir := range []string{"files", "cache", "shared_prefs"} {
		if err := d.fs.mkdirAll(base+"/"+dir, 0o771); err != nil {
			return fmt.Errorf("create app dir %s: %w", dir, err)
		}
	}
	for rel, content := range files {
		full := path.Join(base, rel)
		if err := d.fs.mkdirAll(path.Dir(full), 0o771); err != nil {
			return fmt.Errorf("create app dir for %s: %w", rel, err)
		}
		if err := d.fs.writeFile(full, []byte(content), 0o600); err != nil {
			return fmt.Errorf("write app file %s: %w", rel, err)
		}
	}
	return nil
}

func randomToken() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generate sidekick token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// Addr is the TCP address the device listens on.
func (d *Device) Addr() string { return d.ln.Addr().String() }

// Serial is the serial the adb server gives the device after `adb connect`.
func (d *Device) Serial() string { return d.Addr() }

// Phone is the running phone state, for tests that check what input did.
func (d *Device) Phone() Phone { return d.phone }

// Profile is the static device description.
func (d *Device) Profile() Profile { return d.profile }

// Model is ro.product.model.
func (d *Device) Model() string { return d.profile.Model }

// Close stops listening and drops every host connection, so the adb server sees
// the device go offline.
func (d *Device) Close() error {
	d.cancel()
	d.shutdown()
	d.wg.Wait()
	return nil
}

func (d *Device) shutdown() {
	d.ln.Close()
	d.mu.Lock()
	for c := range d.conns {
		c.Close()
	}
	d.mu.Unlock()
}

func (d *Device) acceptLoop() {
	defer d.wg.Done()
	for {
		c, err := d.ln.Accept()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				d.logf("sim: accept: %v", err)
			}
			return
		}
		d.mu.Lock()
		if d.ctx.Err() != nil {
			d.mu.Unlock()
			c.Close()
			return
		}
		d.conns[c] = struct{}{}
		d.mu.Unlock()
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			defer func() {
				d.mu.Lock()
				delete(d.conns, c)
				d.mu.Unlock()
				c.Close()
			}()
			if err := newTransport(d, d.link.wrap(c)).serve(d.ctx); err != nil {
				d.logf("sim: %v", err)
			}
		}()
	}
}

// banner is the CNXN payload: the identity adb shows in `adb devices -l` plus the
// feature list that decides which protocols clients use.
func (d *Device) banner() string {
	p := d.profile
	return fmt.Sprintf("device::ro.product.name=%s;ro.product.model=%s;ro.product.device=%s;features=%s",
		p.Product, p.Model, p.Name, strings.Join(features, ","))
}

// delay sleeps for the scaled latency, or until ctx ends.
func (d *Device) delay(ctx context.Context, base time.Duration) error {
	if d.scale <= 0 || base <= 0 {
		return ctx.Err()
	}
	return sleep(ctx, time.Duration(float64(base)*d.scale))
}

// sleep waits for wait, or until ctx ends.
func sleep(ctx context.Context, wait time.Duration) error {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (d *Device) sidekickSocket() string { return "fixthis_" + d.profile.App.Package }

// Reverses lists the reverse forwards the host installed, as "remote local" pairs.
func (d *Device) Reverses() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]string, 0, len(d.reverses))
	for _, r := range d.reverses {
		out = append(out, r.Remote+" "+r.Local)
	}
	sort.Strings(out)
	return out
}
