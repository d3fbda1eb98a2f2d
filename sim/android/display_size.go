package android

import (
	"strconv"
	"strings"
)

// The display size override, answered as Android 14's `wm size` answers it:
// WindowManagerShellCommand.runDisplaySize (frameworks/base
// services/core/java/com/android/server/wm/WindowManagerShellCommand.java) reads
// "reset", "WxH", "WdpxHdp" or "WpxxHpx" with parseDimension, prints
// "Error: bad size S" for a size without a digit on both sides of the 'x' and
// "Error: bad number java.lang.NumberFormatException: …" for a side that is not a
// number, and printInitialDisplaySize prints "Physical size:" then "Override
// size:" only when the two differ. The window manager then clamps
// the size it is given without saying so, and a size equal to the physical one
// (compared before the clamp) clears the override. The clamp depends on the release:
//   - Android 14 (and, in this simulation, from Android 11: the release that changed
//     the rule is not confirmed here), DisplayContent.getValidForcedSize (frameworks/base
//     services/core/java/com/android/server/wm/DisplayContent.java): each side at
//     least 200 px and at most three times the display's longer side (minSize = 200,
//     maxScale = 3). A measurement in a public repository's notes, on an emulator of
//     an unstated release, agrees to the pixel: 4320×7680 asked of a 1080×1920
//     display gave 4320×5760.
//   - Android 10 and earlier, DisplayContent.setForcedSize (and
//     WindowManagerService.setForcedDisplaySize before it, read in a vendor's
//     Android 8/9 copy): each side at least 200 px and at most twice that side of
//     the display (MAX_SCALE = 2). Whether Android 9 also clears an override equal to
//     the physical size before clamping was not read; the simulation assumes so.
//     DisplayContent also caps the width at config_maxUiWidth on devices that set
//     it; the simulated phones set none.

// Limits the window manager puts on a forced size.
const (
	forcedSizeMin            = 200
	forcedSizeMaxScale       = 3 // of the longer side, Android 14
	forcedSizeMaxScaleBefore = 2 // of the same side, Android 10 and earlier
	forcedSizeScaleChangedAt = 30
)

// displaySize is the size apps render at in the natural orientation: the
// override when there is one, else the panel's.
func (d *Device) displaySize() (int, int) {
	ds := d.displayLocked()
	defer ds.mu.Unlock()
	if ds.width > 0 && ds.height > 0 {
		return ds.width, ds.height
	}
	return d.profile.Width, d.profile.Height
}

// wmSize is `wm size [reset|WxH|WdpxHdp] [-d 0]`.
func wmSize(e *cmdEnv) int {
	args := e.Args[2:]
	if len(args) >= 2 && args[len(args)-2] == "-d" {
		if args[len(args)-1] != "0" {
			return e.Errorf(255, "Error: invalid display id\n")
		}
		args = args[:len(args)-2]
	}
	p := e.dev.profile
	if len(args) == 0 {
		w, h := e.dev.displaySize()
		e.Printf("Physical size: %dx%d\n", p.Width, p.Height)
		if w != p.Width || h != p.Height {
			e.Printf("Override size: %dx%d\n", w, h)
		}
		return 0
	}
	w, h := 0, 0
	if args[0] != "reset" {
		size := args[0]
		div := strings.IndexByte(size, 'x')
		if div <= 0 || div >= len(size)-1 {
			return e.Errorf(255, "Error: bad size %s\n", size)
		}
		var bad string
		w, bad = e.dev.parseDimension(size[:div])
		if bad == "" {
			h, bad = e.dev.parseDimension(size[div+1:])
		}
		if bad != "" {
			return e.Errorf(255, "Error: bad number java.lang.NumberFormatException: For input string: \"%s\"\n", bad)
		}
		if w == p.Width && h == p.Height {
			w, h = 0, 0
		} else {
			w, h = clampForced(w, p.Width, p), clampForced(h, p.Height, p)
		}
	}
	ds := e.dev.displayLocked()
	ds.width, ds.height = w, h
	ds.mu.Unlock()
	e.dev.redraw()
	return 0
}

// parseDimension is WindowManagerShellCommand.parseDimension: pixels, or dp
// at the density apps render at now (Integer.parseInt then * density / 160).
// It returns the text Integer.parseInt refused, or "".
func (d *Device) parseDimension(s string) (int, string) {
	num, scale := s, 0
	if v, ok := strings.CutSuffix(s, "px"); ok {
		num = v
	} else if v, ok := strings.CutSuffix(s, "dp"); ok {
		num, scale = v, d.density()
	}
	n, err := strconv.ParseInt(num, 10, 32)
	if err != nil {
		return 0, num
	}
	if scale > 0 {
		n = n * int64(scale) / 160
	}
	return int(n), ""
}

// clampForced is the bound the window manager applies to one side of a forced size;
// panelSide is that side of the panel.
func clampForced(v, panelSide int, p Profile) int {
	hi := max(p.Width, p.Height) * forcedSizeMaxScale
	if p.SDK < forcedSizeScaleChangedAt {
		hi = panelSide * forcedSizeMaxScaleBefore
	}
	return min(max(v, forcedSizeMin), hi)
}
