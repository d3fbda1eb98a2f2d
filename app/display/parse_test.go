package display

import (
	"strings"
	"testing"
	"unicode/utf8"

	"fixthis/internal/devicetest"
)

// The parsers that read one value from a command's output: real outputs read to
// their value, and an output that holds none is refused, saying why where the
// phone said why.
func TestParseOneValue(t *testing.T) {
	for _, p := range []struct {
		name   string
		parse  func(string) (string, error)
		want   map[string]string // testdata file: the value read from it
		bad    string            // a testdata file the parser must refuse
		badErr string            // what the refusal must quote; "" for any error
	}{
		{"night mode", ParseNightMode, map[string]string{
			"uimode_night_yes.txt": "yes", "uimode_night_no_crlf.txt": "no", "uimode_night_custom.txt": "custom_bedtime",
		}, "locale_no_service.txt", ""},
		{"app locales", ParseAppLocales, map[string]string{
			"locale_get_ar.txt": "ar", "locale_get_empty.txt": "", "locale_get_two.txt": "en-US,fr-FR",
		}, "locale_unknown_package.txt", "Unknown package com.not.there"},
	} {
		for file, want := range p.want {
			got, err := p.parse(devicetest.Read(t, file))
			if err != nil || got != want {
				t.Errorf("%s, %s: %q, %v; want %q", p.name, file, got, err, want)
			}
		}
		_, err := p.parse(devicetest.Read(t, p.bad))
		if err == nil || !strings.Contains(err.Error(), p.badErr) {
			t.Errorf("%s, %s: %v; want an error quoting %q", p.name, p.bad, err, p.badErr)
		}
	}
}

func TestParseSettingAndScale(t *testing.T) {
	if v, ok := ParseSetting(devicetest.Read(t, "settings_font_scale.txt")); !ok || v != "1.3" {
		t.Errorf("font_scale: %q %v", v, ok)
	}
	if _, ok := ParseSetting(devicetest.Read(t, "settings_null.txt")); ok {
		t.Error("null read as a value")
	}
	if f, err := ParseScale(devicetest.Read(t, "settings_null.txt")); err != nil || f != 1 {
		t.Errorf("null scale: %v %v", f, err)
	}
	if _, err := ParseScale("abc\n"); err == nil {
		t.Error("a word parsed as a scale")
	}
}

func ptr[T any](v T) *T { return &v }

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		name string
		ch   Change
		want string // "" for valid
	}{
		{"in range", Change{FontScale: ptr(1.3), Density: ptr(360), Locale: ptr("ar"), AnimationScale: ptr(5.0)}, ""},
		{"reset", Change{Density: ptr(0), Locale: ptr("")}, ""},
		{"small font", Change{FontScale: ptr(0.5)}, "fontScale 0.5 is out of range: want 0.85 to 2"},
		{"big font", Change{FontScale: ptr(2.5)}, "want 0.85 to 2"},
		{"low density", Change{Density: ptr(100)}, "density 100 is out of range: want 315 to 630"},
		{"high density", Change{Density: ptr(900)}, "want 315 to 630"},
		{"locale", Change{Locale: ptr("arabic!")}, "is not a BCP 47 language tag"},
		{"locale injection", Change{Locale: ptr("ar; reboot")}, "is not a BCP 47 language tag"},
		{"animation", Change{AnimationScale: ptr(-1.0)}, "animationScale -1 is out of range"},
		{"script and region", Change{Locale: ptr("sr-Latn-RS")}, ""},
	} {
		err := c.ch.Validate(420)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v; want %q", c.name, err, c.want)
		}
	}
}

func TestLineAndRTL(t *testing.T) {
	s := State{Night: true, FontScale: 1.3, Locale: "ar", Density: 360, PhysicalDensity: 420, AnimationScale: 1}
	if got := s.Line(); got != "night, fontScale=1.3, locale=ar, density=360" {
		t.Errorf("line %q", got)
	}
	if got := (State{FontScale: 1, Density: 420, PhysicalDensity: 420, AnimationScale: 1}).Line(); got != "" {
		t.Errorf("defaults line %q", got)
	}
	for tag, want := range map[string]bool{"ar": true, "he": true, "fa-IR": true, "en": false, "az-Arab": true, "pt-BR": false} {
		if RTL(tag) != want {
			t.Errorf("RTL(%q) = %v", tag, !want)
		}
	}
}

func TestRefusedCutsAtARune(t *testing.T) {
	// 299 ASCII bytes put the 300th byte inside a two-byte rune.
	out := strings.Repeat("a", 299) + strings.Repeat("é", 50)
	msg := refused("cmd locale set-app-locales", out).Error()
	if !utf8.ValidString(msg) {
		t.Fatalf("message is not valid UTF-8: %q", msg[len(msg)-10:])
	}
	if !strings.HasSuffix(msg, strings.Repeat("a", 299)+"…") {
		t.Fatalf("cut in the wrong place: …%q", msg[len(msg)-12:])
	}
}

func TestRequireSome(t *testing.T) {
	if err := (Change{}).RequireSome(); err == nil || !strings.Contains(err.Error(), "name at least one of") {
		t.Fatalf("empty change: %v", err)
	}
	night := true
	if err := (Change{Night: &night}).RequireSome(); err != nil {
		t.Fatalf("night only: %v", err)
	}
}

func TestPrecheckNeedsNoPhone(t *testing.T) {
	for _, c := range []struct {
		ch   Change
		want string
	}{
		{Change{}, "name at least one of"},
		{Change{Locale: ptr("$(reboot)")}, "is not a BCP 47 language tag"},
		{Change{Locale: ptr("en-US; reboot")}, "is not a BCP 47 language tag"},
		{Change{FontScale: ptr(0.1)}, "fontScale 0.1 is out of range"},
		{Change{Density: ptr(360)}, ""}, // the range needs the phone's physical density
	} {
		err := c.ch.Precheck()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v: %v; want %q", c.ch, err, c.want)
		}
	}
}
