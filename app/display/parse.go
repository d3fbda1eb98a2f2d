package display

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"fixthis/app/errcode"
)

// Parsers for what the display commands print, tested on the outputs in testdata/
// and fuzzed (parse_fuzz_test.go). `wm density` is read by adb.ParseWMDensities,
// the one reader of that output. Errors quote at most errcode.MaxQuote characters
// of what the phone printed.

// lines splits command output into trimmed lines (CRLF from a v1 pty included).
func lines(out string) []string {
	var ls []string
	for _, l := range strings.Split(strings.ReplaceAll(out, "\r\n", "\n"), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			ls = append(ls, l)
		}
	}
	return ls
}

// nightModes are the words `cmd uimode night` prints (UiModeManagerService's
// Shell.nightModeToStr: yes, no, auto, custom and unknown up to Android 12;
// custom_schedule and custom_bedtime from 13).
var nightModes = []string{"yes", "no", "auto", "custom", "custom_schedule", "custom_bedtime", "unknown"}

// ParseNightMode reads `cmd uimode night` ("Night mode: yes") and returns the
// mode's word; a word Android does not print is an error, so nothing else is kept
// and later set back on the phone.
func ParseNightMode(out string) (string, error) {
	for _, l := range lines(out) {
		if v, ok := strings.CutPrefix(l, "Night mode:"); ok {
			if v = strings.TrimSpace(v); slices.Contains(nightModes, v) {
				return v, nil
			}
			return "", fmt.Errorf("cmd uimode night: unknown mode %s", errcode.Quote(v))
		}
	}
	return "", fmt.Errorf("cmd uimode night: no \"Night mode:\" line in %s", errcode.Quote(strings.TrimSpace(out)))
}

// ParseSetting reads `settings get NAMESPACE KEY`: the value, or ok=false for
// "null" (the setting was never written).
func ParseSetting(out string) (value string, ok bool) {
	ls := lines(out)
	if len(ls) == 0 || ls[len(ls)-1] == "null" {
		return "", false
	}
	return ls[len(ls)-1], true
}

// ParseScale reads a scale setting (`settings get system font_scale`, `settings
// get global animator_duration_scale`): unset reads as Android's default, 1.
func ParseScale(out string) (float64, error) {
	v, ok := ParseSetting(out)
	if !ok {
		return 1, nil
	}
	return scaleValue(v)
}

// scaleValue is a scale setting's value as a number. NaN, infinities and negative
// numbers parse as floats but are no scale (and NaN would break the JSON answer).
func scaleValue(v string) (float64, error) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
		return 0, fmt.Errorf("settings get: %s is not a scale", errcode.Quote(v))
	}
	return f, nil
}

// maxLocales bounds what ParseAppLocales returns: a few dozen tags of at most
// MaxLocaleLen characters; a longer list is not what LocaleList prints.
const maxLocales = 64 * (MaxLocaleLen + 1)

// ParseAppLocales reads `cmd locale get-app-locales PKG`: "Locales for PKG for
// user 0 are [ar,en-US]" gives "ar,en-US" ("" for the system's). The command
// prints "Unknown package PKG for userId 0" and exits 0 for a package that is not
// installed; that is an error here.
func ParseAppLocales(out string) (string, error) {
	for _, l := range lines(out) {
		if strings.HasPrefix(l, "Unknown package ") {
			return "", fmt.Errorf("%s", clip(l, maxOutputEcho))
		}
		if !strings.HasPrefix(l, "Locales for ") {
			continue
		}
		i, j := strings.LastIndex(l, " are ["), strings.LastIndex(l, "]")
		if i < 0 || j < i {
			break
		}
		tags := l[i+len(" are [") : j]
		if len(tags) > maxLocales {
			return "", fmt.Errorf("cmd locale get-app-locales: %d bytes of locales, more than a language list holds", len(tags))
		}
		return tags, nil
	}
	return "", fmt.Errorf("cmd locale get-app-locales: no \"Locales for\" line in %s", errcode.Quote(strings.TrimSpace(out)))
}
