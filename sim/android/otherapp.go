// Other installed apps in front of the scenario's: a placeholder window launched
// by am start, closed by HOME and BACK.
package android

import (
	"fmt"
	"html"
	"image"
	"image/color"
	"image/draw"
	"strings"
	"sync"
	"time"

	"fixthis/internal/sidekick"
)

// appsPhone puts the package manager in front of the scenario's phone: `am start`
// of another installed package brings that app's window to the front, drawn as a
// plain placeholder screen (an app bar over an empty page) with a one-node UI tree.
// HOME and BACK leave it; launching the scenario's app replaces it. Everything else
// is the scenario's.
type appsPhone struct {
	Phone
	dev *Device

	mu    sync.Mutex
	other string // fully qualified component "pkg/cls" in front, or ""
	bump  uint64 // added to Version so a switch counts as a visible change
}

func newAppsPhone(inner Phone, d *Device) *appsPhone { return &appsPhone{Phone: inner, dev: d} }

func (p *appsPhone) front() (pkg, cls string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	pkg, cls, _ = strings.Cut(p.other, "/")
	return pkg, cls
}

func (p *appsPhone) setFront(component string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.other != component {
		p.other = component
		p.bump++
	}
}

// covering reports whether the other app's window is what the screen shows: the
// screen is on and the keyguard is not over it.
func (p *appsPhone) covering() (string, string, PhoneState, bool) {
	st := p.Phone.State()
	pkg, cls := p.front()
	return pkg, cls, st, pkg != "" && st.ScreenOn && !st.Locked
}

// StartActivity launches an installed package. Any package the package manager
// does not list fails as on a phone.
func (p *appsPhone) StartActivity(component string) error {
	pkg, cls, ok := strings.Cut(component, "/")
	installed, known := p.dev.pkgs.get(pkg)
	if !known {
		return fmt.Errorf("start activity %s: package %s is not installed", component, pkg)
	}
	if !ok || cls == "" {
		cls = installed.launcher
	}
	if pkg == p.dev.profile.App.Package {
		p.setFront("")
		return p.Phone.StartActivity(component)
	}
	full := activityClass(pkg, cls)
	if full != installed.launcher {
		return fmt.Errorf("start activity %s: activity class %s does not exist", component, full)
	}
	p.setFront(pkg + "/" + full)
	return nil
}

func (p *appsPhone) ForceStop(pkg string) {
	if front, _ := p.front(); front == pkg && pkg != "" {
		p.setFront("")
	}
	p.Phone.ForceStop(pkg)
}

func (p *appsPhone) State() PhoneState {
	pkg, cls, st, ok := p.covering()
	if ok {
		st.ForegroundPackage, st.Activity = pkg, cls
	}
	return st
}

func (p *appsPhone) Version() uint64 {
	p.mu.Lock()
	bump := p.bump
	p.mu.Unlock()
	return p.Phone.Version() + bump
}

// Key: HOME and BACK close the other app (its task moves behind the one it
// covered, as Android 12+ does for a root activity); other keys pass through.
func (p *appsPhone) Key(code string) bool {
	if _, _, _, ok := p.covering(); ok && (code == "HOME" || code == "BACK") {
		p.setFront("")
		if code == "HOME" {
			return p.Phone.Key(code)
		}
		return true
	}
	return p.Phone.Key(code)
}

func (p *appsPhone) Tap(x, y int) bool {
	if _, _, _, ok := p.covering(); ok {
		return false
	}
	return p.Phone.Tap(x, y)
}

func (p *appsPhone) Swipe(x1, y1, x2, y2 int, d time.Duration) bool {
	if _, _, _, ok := p.covering(); ok {
		return false
	}
	return p.Phone.Swipe(x1, y1, x2, y2, d)
}

// Text types into the scenario's focused field; the placeholder app has none.
func (p *appsPhone) Text(s string) bool {
	if _, _, _, ok := p.covering(); ok {
		return false
	}
	if t, ok := p.Phone.(textTyper); ok {
		return t.Text(s)
	}
	return false
}

func (p *appsPhone) Frame() *image.RGBA {
	if _, _, _, ok := p.covering(); !ok {
		return p.Phone.Frame()
	}
	w, h := p.dev.displaySize()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.RGBA{0xfa, 0xfa, 0xfa, 0xff}), image.Point{}, draw.Src)
	bar := p.dev.profile.Density * 80 / 160 // status bar plus app bar, in pixels
	draw.Draw(img, image.Rect(0, 0, w, bar), image.NewUniform(color.RGBA{0x37, 0x47, 0x4f, 0xff}), image.Point{}, draw.Src)
	return img
}

func (p *appsPhone) UIAutomatorXML() []byte {
	pkg, _, _, ok := p.covering()
	if !ok {
		return p.Phone.UIAutomatorXML()
	}
	w, h := p.dev.displaySize()
	return []byte(fmt.Sprintf(`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="%s" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][%d,%d]" /></hierarchy>`,
		html.EscapeString(pkg), w, h))
}

func (p *appsPhone) SidekickNodes() []sidekick.Node {
	if _, _, _, ok := p.covering(); ok {
		return []sidekick.Node{}
	}
	return p.Phone.SidekickNodes()
}

func (p *appsPhone) ActivityNodes() []sidekick.Node {
	if _, _, _, ok := p.covering(); ok {
		return []sidekick.Node{}
	}
	return p.Phone.ActivityNodes()
}

// launchCost is what a mid-range phone takes to draw the first frame, by the
// LaunchState `am start -W` reports; LatencyScale scales it.
var launchCost = map[string]time.Duration{"COLD": 620 * time.Millisecond, "WARM": 240 * time.Millisecond, "HOT": 90 * time.Millisecond}

// launchState is COLD when the app's process is not running, HOT when it runs in
// the background, WARM when it is already in front.
func launchState(d *Device, component string) string {
	pkg, _, _ := strings.Cut(component, "/")
	st := d.phone.State()
	switch {
	case pkg != d.profile.App.Package:
		if st.ForegroundPackage == pkg {
			return "WARM"
		}
		return "COLD"
	case !st.AppRunning:
		return "COLD"
	case st.ForegroundPackage == pkg:
		return "WARM"
	}
	return "HOT"
}
