// Package android is the Android system of the simulated device: the services and
// programs adb clients talk to (am, pm, wm, input, dumpsys, settings, cmd,
// screencap, screenrecord, uiautomator, logcat, getprop, run-as, monkey, pidof),
// the state behind them (packages, the app's process, log buffers, display
// settings, the window list), the sockets the phone serves (the demo app's
// FixThis sidekick bridge) and the scenario app in front. It registers its
// programs into a shell.Shell and serves adbd through adbd.Services.
package android

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"path"
	"strings"
	"sync"
	"time"

	"fixthis/internal/sidekick"
	"fixthis/sim/adbd"
	"fixthis/sim/shell"
)

// Config is what the Android side of a device is built from.
type Config struct {
	Profile Profile
	Phone   Phone
	// LatencyScale multiplies the profile's latency model; 0 removes every
	// artificial delay.
	LatencyScale float64
	// Outputs is a directory of pinned command outputs (see pinnedOutput); "" for none.
	Outputs string
	// Logf receives diagnostics; nil discards them.
	Logf func(format string, args ...any)
	// NoSidekick runs the app without the FixThis sidekick.
	NoSidekick bool
	// SidekickSocketTaken: a dead process still holds the sidekick's socket name,
	// so the app's sidekick bound "<name>-1" instead.
	SidekickSocketTaken bool
}

// Device is the Android system of one simulated device.
type Device struct {
	logf    func(format string, args ...any)
	profile Profile
	phone   Phone
	scale   float64
	fs      *shell.FS
	sh      *shell.Shell
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
	shell         shellProcs // pids of the programs the shell runs
	pkgs          packageDB
	disp          displayState

	mu         sync.Mutex
	socketDefs map[string]string // localabstract name -> protocol
	// devtoolsAddr is where the WebView DevTools socket's connections go.
	devtoolsAddr string
	// The sidekick's current activity, the Compose nodes it last showed, the process
	// they belong to, and the last captureScreenSnapshot (sidekick_methods.go).
	lastActivity    string
	lastNodes       []sidekick.Node
	lastActivityPid int
	lastSnapshot    *sidekick.ScreenSnapshot
	// indexResult is readSourceIndex's answer, read once.
	indexOnce   sync.Once
	indexResult sidekick.SourceIndexResult
}

// New boots the Android side: the file system, the packages, the app's data and
// sidekick session, the sockets, the first log lines.
func New(cfg Config) (*Device, error) {
	profile := cfg.Profile
	if cfg.NoSidekick {
		profile.App.Sidekick = false
		files := map[string]string{}
		for k, v := range profile.App.Files {
			if k != sidekickSessionFile {
				files[k] = v
			}
		}
		profile.App.Files = files
	}
	token, err := randomToken()
	if err != nil {
		return nil, err
	}
	logf := cfg.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	d := &Device{
		logf: logf, profile: profile, scale: cfg.LatencyScale,
		fs: newDeviceFS(profile), token: token, outputs: cfg.Outputs, createdAt: time.Now(),
		socketDefs: map[string]string{},
	}
	d.sh = d.newShell()
	d.phone = newAppsPhone(cfg.Phone, d)
	d.bootPackages(time.Now())
	for _, s := range profile.Sockets {
		d.socketDefs[s.Name] = s.Protocol
	}
	// The sidekick binds first and writes its session after, with the name it
	// bound (upstream v1.5.0 BridgeRuntime.kt:59-71; the names tried are
	// BridgeSocketNameNegotiator.kt:24-29).
	d.sidekickBound = sidekick.BaseSocketName(profile.App.Package)
	if profile.App.Sidekick && cfg.SidekickSocketTaken {
		delete(d.socketDefs, d.sidekickBound)
		d.sidekickBound = sidekick.SocketCandidate(d.sidekickBound, 1)
	}
	if profile.App.Sidekick {
		d.socketDefs[d.sidekickBound] = "sidekick"
	}
	if err := d.installApp(); err != nil {
		return nil, err
	}
	d.seedLog()
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
		if err := d.fs.MkdirAll(base+"/"+dir, 0o771); err != nil {
			return fmt.Errorf("create app dir %s: %w", dir, err)
		}
	}
	for rel, content := range files {
		full := path.Join(base, rel)
		if err := d.fs.MkdirAll(path.Dir(full), 0o771); err != nil {
			return fmt.Errorf("create app dir for %s: %w", rel, err)
		}
		if err := d.fs.WriteFile(full, []byte(content), 0o600); err != nil {
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

// Phone is the running phone state, with other installed apps in front of the
// scenario's when launched.
func (d *Device) Phone() Phone { return d.phone }

// Profile is the static device description.
func (d *Device) Profile() Profile { return d.profile }

// FS is the device's file system.
func (d *Device) FS() *shell.FS { return d.fs }

// Identity is what adb shows of the device.
func (d *Device) Identity() adbd.Identity {
	return adbd.Identity{Product: d.profile.Product, Model: d.profile.Model, Device: d.profile.Name}
}

// Shell runs a command line in the device's shell (adbd.Services).
func (d *Device) Shell(ctx context.Context, cmd string, stdin io.Reader, stdout, stderr io.Writer) int {
	return d.sh.Run(ctx, cmd, stdin, stdout, stderr)
}

// Interactive is `adb shell` without a command, with the device's prompt
// (adbd.Services).
func (d *Device) Interactive(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, echo bool) {
	d.sh.Interactive(ctx, d.profile.Name+":/ $ ", stdin, stdout, stderr, echo)
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

// privateData reports whether p is inside an app's data directory, which only
// run-as may read.
func privateData(p string) bool { return strings.HasPrefix(p, "/data/user/0/") }
