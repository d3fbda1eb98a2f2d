// The screen's programs: screencap, uiautomator dump, wm (size, density, user-rotation),
// input (tap, swipe, keyevent, text).
package android

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/png"
	"io"
	"strconv"
	"strings"
	"time"
)

const (
	pixelFormatRGBA8888 = 1
	dataspaceSRGB       = 0x08810000 // HAL_DATASPACE_SRGB, what Android 10+ reports
	// displayID is the physical display id `dumpsys SurfaceFlinger --display-id`
	// reports and `screencap -d` accepts, besides 0.
	displayID = "4619827259835644672"
)

// cmdScreencap is `screencap [-p] [-d ID] [FILE]`: raw header + RGBA pixels, or PNG
// encoded right now from the current frame, as the phone's screencap does.
func cmdScreencap(e *cmdEnv) int {
	var asPNG bool
	var file string
	args := e.Args[1:]
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-p":
			asPNG = true
		case a == "-d" && i+1 < len(args):
			if args[i+1] != "0" && args[i+1] != displayID {
				return e.Errorf(1, "[Warning] Invalid display id %s\n", args[i+1])
			}
			i++
		case a == "-h":
			e.Printf("usage: screencap [-hp] [-d display-id] [FILENAME]\n")
			return 0
		case strings.HasPrefix(a, "-"):
			return e.Errorf(1, "screencap: unknown option %s\nusage: screencap [-hp] [-d display-id] [FILENAME]\n", a)
		default:
			file = a
			asPNG = asPNG || strings.HasSuffix(a, ".png")
		}
	}
	if err := e.dev.delay(e.Ctx, e.dev.profile.Latency.ScreencapRaw); err != nil {
		return 130
	}
	frame := e.dev.phone.Frame()
	if !asPNG && file == "" {
		// Straight to the stream: no 10 MB copy for the fast path.
		writeRawFrame(e.Stdout, frame)
		return 0
	}
	var out bytes.Buffer
	if asPNG {
		start := time.Now()
		enc := png.Encoder{CompressionLevel: png.DefaultCompression}
		if err := enc.Encode(&out, frame); err != nil {
			return e.Errorf(1, "screencap: encode PNG: %v\n", err)
		}
		// The phone's encoder is slower than this machine's: charge the difference.
		if rest := e.dev.profile.Latency.ScreencapPNG - time.Since(start); rest > 0 {
			if err := e.dev.delay(e.Ctx, rest); err != nil {
				return 130
			}
		}
	} else {
		writeRawFrame(&out, frame)
	}
	if file != "" {
		if err := e.dev.fs.WriteFile(e.Resolve(file), out.Bytes(), 0o644); err != nil {
			return e.Errorf(1, "Error opening file: %s (%v)\n", file, err)
		}
		return 0
	}
	e.Stdout.Write(out.Bytes())
	return 0
}

// writeRawFrame writes the Android 9+ raw screencap: width, height, format and
// dataspace as little-endian uint32, then tightly packed RGBA rows.
func writeRawFrame(w io.Writer, img *image.RGBA) {
	b := img.Bounds()
	var h [16]byte
	binary.LittleEndian.PutUint32(h[0:], uint32(b.Dx()))
	binary.LittleEndian.PutUint32(h[4:], uint32(b.Dy()))
	binary.LittleEndian.PutUint32(h[8:], pixelFormatRGBA8888)
	binary.LittleEndian.PutUint32(h[12:], dataspaceSRGB)
	w.Write(h[:])
	row := b.Dx() * 4
	if img.Stride == row {
		w.Write(img.Pix[:row*b.Dy()])
		return
	}
	for y := 0; y < b.Dy(); y++ {
		off := y * img.Stride
		w.Write(img.Pix[off : off+row])
	}
}

// cmdUiautomator is `uiautomator dump [--compressed] [FILE]`. The misspelling
// "hierchary" is what real devices print, and parsers match it.
func cmdUiautomator(e *cmdEnv) int {
	e.dev.logRuntimeStart("com.android.commands.uiautomator.Launcher")
	args := e.Args[1:]
	if len(args) == 0 || args[0] != "dump" {
		return e.Errorf(1, "Usage: uiautomator <subcommand> [options]\n\nAvailable subcommands:\n\nhelp: displays help message\n\nruntest: executes UI automation tests\n\ndump: creates an XML dump of current UI hierarchy\n\nevents: prints out accessibility events until terminated\n")
	}
	file := "/sdcard/window_dump.xml"
	for _, a := range args[1:] {
		switch {
		case a == "--compressed" || a == "--verbose":
			// The scenario's tree holds only important views already, as
			// --compressed would leave.
		case strings.HasPrefix(a, "-"):
			return e.Errorf(1, "Unsupported option: %s\n", a)
		default:
			file = a
		}
	}
	if err := e.dev.delay(e.Ctx, e.dev.profile.Latency.UIDump); err != nil {
		return 130
	}
	if !e.dev.phone.State().ScreenOn {
		return e.Errorf(1, "ERROR: null root node returned by UiTestAutomationBridge.\n")
	}
	xml := e.dev.phone.UIAutomatorXML()
	switch file {
	case "/dev/tty", "/dev/stdout":
		e.Stdout.Write(xml)
	default:
		if err := e.dev.fs.WriteFile(e.Resolve(file), xml, 0o644); err != nil {
			return e.Errorf(1, "ERROR: could not write %s: %v\n", file, err)
		}
	}
	e.Printf("UI hierchary dumped to: %s\n", file)
	return 0
}

func cmdWm(e *cmdEnv) int {
	if len(e.Args) < 2 {
		return e.Errorf(255, "Window manager (window) commands:\n  size [reset|WxH|WdpxHdp]\n  density [reset|DENSITY]\n")
	}
	switch e.Args[1] {
	case "size":
		return wmSize(e)
	case "density":
		return wmDensity(e)
	case "user-rotation":
		return cmdUserRotation(e)
	}
	return e.Errorf(255, "Error: unknown command '%s'\n", e.Args[1])
}

// keyNames maps key codes to the names scenarios understand.
var keyNames = map[string]string{
	"3": "HOME", "4": "BACK", "26": "POWER", "82": "MENU", "224": "WAKEUP", "223": "SLEEP",
	"187": "APP_SWITCH", "66": "ENTER", "67": "DEL", "61": "TAB", "24": "VOLUME_UP",
	"25": "VOLUME_DOWN", "111": "ESCAPE", "19": "DPAD_UP", "20": "DPAD_DOWN",
	"21": "DPAD_LEFT", "22": "DPAD_RIGHT", "23": "DPAD_CENTER",
}

// textTyper is implemented by phones that accept `input text`.
type textTyper interface{ Text(s string) bool }

func cmdInput(e *cmdEnv) int {
	args := e.Args[1:]
	// An optional source ("touchscreen", "keyboard", …) may come first.
	if len(args) > 0 && !map[string]bool{"tap": true, "swipe": true, "keyevent": true, "text": true, "draganddrop": true, "press": true}[args[0]] {
		args = args[1:]
	}
	usage := "Usage: input [<source>] <command> [<arg>...]\n"
	if len(args) == 0 {
		return e.Errorf(1, "%s", usage)
	}
	ints := func(vals []string) ([]int, bool) {
		out := make([]int, len(vals))
		for i, v := range vals {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, false
			}
			out[i] = int(f)
		}
		return out, true
	}
	ph := e.dev.phone
	switch args[0] {
	case "tap":
		v, ok := ints(args[1:])
		if !ok || len(v) != 2 {
			return e.Errorf(1, "Error: Invalid arguments for command: tap\n%s", usage)
		}
		ph.Tap(v[0], v[1])
		e.dev.logInput("tap", v...)
	case "swipe", "draganddrop":
		v, ok := ints(args[1:])
		if !ok || len(v) < 4 || len(v) > 5 {
			return e.Errorf(1, "Error: Invalid arguments for command: %s\n%s", args[0], usage)
		}
		d := 300 * time.Millisecond
		if len(v) == 5 {
			d = time.Duration(v[4]) * time.Millisecond
		}
		ph.Swipe(v[0], v[1], v[2], v[3], d)
		e.dev.logInput("swipe", v...)
	case "keyevent", "press":
		keys := args[1:]
		if args[0] == "press" {
			keys = []string{"DPAD_CENTER"}
		}
		if len(keys) == 0 {
			return e.Errorf(1, "Error: Invalid arguments for command: keyevent\n%s", usage)
		}
		for _, k := range keys {
			if k == "--longpress" || k == "--doubletap" {
				continue
			}
			name := strings.TrimPrefix(strings.ToUpper(k), "KEYCODE_")
			if n, ok := keyNames[name]; ok {
				name = n
			}
			ph.Key(name)
			e.dev.logf("sim: key %s", name)
		}
	case "text":
		if len(args) < 2 {
			return e.Errorf(1, "Error: Invalid arguments for command: text\n%s", usage)
		}
		t, ok := ph.(textTyper)
		if !ok {
			return e.Errorf(1, "Error: the simulated phone does not accept text input\n")
		}
		// input text reads %s as a space, as the real command does.
		t.Text(strings.ReplaceAll(strings.Join(args[1:], " "), "%s", " "))
	default:
		return e.Errorf(1, "Error: Unknown command: %s\n%s", args[0], usage)
	}
	return 0
}
