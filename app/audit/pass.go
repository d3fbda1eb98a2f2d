package audit

import (
	"context"
	"errors"
	"fmt"

	"fixthis/app/errcode"
	"fixthis/app/store"
)

// DynamicPhone is the phone as the dynamic pass drives it. The caller owns putting
// the phone back: it restores the display settings once Dynamic returns, whatever
// it returned (FixThis's display manager keeps the originals on disk, so a crash or
// an unplugged phone is restored later too).
type DynamicPhone interface {
	// Set applies s (the fields that are set) and returns once the app drew under it.
	Set(ctx context.Context, s Setting) error
	// Screen captures the screen as it is now, with the base screen's density.
	Screen(ctx context.Context) (Input, error)
}

// Setting is one change of the pass; nil fields stay as they are. Locale "" is the
// system's language.
type Setting struct {
	FontScale *float64
	Night     *bool
	Locale    *string
}

// Before is the display the base screen was captured under.
type Before struct {
	FontScale float64 // 0 reads as 1
	Night     bool
	Locale    string
	// RTL says Locale is written right to left already.
	RTL bool
}

// ErrSettingUnsupported wraps a Set error that means this phone or app cannot take
// the setting (per-app languages before Android 13, an app without languages): the
// pass skips that step and says why.
var ErrSettingUnsupported = errors.New("setting not supported")

// DynamicLocale is the right-to-left language the pass gives the app: Arabic, the
// most used right-to-left locale Android ships.
const DynamicLocale = "ar"

// DynamicReport is what the pass found and which steps ran.
type DynamicReport struct {
	Findings []Finding `json:"findings"`
	Ran      []string  `json:"ran"`
	// Skipped names each step that did not run and why.
	Skipped []string `json:"skipped,omitempty"`
}

// DynamicSteps is how many settings the pass tries, for a progress line.
const DynamicSteps = 3

// Dynamic captures the screen under each setting in turn (font scale 2.0, the dark
// theme, a right-to-left language for the app), resetting the previous one as it
// applies the next, and compares each with base. static are base's own findings
// (the dark theme reports only contrast flaws they lack). progress, when set, is
// told each step before it starts.
func Dynamic(ctx context.Context, base Input, static []Finding, before Before, p DynamicPhone, progress func(step int, name string)) (DynamicReport, error) {
	font := before.FontScale
	if font <= 0 {
		font = 1
	}
	scaled, night, rtl := DynamicFontScale, true, DynamicLocale
	steps := []struct {
		name, skip string
		set        Setting
		compare    func(Input) ([]Finding, error)
	}{
		{ConditionFontScale, skipIf(font >= DynamicFontScale, "the font scale is already 2"), Setting{FontScale: &scaled},
			func(in Input) ([]Finding, error) { return TextScaling(base, in) }},
		{ConditionNight, skipIf(before.Night, "the dark theme is already on"), Setting{Night: &night},
			func(in Input) ([]Finding, error) { return NightContrast(static, in) }},
		{ConditionRTL, skipIf(before.RTL, "the app's language is already right to left"), Setting{Locale: &rtl},
			func(in Input) ([]Finding, error) { return LocaleText(base, in) }},
	}
	var rep DynamicReport
	var undo Setting // what puts the last step's setting back before the next
	for i, st := range steps {
		if st.skip != "" {
			rep.Skipped = append(rep.Skipped, st.name+": "+st.skip)
			continue
		}
		if progress != nil {
			progress(i, st.name)
		}
		set := st.set
		set.FontScale = cmpOr(set.FontScale, undo.FontScale)
		set.Night = cmpOr(set.Night, undo.Night)
		set.Locale = cmpOr(set.Locale, undo.Locale)
		if err := p.Set(ctx, set); errors.Is(err, ErrSettingUnsupported) {
			rep.Skipped = append(rep.Skipped, st.name+": "+err.Error())
			undo = Setting{}
			continue
		} else if err != nil {
			return rep, fmt.Errorf("set %s: %w", st.name, err)
		}
		undo = Setting{}
		switch {
		case st.set.FontScale != nil:
			undo.FontScale = &font
		case st.set.Night != nil:
			off := false
			undo.Night = &off
		case st.set.Locale != nil:
			undo.Locale = &before.Locale
		}
		in, err := p.Screen(ctx)
		if err != nil {
			return rep, fmt.Errorf("capture under %s: %w", st.name, err)
		}
		found, err := st.compare(in)
		if err != nil {
			return rep, fmt.Errorf("compare under %s: %w", st.name, err)
		}
		rep.Findings = append(rep.Findings, found...)
		rep.Ran = append(rep.Ran, st.name)
	}
	if rep.Findings == nil {
		rep.Findings = []Finding{}
	}
	return rep, nil
}

func skipIf(cond bool, why string) string {
	if cond {
		return why
	}
	return ""
}

func cmpOr[T any](a, b *T) *T {
	if a != nil {
		return a
	}
	return b
}

// SettingError is the error a DynamicPhone's Set returns for err: a refused app
// language (errcode.InvalidInput: no per-app languages on this phone or for this
// app) becomes ErrSettingUnsupported, so the pass skips that step.
func SettingError(s Setting, err error) error {
	if err != nil && s.Locale != nil && errcode.Of(err) == errcode.InvalidInput {
		return fmt.Errorf("%w: %s", ErrSettingUnsupported, err.Error())
	}
	return err
}

// BeforeOf is the display a screen was captured under, as Dynamic takes it; rtl
// says whether its locale is written right to left.
func BeforeOf(c *store.DisplayConditions, rtl func(string) bool) Before {
	if c == nil {
		return Before{}
	}
	return Before{FontScale: c.FontScale, Night: c.Night, Locale: c.Locale, RTL: rtl(c.Locale)}
}
