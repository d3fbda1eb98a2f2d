// Package scenario is the phone behind the simulated device: a scenario describes
// the device (properties, latency), one app and its screens as declarative layouts.
// A Session holds the device state (screen on, keyguard, foreground app, back
// stack, text fields, scroll offsets) and renders the current state into both the
// screen pixels and the uiautomator XML from one laid-out tree, so bounds always
// match pixels.
package scenario

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

//go:embed demo system
var builtin embed.FS

// Scenario is a loaded, validated scenario. It is read-only after Load and shared
// by all sessions; the render cache inside it is concurrency-safe.
type Scenario struct {
	Name    string
	Device  Device
	Latency Latency
	App     App
	Theme   map[string]string
	// DarkTheme overrides darkTheme's entries in night mode.
	DarkTheme map[string]string
	// Data holds named collections that "forEach" layout nodes repeat over.
	Data    map[string][]map[string]string
	Screens map[string]*Screen
	Start   string
	Sockets []Socket
	// Variant is the built-in state new sessions start in ("" for the start
	// screen); see Variants.
	Variant string
	// StatusTime is the clock shown in the status bar; fixed so frames are
	// deterministic and cacheable.
	StatusTime string
	Battery    int

	launcher *Screen
	keyguard *Screen
	cache    *renderCache
	layers   *layerCache
	shadowMu sync.Mutex
	shadows  map[string]*image.RGBA
	fonts    *fontSet

	// How a variant from under draws: the font scale, the layout direction and
	// the dark palette.
	variants  displayVariants
	fontScale float64
	rtl       bool
	night     bool
}

// Device holds the properties getprop, wm and dumpsys report.
type Device struct {
	Model        string            `json:"model"`
	Manufacturer string            `json:"manufacturer"`
	Brand        string            `json:"brand"`
	Product      string            `json:"product"`
	Name         string            `json:"name"`
	Release      string            `json:"release"`
	SDK          int               `json:"sdk"`
	Width        int               `json:"width"`
	Height       int               `json:"height"`
	Density      int               `json:"density"`
	Props        map[string]string `json:"props"`
}

// Latency is the device-side cost of commands, so benchmarks against the simulated
// device pay roughly what a mid-range phone charges.
type Latency struct {
	ScreencapRaw time.Duration
	ScreencapPNG time.Duration
	UIDump       time.Duration
	Shell        time.Duration
	// SidekickInspect is what the app's FixThis sidekick takes to walk the Compose
	// semantics for inspectCurrentScreen.
	SidekickInspect time.Duration
}

// App is the one installed app the scenario drives.
type App struct {
	Package          string `json:"package"`
	Label            string `json:"label"`
	LauncherActivity string `json:"launcherActivity"`
	VersionName      string `json:"versionName"`
	VersionCode      int    `json:"versionCode"`
	// Sidekick reports whether the app carries the FixThis sidekick (run-as works,
	// the sidekick socket is served).
	Sidekick bool `json:"sidekick"`
	// Files are app-private files readable with `run-as PKG cat PATH`, relative to
	// the app's data directory.
	Files map[string]string `json:"files"`
	// HTTP are the calls the app makes when its process starts (http.go).
	HTTP []HTTPCall `json:"http,omitempty"`
	// HTTPLevel is the level of the app's HttpLoggingInterceptor: HTTPLevelHeaders
	// (the default) or HTTPLevelBody.
	HTTPLevel string `json:"httpLevel,omitempty"`
	// SourceIndex is the FixThis Gradle plugin's source index the app's debug APK
	// carries (assets/fixthis/fixthis-source-index.json), read from the scenario's
	// fixthis-source-index.json; nil when the scenario has none.
	SourceIndex []byte `json:"-"`
}

// SourceIndexFile is the scenario file holding the app's source index.
const SourceIndexFile = "fixthis-source-index.json"

// Socket is a localabstract socket the device serves.
type Socket struct {
	Name string `json:"name"`
	// Protocol names what answers on it: "sidekick" (length-prefixed JSON frames)
	// or "echo".
	Protocol string `json:"protocol"`
}

// Screen is one screen of the app (or a dialog shown over one).
type Screen struct {
	ID string `json:"-"`
	// Activity is the component's class, e.g. ".MainActivity".
	Activity string `json:"activity"`
	// Style is "compose" (default) or "views": it decides the class names and
	// resource-ids in the UI tree.
	Style string `json:"style"`
	// TestTagsAsResourceID exposes Compose testTags as resource-ids, as
	// Modifier.semantics { testTagsAsResourceId = true } does.
	TestTagsAsResourceID bool `json:"testTagsAsResourceId"`
	// Dialog marks a screen drawn as a dialog window over the screen below it.
	Dialog bool `json:"dialog"`
	// Background is the window colour.
	Background string `json:"background"`
	// StatusBarDark draws light status bar icons (for dark app bars).
	StatusBarDark bool     `json:"statusBarDark"`
	Layout        *Element `json:"layout"`
	// Package overrides the app package (system screens).
	Package string `json:"package"`
}

type scenarioFile struct {
	Device  Device `json:"device"`
	Latency struct {
		ScreencapRaw string `json:"screencapRaw"`
		ScreencapPNG string `json:"screencapPng"`
		UIDump       string `json:"uiDump"`
		Shell        string `json:"shell"`
		// SidekickInspect: see Latency.SidekickInspect.
		SidekickInspect string `json:"sidekickInspect"`
	} `json:"latency"`
	App        App                            `json:"app"`
	Theme      map[string]string              `json:"theme"`
	DarkTheme  map[string]string              `json:"darkTheme"`
	Data       map[string][]map[string]string `json:"data"`
	Start      string                         `json:"start"`
	Sockets    []Socket                       `json:"sockets"`
	StatusTime string                         `json:"statusTime"`
	Battery    int                            `json:"battery"`
	// Screens maps a screen id to a file (relative to the scenario directory)
	// or holds the screen inline.
	Screens map[string]json.RawMessage `json:"screens"`
}

// Load reads a scenario: "demo" is the built-in one and the other Variants are it
// in another starting state; anything else is a directory holding scenario.json
// (screens inline or as files next to it).
func Load(nameOrDir string) (*Scenario, error) {
	if nameOrDir == "" || IsVariant(nameOrDir) {
		sub, err := fs.Sub(builtin, "demo")
		if err != nil {
			return nil, fmt.Errorf("open built-in demo scenario: %w", err)
		}
		s, err := LoadFS(sub, "demo")
		if err == nil && nameOrDir != "demo" {
			s.Variant = nameOrDir
		}
		return s, err
	}
	st, err := os.Stat(nameOrDir)
	if err != nil {
		return nil, fmt.Errorf("load scenario %q: %w", nameOrDir, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("load scenario %q: not a directory (want DIR with scenario.json, or \"demo\")", nameOrDir)
	}
	return LoadFS(os.DirFS(nameOrDir), filepath.Base(nameOrDir))
}

// LoadFS reads scenario.json and the screen files it names from fsys.
func LoadFS(fsys fs.FS, name string) (*Scenario, error) {
	raw, err := fs.ReadFile(fsys, "scenario.json")
	if err != nil {
		return nil, fmt.Errorf("load scenario %s: %w", name, err)
	}
	var f scenarioFile
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("parse %s/scenario.json: %w", name, err)
	}
	s := &Scenario{
		Name: name, Device: f.Device, App: f.App, Theme: f.Theme, DarkTheme: f.DarkTheme, Data: f.Data,
		Start: f.Start, Sockets: f.Sockets, StatusTime: f.StatusTime, Battery: f.Battery,
		Screens: map[string]*Screen{},
	}
	s.applyDefaults()
	lat := []struct {
		in  string
		out *time.Duration
		def time.Duration
	}{
		{f.Latency.ScreencapRaw, &s.Latency.ScreencapRaw, 40 * time.Millisecond},
		{f.Latency.ScreencapPNG, &s.Latency.ScreencapPNG, 350 * time.Millisecond},
		{f.Latency.UIDump, &s.Latency.UIDump, 800 * time.Millisecond},
		{f.Latency.Shell, &s.Latency.Shell, 15 * time.Millisecond},
		{f.Latency.SidekickInspect, &s.Latency.SidekickInspect, 40 * time.Millisecond},
	}
	for _, l := range lat {
		*l.out = l.def
		if l.in == "" {
			continue
		}
		d, err := time.ParseDuration(l.in)
		if err != nil {
			return nil, fmt.Errorf("parse %s/scenario.json latency %q: %w", name, l.in, err)
		}
		*l.out = d
	}
	if b, err := fs.ReadFile(fsys, SourceIndexFile); err == nil {
		s.App.SourceIndex = b
	}
	for id, msg := range f.Screens {
		sc, err := decodeScreen(fsys, msg)
		if err != nil {
			return nil, fmt.Errorf("load screen %q of scenario %s: %w", id, name, err)
		}
		sc.ID = id
		s.Screens[id] = sc
	}
	if s.launcher, err = loadSystemScreen("launcher"); err != nil {
		return nil, err
	}
	if s.keyguard, err = loadSystemScreen("keyguard"); err != nil {
		return nil, err
	}
	if err := s.validate(); err != nil {
		return nil, fmt.Errorf("scenario %s: %w", name, err)
	}
	// Sixteen states cover a session's screens and the steps of a scroll in flight.
	// More costs more than it saves: every state holds a 10 MB frame, and the fresh
	// memory each new frame then takes (page faults) doubled the cost of a scroll step.
	s.cache = newRenderCache(16)
	s.layers = newLayerCache()
	s.shadows = map[string]*image.RGBA{}
	s.fonts = newFontSet()
	return s, nil
}

func decodeScreen(fsys fs.FS, msg json.RawMessage) (*Screen, error) {
	var file string
	if err := json.Unmarshal(msg, &file); err == nil {
		b, err := fs.ReadFile(fsys, file)
		if err != nil {
			return nil, err
		}
		msg = b
	}
	var sc Screen
	dec := json.NewDecoder(strings.NewReader(string(msg)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sc); err != nil {
		return nil, fmt.Errorf("parse screen: %w", err)
	}
	if sc.Layout == nil {
		return nil, errors.New("screen has no layout")
	}
	return &sc, nil
}

func loadSystemScreen(id string) (*Screen, error) {
	b, err := builtin.ReadFile("system/" + id + ".json")
	if err != nil {
		return nil, fmt.Errorf("read built-in %s screen: %w", id, err)
	}
	sc, err := decodeScreen(builtin, b)
	if err != nil {
		return nil, fmt.Errorf("load built-in %s screen: %w", id, err)
	}
	sc.ID = id
	return sc, nil
}

func (s *Scenario) applyDefaults() {
	d := &s.Device
	def := func(p *string, v string) {
		if *p == "" {
			*p = v
		}
	}
	def(&d.Model, "Pixel 7a")
	def(&d.Manufacturer, "Google")
	def(&d.Brand, "google")
	def(&d.Product, "lynx")
	def(&d.Name, "lynx")
	def(&d.Release, "14")
	if d.SDK == 0 {
		d.SDK = 34
	}
	if d.Width == 0 || d.Height == 0 {
		d.Width, d.Height = 1080, 2400
	}
	if d.Density == 0 {
		d.Density = 420
	}
	if d.Props == nil {
		d.Props = map[string]string{}
	}
	def(&s.App.LauncherActivity, ".MainActivity")
	def(&s.App.Label, s.App.Package)
	def(&s.App.VersionName, "1.0")
	if s.App.VersionCode == 0 {
		s.App.VersionCode = 1
	}
	def(&s.StatusTime, "9:41")
	if s.Battery == 0 {
		s.Battery = 82
	}
	if s.Theme == nil {
		s.Theme = map[string]string{}
	}
}

// Props returns every system property getprop lists: the scenario's Props over
// values derived from Device.
func (s *Scenario) Props() map[string]string {
	d := s.Device
	p := map[string]string{
		"ro.product.model":          d.Model,
		"ro.product.manufacturer":   d.Manufacturer,
		"ro.product.brand":          d.Brand,
		"ro.product.name":           d.Product,
		"ro.product.device":         d.Name,
		"ro.build.version.release":  d.Release,
		"ro.build.version.sdk":      fmt.Sprint(d.SDK),
		"ro.sf.lcd_density":         fmt.Sprint(d.Density),
		"ro.product.cpu.abi":        "arm64-v8a",
		"ro.build.type":             "user",
		"ro.debuggable":             "0",
		"ro.secure":                 "1",
		"sys.boot_completed":        "1",
		"ro.build.characteristics":  "nosdcard",
		"ro.serialno":               "SIM" + strings.ToUpper(d.Name),
		"persist.sys.timezone":      "Europe/Berlin",
		"ro.product.system.model":   d.Model,
		"ro.build.version.codename": "REL",
	}
	for k, v := range d.Props {
		p[k] = v
	}
	return p
}

func (s *Scenario) validate() error {
	if s.App.Package == "" {
		return errors.New("app.package is empty")
	}
	if len(s.Screens) == 0 {
		return errors.New("no screens")
	}
	if s.Start == "" {
		return errors.New("start screen is empty")
	}
	switch s.App.HTTPLevel {
	case "", HTTPLevelHeaders, HTTPLevelBody:
	default:
		return fmt.Errorf("app.httpLevel %q is neither %s nor %s", s.App.HTTPLevel, HTTPLevelHeaders, HTTPLevelBody)
	}
	if sc, ok := s.Screens[s.Start]; !ok || sc.Dialog {
		return fmt.Errorf("start screen %q is missing or a dialog", s.Start)
	}
	ids := make([]string, 0, len(s.Screens))
	for id := range s.Screens {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		sc := s.Screens[id]
		if sc.Activity == "" {
			sc.Activity = s.App.LauncherActivity
		}
		if sc.Style == "" {
			sc.Style = "compose"
		}
		if sc.Style != "compose" && sc.Style != "views" {
			return fmt.Errorf("screen %q: style %q is neither compose nor views", id, sc.Style)
		}
		var err error
		sc.Layout.walk(func(n *Element) {
			if err != nil {
				return
			}
			if e := n.check(); e != nil {
				err = fmt.Errorf("screen %q: %w", id, e)
				return
			}
			if t := n.OnTap; t != nil {
				for _, target := range []string{t.Navigate, t.Dialog} {
					if target == "" {
						continue
					}
					if _, ok := s.Screens[target]; !ok {
						err = fmt.Errorf("screen %q: tap target %q is not a screen", id, target)
					}
				}
				if t.Dialog != "" && !s.Screens[t.Dialog].Dialog {
					err = fmt.Errorf("screen %q: %q opened as dialog is not marked dialog", id, t.Dialog)
				}
			}
			if n.ForEach != "" {
				if _, ok := s.Data[n.ForEach]; !ok {
					err = fmt.Errorf("screen %q: forEach %q names no data collection", id, n.ForEach)
				}
			}
			if n.Item != "" {
				if name, i, ok := itemRef(n.Item); !ok || i >= len(s.Data[name]) {
					err = fmt.Errorf("screen %q: item %q names no entry of a data collection", id, n.Item)
				}
			}
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Px converts density-independent pixels to device pixels, as Android rounds them.
func (s *Scenario) Px(dp float64) int {
	v := dp * float64(s.Device.Density) / 160
	if v < 0 {
		return -int(-v + 0.5)
	}
	return int(v + 0.5)
}
