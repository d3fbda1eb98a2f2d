package display

import (
	"math"
	"slices"
	"strings"
	"testing"

	"fixthis/internal/devicetest"
)

// Every display parser survives what a broken phone or a hostile app can make a
// command print, and its errors stay short.

var displayOutputs = []string{
	"uimode_night_yes.txt", "uimode_night_no_crlf.txt", "uimode_night_custom.txt",
	"settings_font_scale.txt", "settings_null.txt",
	"locale_get_ar.txt", "locale_get_empty.txt", "locale_get_two.txt", "locale_unknown_package.txt", "locale_no_service.txt",
}

// maxParseErr bounds a parser's error: a sentence and a quoted excerpt.
const maxParseErr = 400

func checkDisplayParsers(t *testing.T, s string) {
	t.Helper()
	if m, err := ParseNightMode(s); err == nil && !slices.Contains(nightModes, m) {
		t.Fatalf("night mode %q without error", m)
	} else if err != nil && len(err.Error()) > maxParseErr {
		t.Fatalf("night mode: a %d-byte error", len(err.Error()))
	}
	if v, ok := ParseSetting(s); ok && (v == "" || v == "null" || strings.ContainsAny(v, "\n")) {
		t.Fatalf("setting %q", v)
	}
	if f, err := ParseScale(s); err == nil && (math.IsNaN(f) || math.IsInf(f, 0) || f < 0) {
		t.Fatalf("scale %v without error", f)
	} else if err != nil && len(err.Error()) > maxParseErr {
		t.Fatalf("scale: a %d-byte error", len(err.Error()))
	}
	if tags, err := ParseAppLocales(s); err == nil && (len(tags) > maxLocales || strings.ContainsAny(tags, "\n")) {
		t.Fatalf("%d bytes of locales", len(tags))
	} else if err != nil && len(err.Error()) > maxParseErr {
		t.Fatalf("locales: a %d-byte error", len(err.Error()))
	}
}

func TestDisplayParsersOnBadInput(t *testing.T) {
	for _, file := range displayOutputs {
		for name, in := range devicetest.BadInputs(devicetest.Read(t, file)) {
			t.Run(file+"/"+name, func(t *testing.T) { checkDisplayParsers(t, in) })
		}
	}
}

func TestScalesThatAreNoScale(t *testing.T) {
	for _, out := range []string{"NaN\n", "Inf\n", "-Inf\n", "-1.0\n", "1e400\n", "0x1p-2\x00\n"} {
		if f, err := ParseScale(out); err == nil && (math.IsNaN(f) || math.IsInf(f, 0) || f < 0) {
			t.Errorf("ParseScale(%q) = %v", out, f)
		}
	}
	if _, err := ParseNightMode("Night mode: yes; reboot\n"); err == nil {
		t.Error("a night mode Android never prints was read")
	}
}

func FuzzParseNightMode(f *testing.F) {
	devicetest.Seed(f, "uimode_night_yes.txt", "uimode_night_no_crlf.txt", "uimode_night_custom.txt", "locale_no_service.txt")
	f.Fuzz(checkDisplayParsers)
}

func FuzzParseScale(f *testing.F) {
	devicetest.Seed(f, "settings_font_scale.txt", "settings_null.txt")
	f.Add("NaN\n")
	f.Fuzz(checkDisplayParsers)
}

func FuzzParseAppLocales(f *testing.F) {
	devicetest.Seed(f, "locale_get_ar.txt", "locale_get_empty.txt", "locale_get_two.txt", "locale_unknown_package.txt")
	f.Fuzz(checkDisplayParsers)
}
