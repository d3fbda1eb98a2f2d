package display

import (
	"math"
	"strings"

	"fixthis/app/errcode"
)

// Size presets: one phone shows the layouts a phone, an unfolded foldable and a
// tablet get, through Android's own `wm size WxH` and `wm density N`. Each preset is
// a target in dp (Compose's reference devices); Plan picks the density and the
// pixels that reach it within what the phone accepts.

// Preset is a window size to reach, in dp, landscape when wider than tall.
type Preset struct {
	Name     string `json:"name"`
	WidthDp  int    `json:"widthDp"`
	HeightDp int    `json:"heightDp"`
	// Density, when set, is the density to draw at (a custom size); 0 lets Plan
	// choose one that keeps about the phone's own pixel count.
	Density int `json:"density,omitempty"`
}

// Presets are Compose's reference devices (androidx.compose.ui.tooling.preview
// Devices.PHONE, FOLDABLE, TABLET): a compact, a medium and an expanded width.
var Presets = []Preset{
	{Name: "phone", WidthDp: 411, HeightDp: 891},
	{Name: "foldable", WidthDp: 673, HeightDp: 841},
	{Name: "tablet", WidthDp: 1280, HeightDp: 800},
}

// PresetNamed returns the preset of that name.
func PresetNamed(name string) (Preset, bool) {
	for _, p := range Presets {
		if strings.EqualFold(p.Name, name) {
			return p, true
		}
	}
	return Preset{}, false
}

// Limits a forced size and density must respect on Android. The window manager
// clamps a forced size silently, so FixThis refuses instead of being clamped, and
// keeps within the rule of every release: each side at least 200 px and at most
// twice that side of the panel (Android 10 and earlier: DisplayContent.setForcedSize,
// MAX_SCALE = 2) and three times its longer side (Android 14:
// DisplayContent.getValidForcedSize, maxScale = 3). `wm density` refuses anything
// under 72.
const (
	minForcedSide         = 200
	maxForcedSideScale    = 3 // of the panel's longer side
	maxForcedSideScaleOwn = 2 // of the same side of the panel
	MinForcedDensity      = 72
	// MaxPresetDp bounds a custom size before any arithmetic: no window class
	// needs more, and a megabyte number never reaches a phone.
	MaxPresetDp = 4000
)

// SizePlan is how a preset is reached on one phone.
type SizePlan struct {
	Preset  Preset `json:"preset"`
	Width   int    `json:"width"`  // pixels, for `wm size`
	Height  int    `json:"height"` // pixels
	Density int    `json:"density"`
	// WidthDp and HeightDp are what apps will measure: Android's
	// Configuration.screenWidthDp, the pixels over density/160, rounded down.
	WidthDp  int `json:"widthDp"`
	HeightDp int `json:"heightDp"`
}

// Check refuses a preset no phone can reach, before any phone is asked.
func (p Preset) Check() error {
	if p.WidthDp <= 0 || p.HeightDp <= 0 || p.WidthDp > MaxPresetDp || p.HeightDp > MaxPresetDp {
		return errcode.New(errcode.OutOfRange, "size %d×%d dp is out of range: want 1 to %d dp a side", p.WidthDp, p.HeightDp, MaxPresetDp)
	}
	if p.Density != 0 && (p.Density < MinForcedDensity || p.Density > 2000) {
		return errcode.New(errcode.OutOfRange, "density %d is out of range: want %d to 2000 dpi, or none to let FixThis choose", p.Density, MinForcedDensity)
	}
	return nil
}

// Plan chooses the size and density that reach p on a phone whose panel is
// physW×physH pixels. Without a density of its own the preset is drawn with about
// the panel's pixel count (so a tablet does not cost four phones' pixels); the
// pixels are rounded up so apps measure at least the target. A preset the phone's
// limits cannot reach is refused with the numbers.
func (p Preset) Plan(physW, physH int) (SizePlan, error) {
	if err := p.Check(); err != nil {
		return SizePlan{}, err
	}
	if physW <= 0 || physH <= 0 {
		return SizePlan{}, errcode.New(errcode.DeviceNotAvailable, "the phone reported no display size")
	}
	d := p.Density
	if d == 0 {
		d = int(160 * math.Sqrt(float64(physW)*float64(physH)/(float64(p.WidthDp)*float64(p.HeightDp))))
		d = max(d, MinForcedDensity)
	}
	px := func(dp int) int { return (dp*d + 159) / 160 }
	plan := SizePlan{Preset: p, Width: px(p.WidthDp), Height: px(p.HeightDp), Density: d}
	plan.WidthDp, plan.HeightDp = plan.Width*160/d, plan.Height*160/d
	hi := func(panelSide int) int {
		return min(max(physW, physH)*maxForcedSideScale, panelSide*maxForcedSideScaleOwn)
	}
	if plan.Width < minForcedSide || plan.Height < minForcedSide || plan.Width > hi(physW) || plan.Height > hi(physH) {
		return SizePlan{}, errcode.New(errcode.OutOfRange,
			"this phone cannot show %s (%d×%d dp): it needs %d×%d px at %d dpi, and its display takes %d to %d×%d px",
			p.Name, p.WidthDp, p.HeightDp, plan.Width, plan.Height, d, minForcedSide, hi(physW), hi(physH))
	}
	return plan, nil
}
