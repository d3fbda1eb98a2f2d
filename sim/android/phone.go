// The Phone the scenario provides, and the device's static Profile.
package android

import (
	"image"
	"time"

	"fixthis/internal/sidekick"
	"fixthis/sim/scenario"
)

// Phone is the running phone behind the device: what the screen shows and how input
// changes it. The scenario package provides the real one; every method must be safe
// for concurrent use because each adb stream runs in its own goroutine.
type Phone interface {
	Tap(x, y int) bool
	Swipe(x1, y1, x2, y2 int, d time.Duration) bool
	Key(code string) bool
	StartActivity(component string) error
	ForceStop(pkg string)
	State() PhoneState
	Frame() *image.RGBA
	UIAutomatorXML() []byte
	// SidekickNodes returns the current screen's semantics nodes in the JSON shape of
	// docs/api.md's Node.
	SidekickNodes() []sidekick.Node
	// ActivityNodes returns the semantics nodes of the app's activity window only
	// (under a dialog, the activity's): what the in-app sidekick inspects.
	ActivityNodes() []sidekick.Node
	Version() uint64
}

// PhoneState is what dumpsys reports about the phone.
type PhoneState struct {
	ScreenOn          bool
	Locked            bool
	ForegroundPackage string
	Activity          string // fully qualified class, e.g. com.example.MainActivity
	Rotation          int    // 0..3
	AppRunning        bool   // the app's process is alive (foreground or not)
}

// Profile is the static description of the device and its one app.
type Profile struct {
	Model, Manufacturer, Brand, Product, Name string
	Release                                   string
	SDK                                       int
	Width, Height, Density                    int
	Props                                     map[string]string // every property getprop lists
	Latency                                   Latency
	App                                       AppInfo
	Sockets                                   []SocketSpec
}

// Latency is the device-side cost of commands before LatencyScale.
type Latency struct {
	ScreencapRaw, ScreencapPNG, UIDump, Shell time.Duration
	// SidekickInspect is the sidekick's inspectCurrentScreen (a walk of the
	// Compose semantics on the app's main thread).
	SidekickInspect time.Duration
}

// AppInfo describes the installed app.
type AppInfo struct {
	Package          string
	Label            string
	LauncherActivity string // ".MainActivity" or fully qualified
	VersionName      string
	VersionCode      int
	Sidekick         bool
	Files            map[string]string   // app-private files, relative to its data dir
	HTTP             []scenario.HTTPCall // calls logged when its process starts (applog_http.go)
	HTTPLevel        string              // the logging interceptor's level: scenario.HTTPLevel*
	// SourceIndex is the FixThis source index its APK carries (nil: none).
	SourceIndex []byte
}

// SocketSpec is a localabstract socket the phone serves: "echo" or "sidekick".
type SocketSpec struct {
	Name     string
	Protocol string
}

// activityClass expands ".Main" to "pkg.Main".
func activityClass(pkg, act string) string {
	if len(act) > 0 && act[0] == '.' {
		return pkg + act
	}
	return act
}

// shortActivity renders pkg/.Main the way dumpsys prints components.
func shortComponent(pkg, act string) string {
	full := activityClass(pkg, act)
	if len(full) > len(pkg)+1 && full[:len(pkg)] == pkg && full[len(pkg)] == '.' {
		return pkg + "/" + full[len(pkg):]
	}
	return pkg + "/" + full
}
