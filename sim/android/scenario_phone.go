// The scenario app as the device's Phone: a scenario's description turned into a
// Profile, and its session adapted to the Phone interface.
package android

import (
	"fmt"

	"fixthis/internal/sidekick"
	"fixthis/sim/scenario"
)

// LoadScenario builds the profile and the running phone of a scenario: "demo"
// (built in) or a scenario directory.
func LoadScenario(name string) (Profile, Phone, error) {
	sc, err := scenario.Load(name)
	if err != nil {
		return Profile{}, nil, fmt.Errorf("load scenario %q: %w", name, err)
	}
	return profileOf(sc), scenarioPhone{sc.NewSession()}, nil
}

func profileOf(sc *scenario.Scenario) Profile {
	d := sc.Device
	p := Profile{
		Model: d.Model, Manufacturer: d.Manufacturer, Brand: d.Brand, Product: d.Product, Name: d.Name,
		Release: d.Release, SDK: d.SDK, Width: d.Width, Height: d.Height, Density: d.Density,
		Props: sc.Props(),
		Latency: Latency{
			ScreencapRaw: sc.Latency.ScreencapRaw, ScreencapPNG: sc.Latency.ScreencapPNG,
			UIDump: sc.Latency.UIDump, Shell: sc.Latency.Shell, SidekickInspect: sc.Latency.SidekickInspect,
		},
		App: AppInfo{
			Package: sc.App.Package, Label: sc.App.Label, LauncherActivity: sc.App.LauncherActivity,
			VersionName: sc.App.VersionName, VersionCode: sc.App.VersionCode,
			Sidekick: sc.App.Sidekick, Files: sc.App.Files, HTTP: sc.App.HTTP, HTTPLevel: sc.App.HTTPLevel, SourceIndex: sc.App.SourceIndex,
		},
	}
	for _, s := range sc.Sockets {
		p.Sockets = append(p.Sockets, SocketSpec{Name: s.Name, Protocol: s.Protocol})
	}
	return p
}

// scenarioPhone adapts a scenario session to Phone.
type scenarioPhone struct{ *scenario.Session }

func (p scenarioPhone) State() PhoneState {
	st := p.Session.State()
	return PhoneState{
		ScreenOn: st.ScreenOn, Locked: st.Locked, ForegroundPackage: st.ForegroundPackage,
		Activity: st.Activity, Rotation: st.Rotation, AppRunning: st.AppRunning,
	}
}

func (p scenarioPhone) SidekickNodes() []sidekick.Node { return p.Session.SidekickNodes() }

func (p scenarioPhone) ActivityNodes() []sidekick.Node { return p.Session.ActivityNodes() }

// Text types into the focused field (`input text`).
func (p scenarioPhone) Text(s string) bool { return p.Session.InputText(s) }

// Session is the scenario session behind the device, or nil when a test injected
// its own Phone.
func (d *Device) Session() *scenario.Session {
	inner := d.phone
	if a, ok := inner.(*appsPhone); ok {
		inner = a.Phone
	}
	if p, ok := inner.(scenarioPhone); ok {
		return p.Session
	}
	return nil
}
