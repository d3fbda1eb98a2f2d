// Package sim is a simulated Android device that speaks the device side of the ADB
// transport over loopback TCP. The real adb server registers it with
// `adb connect 127.0.0.1:PORT`; from then on every adb client (the CLI, gadb, FixThis
// itself) talks to it as to a phone: shell, exec, sync, forwards to its sockets.
//
// This package assembles a Device from its layers (sim/adbd, the transport;
// sim/android, the Android system with its shell from sim/shell; sim/scenario, the
// app on screen) and is the API the rest of FixThis uses.
package sim

import (
	"context"
	"fmt"

	"fixthis/sim/adbd"
	"fixthis/sim/android"
	"fixthis/sim/scenario"
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
	// Outputs is a directory of pinned command outputs (a file per command line
	// prefix, see sim/android/outputs.go); "" for none.
	Outputs string
	// Phone and Profile replace the scenario when both are set.
	Phone   Phone
	Profile *Profile
	// NoSidekick runs the scenario's app without the FixThis sidekick, as most apps
	// are: the UI tree then comes from uiautomator only.
	NoSidekick bool
	// SidekickSocketTaken: a dead process still holds the sidekick's socket name, so
	// the app's sidekick bound "<name>-1" instead, as the real one does, and wrote
	// that name into session.json.
	SidekickSocketTaken bool
}

// The device's parts that callers name, defined by the layer that owns them.
type (
	// Phone is the running phone behind the device (see android.Phone).
	Phone = android.Phone
	// PhoneState is what dumpsys reports about the phone.
	PhoneState = android.PhoneState
	// Profile is the static description of the device and its one app.
	Profile = android.Profile
	// Latency is the device-side cost of commands before LatencyScale.
	Latency = android.Latency
	// AppInfo describes the installed app.
	AppInfo = android.AppInfo
	// SocketSpec is a localabstract socket the phone serves.
	SocketSpec = android.SocketSpec
	// Crash is an exception that ends the app's process (see Device.CrashApp).
	Crash = android.Crash
	// Link is the simulated cable or network between the phone and the host.
	Link = adbd.Link
)

// ErrAppNotRunning is what CrashApp returns when the app has no process.
var ErrAppNotRunning = android.ErrAppNotRunning

// Links are the transports `fixthis sim --link` offers.
var Links = adbd.Links

// LinkNamed returns the link called name.
func LinkNamed(name string) (Link, error) { return adbd.LinkNamed(name) }

// Device is a running simulated device: the transport serving the Android system.
type Device struct {
	srv  *adbd.Server
	sys  *android.Device
	logf func(format string, args ...any)
}

// Start listens and serves until ctx ends or Close is called.
func Start(ctx context.Context, opts Options) (*Device, error) {
	profile, phone, err := loadPhone(opts)
	if err != nil {
		return nil, err
	}
	if err := android.CheckOutputs(opts.Outputs); err != nil {
		return nil, err
	}
	srv, err := adbd.Listen(ctx, opts.Addr)
	if err != nil {
		return nil, err
	}
	logf := opts.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	sys, err := android.New(android.Config{
		Profile: profile, Phone: phone, LatencyScale: opts.LatencyScale, Outputs: opts.Outputs, Logf: logf,
		NoSidekick: opts.NoSidekick, SidekickSocketTaken: opts.SidekickSocketTaken,
	})
	if err != nil {
		srv.Close()
		return nil, err
	}
	srv.Serve(adbd.Config{Identity: sys.Identity(), Services: sys, Files: sys.FS(), Link: opts.Link, Logf: logf})
	return &Device{srv: srv, sys: sys, logf: logf}, nil
}

// loadPhone builds the phone from Options: an injected one, or a scenario session.
func loadPhone(opts Options) (Profile, Phone, error) {
	if opts.Phone != nil && opts.Profile != nil {
		return *opts.Profile, opts.Phone, nil
	}
	name := opts.Scenario
	if name == "" {
		name = "demo"
	}
	p, ph, err := android.LoadScenario(name)
	if err != nil {
		return Profile{}, nil, fmt.Errorf("load scenario %q: %w", name, err)
	}
	return p, ph, nil
}

// Addr is the TCP address the device listens on.
func (d *Device) Addr() string { return d.srv.Addr() }

// Serial is the serial the adb server gives the device after `adb connect`.
func (d *Device) Serial() string { return d.Addr() }

// Phone is the running phone state, for tests that check what input did.
func (d *Device) Phone() Phone { return d.sys.Phone() }

// Profile is the static device description.
func (d *Device) Profile() Profile { return d.sys.Profile() }

// Model is ro.product.model.
func (d *Device) Model() string { return d.sys.Profile().Model }

// Close stops listening and drops every host connection, so the adb server sees
// the device go offline.
func (d *Device) Close() error { return d.srv.Close() }

// Reverses lists the reverse forwards the host installed, as "remote local" pairs.
func (d *Device) Reverses() []string { return d.srv.Reverses() }

// Files lists the paths of the device's regular files, sorted: what a test looks at
// to see whether a command it sent created a file.
func (d *Device) Files() []string { return d.sys.FS().Paths() }

// Session is the scenario session behind the device, or nil when a test injected
// its own Phone.
func (d *Device) Session() *scenario.Session { return d.sys.Session() }

// AppLog writes msg to the main buffer from the running app's main thread,
// as android.util.Log does (one entry per line). It is how a test plants what
// an app would log; with no app process it returns ErrAppNotRunning.
func (d *Device) AppLog(level, tag, msg string) error { return d.sys.AppLog(level, tag, msg) }

// CrashApp makes the running app die of c the way Android reports it: the
// FATAL EXCEPTION record in the crash buffer, the activity force-finished, the
// process killed. Afterwards the app has no process, so dumpsys finds none.
func (d *Device) CrashApp(c Crash) error { return d.sys.CrashApp(c) }

// ServeWebViewDevTools makes the app's WebView debuggable, its DevTools socket
// carried to addr (a real Chromium's remote debugging port); it returns the
// socket's name.
func (d *Device) ServeWebViewDevTools(addr string) (string, error) {
	return d.sys.ServeWebViewDevTools(addr)
}

// SidekickConnected reports whether the app shows the host connected: a heartbeat
// came within the last six seconds.
func (d *Device) SidekickConnected() bool { return d.sys.SidekickConnected() }
