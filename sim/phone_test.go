// A small injected Phone and Profile for tests of the transport and shell.
package sim_test

import (
	"fmt"
	"image"
	"image/color"
	"sync"
	"time"

	"fixthis/internal/sidekick"
	"fixthis/sim"
)

// testPhone is a two-screen phone for transport tests: tapping the top half of the
// screen moves from "home" to "detail", BACK returns.
type testPhone struct {
	mu      sync.Mutex
	w, h    int
	screen  string
	on      bool
	version uint64
}

func newTestPhone(w, h int) *testPhone {
	return &testPhone{w: w, h: h, screen: "home", on: true, version: 1}
}

func testProfile() *sim.Profile {
	return &sim.Profile{
		Model: "Sim Phone", Manufacturer: "FixThis", Brand: "fixthis", Product: "simphone", Name: "simphone",
		Release: "14", SDK: 34, Width: 360, Height: 800, Density: 160,
		Props: map[string]string{"ro.product.model": "Sim Phone", "ro.build.version.sdk": "34"},
		App: sim.AppInfo{Package: "com.example.sim", Label: "Sim", LauncherActivity: ".MainActivity",
			VersionName: "1.0", VersionCode: 1, Sidekick: true},
		Sockets: []sim.SocketSpec{{Name: "echo", Protocol: "echo"}},
	}
}

func (p *testPhone) Tap(x, y int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if y < p.h/2 && p.screen == "home" {
		p.screen = "detail"
		p.version++
		return true
	}
	return false
}

func (p *testPhone) Swipe(x1, y1, x2, y2 int, d time.Duration) bool { return false }

func (p *testPhone) Key(code string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch code {
	case "BACK":
		if p.screen == "detail" {
			p.screen = "home"
			p.version++
			return true
		}
	case "POWER":
		p.on = !p.on
		p.version++
		return true
	}
	return false
}

func (p *testPhone) StartActivity(component string) error {
	if component != "com.example.sim/.MainActivity" {
		return fmt.Errorf("no activity %s", component)
	}
	return nil
}

func (p *testPhone) ForceStop(pkg string) {}

func (p *testPhone) State() sim.PhoneState {
	p.mu.Lock()
	defer p.mu.Unlock()
	return sim.PhoneState{ScreenOn: p.on, ForegroundPackage: "com.example.sim",
		Activity: "com.example.sim.MainActivity", AppRunning: true}
}

func (p *testPhone) Frame() *image.RGBA {
	p.mu.Lock()
	defer p.mu.Unlock()
	img := image.NewRGBA(image.Rect(0, 0, p.w, p.h))
	c := color.RGBA{0x20, 0x60, 0xc0, 0xff}
	if p.screen == "detail" {
		c = color.RGBA{0xc0, 0x40, 0x20, 0xff}
	}
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	return img
}

func (p *testPhone) UIAutomatorXML() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return []byte(fmt.Sprintf(`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="%s" resource-id="" class="android.widget.FrameLayout" package="com.example.sim" content-desc="" bounds="[0,0][%d,%d]" /></hierarchy>`, p.screen, p.w, p.h))
}

func (p *testPhone) SidekickNodes() []sidekick.Node {
	return []sidekick.Node{{UID: "n0", Class: "Screen", Text: p.screen}}
}

func (p *testPhone) ActivityNodes() []sidekick.Node { return p.SidekickNodes() }

func (p *testPhone) Version() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.version
}
