package display

import (
	"fmt"
	"strconv"
	"strings"
)

// Parsers for what the display commands print, tested on the outputs in testdata/.

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

// ParseNightMode reads `cmd uimode night` ("Night mode: yes"; also no, auto,
// custom, custom_schedule, custom_bedtime, unknown) and returns the mode's word.
func ParseNightMode(out string) (string, error) {
	for _, l := range lines(out) {
		if v, ok := strings.CutPrefix(l, "Night mode:"); ok {
			return strings.TrimSpace(v), nil
		}
	}
	return "", fmt.Errorf("cmd uimode night: no \"Night mode:\" line in %q", clipOut(out))
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

// ParseScale reads a scale setting: unset reads as Android's default, 1.
func ParseScale(out string) (float64, error) {
	v, ok := ParseSetting(out)
	if !ok {
		return 1, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, fmt.Errorf("settings get: %q is not a number", v)
	}
	return f, nil
}

// ParseDensity reads `wm density`: "Physical density: 420" and, when overridden,
// "Override density: 360" (override is 0 without one).
func ParseDensity(out string) (physical, override int, err error) {
	for _, l := range lines(out) {
		if v, ok := strings.CutPrefix(l, "Physical density:"); ok {
			physical, err = strconv.Atoi(strings.TrimSpace(v))
		} else if v, ok := strings.CutPrefix(l, "Override density:"); ok {
			override, err = strconv.Atoi(strings.TrimSpace(v))
		}
		if err != nil {
			return 0, 0, fmt.Errorf("wm density: %q: %w", l, err)
		}
	}
	if physical == 0 {
		return 0, 0, fmt.Errorf("wm density: no \"Physical density:\" line in %q", clipOut(out))
	}
	return physical, override, nil
}

// ParseAppLocales reads `cmd locale get-app-locales PKG`: "Locales for PKG for
// user 0 are [ar,en-US]" gives "ar,en-US" ("" for the system's). The command
// prints "Unknown package PKG for userId 0" and exits 0 for a package that is not
// installed; that is an error here.
func ParseAppLocales(out string) (string, error) {
	for _, l := range lines(out) {
		if strings.HasPrefix(l, "Unknown package ") {
			return "", fmt.Errorf("%s", l)
		}
		if !strings.HasPrefix(l, "Locales for ") {
			continue
		}
		i, j := strings.LastIndex(l, " are ["), strings.LastIndex(l, "]")
		if i < 0 || j < i {
			break
		}
		return l[i+len(" are [") : j], nil
	}
	return "", fmt.Errorf("cmd locale get-app-locales: no \"Locales for\" line in %q", clipOut(out))
}

func clipOut(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
