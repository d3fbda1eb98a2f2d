// Package display is the phone's display conditions as FixThis changes them: dark
// theme (`cmd uimode night`), font scale (`settings ... system font_scale`), display
// size (`wm density`), the app's own locale (`cmd locale set-app-locales`, Android
// 13+) and the animation scales (`settings ... global *_scale`). It reads them back
// the way phones print them, checks every value before a command is built, saves a
// device's original values the first time one changes (in a 0600 file, so a crash
// does not leave a phone changed) and restores them.
package display

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"fixthis/app/errcode"
	"fixthis/app/store"
)

// Limits of the values FixThis sets.
const (
	MinFontScale = 0.85 // Android's smallest font size step
	MaxFontScale = 2.0  // Android 14's largest (nonlinear font scaling)
	MaxAnimation = 10.0 // the slowest step Developer options offer
	// LocaleSDK is the first Android version with per-app locales (13).
	LocaleSDK = 33
)

// Density limits are relative to the physical density: Android's "Display size"
// steps stay within them.
const (
	minDensityFactor = 0.75
	maxDensityFactor = 1.5
)

// DensityRange is the override densities allowed for a phone of physical density.
func DensityRange(physical int) (lo, hi int) {
	return int(math.Ceil(float64(physical) * minDensityFactor)), int(math.Floor(float64(physical) * maxDensityFactor))
}

// State is a phone's display conditions as it reports them.
type State struct {
	Night     bool    `json:"night"`
	FontScale float64 `json:"fontScale"`
	// Density is the density apps render at (the override when there is one);
	// PhysicalDensity is the panel's own.
	Density         int `json:"density"`
	PhysicalDensity int `json:"physicalDensity"`
	// Locale is the app's own locale as a BCP 47 tag ("" when it follows the system).
	Locale  string `json:"locale"`
	Package string `json:"package"`
	// LocaleSupported is false before Android 13; LocaleReason then says why.
	LocaleSupported bool   `json:"localeSupported"`
	LocaleReason    string `json:"localeReason,omitempty"`
	// AnimationScale is animator_duration_scale (window and transition scales are
	// set with it).
	AnimationScale float64 `json:"animationScale"`
	// Changed says FixThis holds the device's original values to restore.
	Changed bool `json:"changed"`
}

// Change is what to set; nil fields stay as they are. Density 0 and Locale ""
// reset to the phone's own.
type Change struct {
	Night          *bool    `json:"night,omitempty"`
	FontScale      *float64 `json:"fontScale,omitempty"`
	Density        *int     `json:"density,omitempty"`
	Locale         *string  `json:"locale,omitempty"`
	AnimationScale *float64 `json:"animationScale,omitempty"`
}

// Empty reports whether c changes nothing.
func (c Change) Empty() bool {
	return c.Night == nil && c.FontScale == nil && c.Density == nil && c.Locale == nil && c.AnimationScale == nil
}

// RequireSome refuses a change that names nothing, with the one message the
// console's route and the agent's tool both give.
func (c Change) RequireSome() error {
	if c.Empty() {
		return errcode.New(errcode.OutOfRange, "name at least one of night, fontScale, density, locale, animationScale")
	}
	return nil
}

// Precheck is everything a change can be refused for before any phone is
// asked (which device, which app in front): it names something, and its values
// pass CheckValues. The console's route and the agent's tool run it first.
func (c Change) Precheck() error {
	if err := c.RequireSome(); err != nil {
		return err
	}
	return c.CheckValues()
}

// A BCP 47 language tag as Android's LocaleList takes it: a 2-3 letter language
// (or 4-8 for a registered one), then an optional script, region and variants.
var localeRE = regexp.MustCompile(`^[A-Za-z]{2,3}(-[A-Za-z]{4})?(-([A-Za-z]{2}|[0-9]{3}))?(-([A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))*$`)

// MaxLocaleLen is the longest language tag FixThis sends: RFC 5646 (section
// 4.4.1) asks implementations to hold tags of 35 characters, which covers a
// language, script, region and two variants. A longer one never reaches a phone.
const MaxLocaleLen = 35

// CheckLocale refuses a value that is not a language tag ("" is allowed: the
// system's locale). The length is checked first, so a megabyte tag costs nothing
// and its refusal quotes only its start.
func CheckLocale(tag string) error {
	if len(tag) > MaxLocaleLen {
		return errcode.New(errcode.OutOfRange, "locale %s is too long for a language tag: at most %d characters", errcode.Quote(tag), MaxLocaleLen)
	}
	if tag == "" || localeRE.MatchString(tag) {
		return nil
	}
	return errcode.New(errcode.OutOfRange, "locale %s is not a BCP 47 language tag (for example en, ar, pt-BR, sr-Latn)", errcode.Quote(tag))
}

// CheckValues checks everything in c that needs no phone to check: the font and
// animation scales, the language tag's grammar and a density's sign. Set runs it
// before any command, so a bad value never reaches the phone, whatever app is in
// front; Validate adds the density range, which needs the phone's physical density.
func (c Change) CheckValues() error {
	if c.FontScale != nil {
		if f := *c.FontScale; math.IsNaN(f) || f < MinFontScale || f > MaxFontScale {
			return errcode.New(errcode.OutOfRange, "fontScale %s is out of range: want %g to %g", fmtFloat(f), MinFontScale, MaxFontScale)
		}
	}
	if c.Density != nil && *c.Density < 0 {
		return errcode.New(errcode.OutOfRange, "density %d is out of range: want a positive density, or 0 for the phone's own", *c.Density)
	}
	if c.Locale != nil {
		if err := CheckLocale(*c.Locale); err != nil {
			return err
		}
	}
	if c.AnimationScale != nil {
		if a := *c.AnimationScale; math.IsNaN(a) || a < 0 || a > MaxAnimation {
			return errcode.New(errcode.OutOfRange, "animationScale %s is out of range: want 0 (off) to %g", fmtFloat(a), MaxAnimation)
		}
	}
	return nil
}

// Validate checks c against the limits for a phone of the given physical density.
func (c Change) Validate(physical int) error {
	if err := c.CheckValues(); err != nil {
		return err
	}
	if c.Density != nil && *c.Density != 0 {
		lo, hi := DensityRange(physical)
		if d := *c.Density; d < lo || d > hi {
			return errcode.New(errcode.OutOfRange, "density %d is out of range: want %d to %d (%g to %g × the physical %d), or 0 for the phone's own",
				d, lo, hi, minDensityFactor, maxDensityFactor, physical)
		}
	}
	return nil
}

// RTL reports whether tag's script is written right to left.
func RTL(tag string) bool {
	parts := strings.Split(strings.ToLower(tag), "-")
	if len(parts) > 1 && len(parts[1]) == 4 {
		return parts[1] == "arab" || parts[1] == "hebr" || parts[1] == "thaa" || parts[1] == "syrc"
	}
	switch parts[0] {
	case "ar", "fa", "he", "iw", "ur", "ps", "sd", "ug", "yi", "dv", "ckb":
		return true
	}
	return false
}

// Conditions is what differs from a phone's defaults, as screens and captures keep it.
func (s State) Conditions() *store.DisplayConditions {
	c := &store.DisplayConditions{Night: s.Night, Locale: s.Locale}
	if s.FontScale != 0 && s.FontScale != 1 {
		c.FontScale = s.FontScale
	}
	if s.Density != 0 && s.PhysicalDensity != 0 && s.Density != s.PhysicalDensity {
		c.Density = s.Density
	}
	if s.AnimationScale != 1 {
		a := s.AnimationScale
		c.AnimationScale = &a
	}
	return c
}

// Line is the conditions as the prompt's screen block writes them
// ("night, fontScale=1.3, locale=ar, density=360"); "" when nothing differs from a
// phone's defaults.
func (s State) Line() string { return s.Conditions().Line() }

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// fmtSetting writes a scale as Android's settings store it ("1.0", "1.3").
func fmtSetting(f float64) string {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// maxEcho is how much of a command line or of what the phone printed an error
// quotes: enough to recognise it, never a megabyte of it.
const (
	maxCommandEcho = 80
	maxOutputEcho  = 300
)

// clip cuts s to at most n bytes at a rune boundary, so a message stays valid
// UTF-8, and marks the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// refused is the error for a command the phone would not run, with what it said.
func refused(cmd string, out string) error {
	return errcode.New(errcode.DisplayRefused, "the phone refused `%s`: %s", clip(cmd, maxCommandEcho), clip(strings.TrimSpace(out), maxOutputEcho))
}

// Undo is the change that sets the dark theme, font scale and app locale back to
// was, for a caller that changed them for a moment; ok is false when was are the
// phone's defaults, and the caller restores the phone's own values instead.
func Undo(was *store.DisplayConditions) (c Change, ok bool) {
	if was.Line() == "" {
		return Change{}, false
	}
	night, font, locale := was.Night, was.FontScale, was.Locale
	if font == 0 {
		font = 1
	}
	return Change{Night: &night, FontScale: &font, Locale: &locale}, true
}
