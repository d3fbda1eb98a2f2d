package scenario

import (
	"fmt"
	"image"
	"sync"
)

// Display is the phone's display conditions as they change what apps draw: the
// dark theme (`cmd uimode night yes`), the font scale (`settings put system
// font_scale`), the density apps render at (`wm density`), the size they render
// at (`wm size`) and whether the app's own locale is written right to left (`cmd
// locale set-app-locales`).
type Display struct {
	Night         bool
	FontScale     float64 // 0 reads as 1
	Density       int     // 0: the device's physical density
	Width, Height int     // 0: the device's physical size (natural orientation)
	RTL           bool    // the app's layout direction (system screens keep theirs)
}

func (d Display) key(app bool) string {
	return fmt.Sprintf("night=%t font=%g dens=%d size=%dx%d rtl=%t", d.Night, d.scale(), d.Density, d.Width, d.Height, d.RTL && app)
}

func (d Display) scale() float64 {
	if d.FontScale <= 0 {
		return 1
	}
	return d.FontScale
}

// darkTheme is the Material 3 dark scheme of the same forest-green seed as
// defaultTheme; night mode draws with it (scenario.json "darkTheme" overrides).
var darkTheme = map[string]string{
	"primary": "#B1D18A", "onPrimary": "#1F3701", "primaryContainer": "#354E16", "onPrimaryContainer": "#CDEDA3",
	"secondary": "#BFCBAD", "onSecondary": "#2A331E", "secondaryContainer": "#404A33", "onSecondaryContainer": "#DCE7C8",
	"tertiary": "#A0D0CB", "onTertiary": "#003735", "tertiaryContainer": "#1F4E4B", "onTertiaryContainer": "#BCECE7",
	"error": "#FFB4AB", "onError": "#690005", "errorContainer": "#93000A", "onErrorContainer": "#FFDAD6",
	"surface": "#12140E", "onSurface": "#E2E3D8", "onSurfaceVariant": "#C5C8BA",
	"surfaceContainerLowest": "#0C0F09", "surfaceContainerLow": "#1A1C16", "surfaceContainer": "#1E201A",
	"surfaceContainerHigh": "#282B24", "surfaceContainerHighest": "#33362E",
	"outline": "#8F9285", "outlineVariant": "#44483D", "scrim": "#000000", "inverseSurface": "#E2E3D8",
	"white": "#FFFFFF", "black": "#000000", "transparent": "#00000000",
}

// displayVariants memoises the scenario as drawn under each Display.
type displayVariants struct {
	mu sync.Mutex
	m  map[string]*Scenario
}

// under returns s as drawn under d: the same screens and data with the density,
// palette, text size and layout direction d gives. The default Display is s
// itself; variants have their own render caches.
func (s *Scenario) under(d Display, app bool) *Scenario {
	sameSize := (d.Width == 0 || d.Width == s.Device.Width) && (d.Height == 0 || d.Height == s.Device.Height)
	if !d.Night && d.scale() == 1 && (d.Density == 0 || d.Density == s.Device.Density) && sameSize && !(d.RTL && app) {
		return s
	}
	k := d.key(app)
	s.variants.mu.Lock()
	defer s.variants.mu.Unlock()
	if v, ok := s.variants.m[k]; ok {
		return v
	}
	v := &Scenario{
		Name: s.Name, Device: s.Device, Latency: s.Latency, App: s.App, Theme: s.Theme,
		Data: s.Data, Screens: s.Screens, Start: s.Start, Sockets: s.Sockets, Variant: s.Variant,
		StatusTime: s.StatusTime, Battery: s.Battery, DarkTheme: s.DarkTheme,
		launcher: s.launcher, keyguard: s.keyguard, fonts: s.fonts,
		cache: newRenderCache(8), layers: newLayerCache(), shadows: map[string]*image.RGBA{},
		fontScale: d.scale(), rtl: d.RTL && app, night: d.Night,
	}
	if d.Density > 0 {
		v.Device.Density = d.Density
	}
	if d.Width > 0 && d.Height > 0 {
		v.Device.Width, v.Device.Height = d.Width, d.Height
	}
	if d.Night {
		v.Theme = s.DarkTheme
	}
	if s.variants.m == nil {
		s.variants.m = map[string]*Scenario{}
	}
	s.variants.m[k] = v
	return v
}

// palette is the default scheme the scenario draws with.
func (s *Scenario) palette() map[string]string {
	if s.night {
		return darkTheme
	}
	return defaultTheme
}

// textScale is the font scale text is drawn at.
func (s *Scenario) textScale() float64 {
	if s.fontScale <= 0 {
		return 1
	}
	return s.fontScale
}

// sp converts scale-independent pixels to device pixels under the font scale.
func (s *Scenario) sp(v float64) int { return s.Px(v * s.textScale()) }

// mirror places a child of width w at x inside [lo, hi) for the layout
// direction: unchanged left to right, reflected right to left.
func (s *Scenario) mirror(lo, hi, x, w int) int {
	if !s.rtl {
		return x
	}
	return lo + hi - x - w
}

// textDPI is the density text faces are made at: the density times the font scale.
func (s *Scenario) textDPI() float64 { return float64(s.Device.Density) * s.textScale() }
