package adb

import (
	"fmt"
	"strconv"
	"strings"
)

// parsePropValue parses the output of `getprop NAME`: the value and a line
// end (\n, or \r\n through a pty).
func parsePropValue(out string) string {
	return strings.TrimRight(out, "\r\n")
}

// parseGetprop parses the output of `getprop` with no argument:
//
//	[ro.build.version.release]: [14]
//
// A value containing newlines continues on the following lines until the
// closing "]".
func parseGetprop(out string) map[string]string {
	props := map[string]string{}
	var key string
	var val strings.Builder
	open := false
	for line := range strings.Lines(out) {
		line = strings.TrimRight(line, "\r\n")
		if open {
			val.WriteByte('\n')
			if v, ok := strings.CutSuffix(line, "]"); ok {
				val.WriteString(v)
				props[key] = val.String()
				open = false
			} else {
				val.WriteString(line)
			}
			continue
		}
		k, v, ok := strings.Cut(line, "]: [")
		if !ok || !strings.HasPrefix(k, "[") {
			continue
		}
		key = k[1:]
		if v, ok := strings.CutSuffix(v, "]"); ok {
			props[key] = v
			continue
		}
		val.Reset()
		val.WriteString(v)
		open = true
	}
	return props
}

// parseWMSize parses `wm size`:
//
//	Physical size: 1080x2400
//	Override size: 720x1600
//
// The override, when set, is what the display renders at and wins.
func parseWMSize(out string) (w, h int, err error) {
	physical, override, err := ParseWMSizes(out)
	if override != (Size{}) {
		return override.W, override.H, err
	}
	return physical.W, physical.H, err
}

// Size is a display size in pixels.
type Size struct{ W, H int }

// ParseWMSizes parses `wm size` (WindowManagerShellCommand.printInitialDisplaySize):
// "Physical size: WxH", then "Override size: WxH" only when an override is set
// (override is the zero Size without one). It is the one reader of this output:
// the device description and the size presets both use it.
func ParseWMSizes(out string) (physical, override Size, err error) {
	phys, over := "", ""
	for line := range strings.Lines(out) {
		line = strings.TrimSpace(line)
		if v, ok := strings.CutPrefix(line, "Physical size:"); ok {
			phys = strings.TrimSpace(v)
		} else if v, ok := strings.CutPrefix(line, "Override size:"); ok {
			over = strings.TrimSpace(v)
		}
	}
	if phys == "" && over == "" {
		return Size{}, Size{}, fmt.Errorf("wm size: no size in %s", excerpt(out))
	}
	if phys != "" {
		if physical, err = parseWxH(phys); err != nil {
			return Size{}, Size{}, err
		}
	}
	if over != "" {
		if override, err = parseWxH(over); err != nil {
			return Size{}, Size{}, err
		}
	}
	return physical, override, nil
}

// parseWxH reads "1080x2400"; both sides must be positive.
func parseWxH(s string) (Size, error) {
	ws, hs, ok := strings.Cut(s, "x")
	if !ok {
		return Size{}, fmt.Errorf("wm size: bad size %s", excerpt(s))
	}
	w, err := strconv.Atoi(ws)
	h, err2 := strconv.Atoi(hs)
	if err != nil || err2 != nil || w <= 0 || h <= 0 {
		return Size{}, fmt.Errorf("wm size: bad size %s", excerpt(s))
	}
	return Size{w, h}, nil
}

// ParseWMDensity parses `wm density`: the density apps render at, the override
// when there is one, else the physical one.
func ParseWMDensity(out string) (int, error) {
	physical, override, err := ParseWMDensities(out)
	if override > 0 {
		return override, err
	}
	return physical, err
}

// ParseWMDensities parses `wm density` (WindowManagerShellCommand.runDisplayDensity):
// "Physical density: 420", then "Override density: 360" only when an override is
// set (override is 0 without one). It is the one reader of this output: the device
// description, the screen state and the display settings all use it.
func ParseWMDensities(out string) (physical, override int, err error) {
	for line := range strings.Lines(out) {
		line = strings.TrimSpace(line)
		field, n := &physical, ""
		if v, ok := strings.CutPrefix(line, "Physical density:"); ok {
			n = v
		} else if v, ok := strings.CutPrefix(line, "Override density:"); ok {
			field, n = &override, v
		} else {
			continue
		}
		d, err := strconv.Atoi(strings.TrimSpace(n))
		if err != nil || d <= 0 {
			return 0, 0, fmt.Errorf("wm density: bad density in %s", excerpt(line))
		}
		*field = d
	}
	if physical == 0 {
		return 0, 0, fmt.Errorf("wm density: no physical density in %s", excerpt(out))
	}
	return physical, override, nil
}

// excerptMax bounds how much of a device's output an error quotes: enough to
// recognise it, never a megabyte of it.
const excerptMax = 80

// excerpt quotes the start of out for an error message.
func excerpt(out string) string {
	out = strings.TrimSpace(out)
	if len(out) <= excerptMax {
		return strconv.Quote(out)
	}
	return strconv.Quote(out[:excerptMax]) + fmt.Sprintf(" (%d bytes)", len(out))
}
