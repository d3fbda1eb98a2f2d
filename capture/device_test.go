package capture

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"strings"
	"sync"
	"testing"

	"fixthis/adb"
)

// scriptedDevice answers commands from a table and records what was run. A reply
// list is consumed in order; the last reply repeats.
type scriptedDevice struct {
	mu      sync.Mutex
	exec    map[string][]reply
	shell   map[string][]reply
	history []string
}

type reply struct {
	out, stderr []byte
	code        int
	err         error
}

func (d *scriptedDevice) next(table map[string][]reply, cmd string) reply {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.history = append(d.history, cmd)
	rs, ok := table[cmd]
	if !ok || len(rs) == 0 {
		return reply{err: errors.New("closed: " + cmd)}
	}
	r := rs[0]
	if len(rs) > 1 {
		table[cmd] = rs[1:]
	}
	return r
}

func (d *scriptedDevice) Exec(ctx context.Context, cmd string) ([]byte, error) {
	r := d.next(d.exec, cmd)
	return r.out, r.err
}

func (d *scriptedDevice) Shell(ctx context.Context, cmd string) (adb.ShellResult, error) {
	r := d.next(d.shell, cmd)
	return adb.ShellResult{Stdout: r.out, Stderr: r.stderr, ExitCode: r.code}, r.err
}

func (d *scriptedDevice) ran(cmd string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, c := range d.history {
		if c == cmd {
			return true
		}
	}
	return false
}

func TestCaptureFrameFallsBackToPNG(t *testing.T) {
	src := testScreen(40, 80, 0)
	var pngBuf bytes.Buffer
	if err := png.Encode(&pngBuf, src); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		raw     reply
		wantPNG bool
	}{
		{"raw works", reply{out: rawFrame(src, FormatRGBA8888, 16, 0)}, false},
		{"raw refused", reply{err: errors.New("exec: not supported")}, true},
		{"raw truncated", reply{out: rawFrame(src, FormatRGBA8888, 16, 0)[:500]}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dev := &scriptedDevice{exec: map[string][]reply{
				"screencap -d 4619827259835644672":    {tt.raw},
				"screencap -p -d 4619827259835644672": {{out: pngBuf.Bytes()}},
			}}
			img, err := CaptureFrame(context.Background(), dev, "4619827259835644672")
			if err != nil {
				t.Fatal(err)
			}
			if img.Rect != src.Rect || img.NRGBAAt(5, 5) != src.NRGBAAt(5, 5) {
				t.Error("frame differs from the screen")
			}
			if dev.ran("screencap -p -d 4619827259835644672") != tt.wantPNG {
				t.Errorf("png fallback used = %v", !tt.wantPNG)
			}
		})
	}
	dev := &scriptedDevice{exec: map[string][]reply{"screencap": {{out: []byte("garbage")}}, "screencap -p": {{out: []byte("more garbage")}}}}
	if _, err := CaptureFrame(context.Background(), dev, ""); err == nil || !strings.Contains(err.Error(), "screencap -p") {
		t.Errorf("both paths failing: %v", err)
	}
}

const smallDump = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" class="android.widget.FrameLayout" package="com.example.notes" bounds="[0,0][40,80]"><node index="0" text="Hi" class="android.widget.TextView" bounds="[0,0][40,20]"/></node></hierarchy>`

func TestDumpTree(t *testing.T) {
	idle := reply{out: []byte("ERROR: could not get idle state.\n")}
	good := reply{out: []byte(smallDump + "UI hierchary dumped to: /dev/tty\n")}
	tests := []struct {
		name      string
		tty       []reply
		fileDump  []reply
		cat       []reply
		wantFile  bool
		wantError bool
	}{
		{"tty", []reply{good}, nil, nil, false, false},
		{"tty idle retry", []reply{idle, good}, nil, nil, false, false},
		{"file fallback", []reply{{err: errors.New("exec refused")}},
			[]reply{{out: []byte("UI hierchary dumped to: " + dumpFile + "\n")}}, []reply{{out: []byte(smallDump)}}, true, false},
		{"file idle retry", []reply{idle, idle},
			[]reply{{out: []byte("ERROR: could not get idle state.\n"), code: 1}, {out: []byte("UI hierchary dumped to: x\n")}},
			[]reply{{out: []byte(smallDump)}}, true, false},
		{"all fail", []reply{idle, idle}, []reply{{stderr: []byte("Killed"), code: 137}}, nil, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dev := &scriptedDevice{
				exec:  map[string][]reply{"uiautomator dump /dev/tty": tt.tty, "cat " + dumpFile: tt.cat},
				shell: map[string][]reply{"uiautomator dump " + dumpFile: tt.fileDump, "rm -f " + dumpFile: {{}}},
			}
			h, err := DumpTree(context.Background(), dev)
			if tt.wantError {
				if err == nil {
					t.Fatal("want an error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(h.Nodes) != 2 || h.Nodes[1].Text != "Hi" {
				t.Errorf("nodes = %+v", h.Nodes)
			}
			if dev.ran("cat "+dumpFile) != tt.wantFile {
				t.Errorf("file fallback used = %v", !tt.wantFile)
			}
			if tt.wantFile && !dev.ran("rm -f "+dumpFile) {
				t.Error("dump file not removed")
			}
		})
	}
}

func stateShell(t *testing.T) map[string][]reply {
	return map[string][]reply{
		"dumpsys activity activities": {{out: []byte(readTestdata(t, "dumpsys_activity_api34.txt"))}},
		"dumpsys window":              {{out: []byte(readTestdata(t, "dumpsys_window_api34.txt"))}},
		"dumpsys power":               {{out: []byte(readTestdata(t, "dumpsys_power_api34.txt"))}},
		"wm density":                  {{out: []byte(readTestdata(t, "wm_density.txt"))}},
		"dumpsys input_method":        {{out: []byte(readTestdata(t, "dumpsys_input_method_hidden.txt"))}},
	}
}

func TestReadScreenState(t *testing.T) {
	dev := &scriptedDevice{shell: stateShell(t)}
	s, err := ReadScreenState(context.Background(), dev)
	if err != nil {
		t.Fatal(err)
	}
	if s.Activity != "com.example.notes.ui.EditorActivity" || s.Density != 440 || !s.ScreenOn || s.Rotation != 1 {
		t.Errorf("state = %+v", s)
	}
	if _, err := ReadScreenState(context.Background(), &scriptedDevice{shell: map[string][]reply{}}); err == nil {
		t.Error("a silent device should fail")
	}
}

func TestCapture(t *testing.T) {
	src := testScreen(40, 80, 0)
	newDev := func() *scriptedDevice {
		return &scriptedDevice{
			exec:  map[string][]reply{"screencap": {{out: rawFrame(src, FormatRGBA8888, 16, 0)}}, "uiautomator dump /dev/tty": {{out: []byte(smallDump)}}},
			shell: stateShell(t),
		}
	}
	a, err := Capture(context.Background(), newDev(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Width != 40 || a.Height != 80 || len(a.Nodes) != 2 || a.TreeSource != TreeFromUIAutomator || a.TreeErr != nil {
		t.Fatalf("snapshot = %+v", a)
	}
	if a.State.Orientation != "PORTRAIT" || a.Fingerprint.Structural == "" || a.Fingerprint.Structure == "" || len(a.Fingerprint.Perceptual) != 16 {
		t.Errorf("state %+v fingerprint %+v", a.State, a.Fingerprint)
	}
	if a.Timings.Total <= 0 || a.Timings.Total < a.Timings.Frame {
		t.Errorf("timings %+v", a.Timings)
	}
	b, err := Capture(context.Background(), newDev(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Fingerprint != b.Fingerprint || !a.Fingerprint.Matches(b.Fingerprint) {
		t.Errorf("same screen twice: %+v vs %+v", a.Fingerprint, b.Fingerprint)
	}

	// The tree failing leaves a usable frame.
	dev := newDev()
	dev.exec["uiautomator dump /dev/tty"] = []reply{{err: errors.New("boom")}}
	c, err := Capture(context.Background(), dev, Options{})
	if err != nil || c.TreeErr == nil || c.Nodes != nil || c.Fingerprint.Structure != "" {
		t.Errorf("tree failure: %+v %v", c, err)
	}
	// No frame, no snapshot.
	dev = newDev()
	dev.exec["screencap"] = []reply{{err: errors.New("device offline")}}
	if _, err := Capture(context.Background(), dev, Options{}); err == nil {
		t.Error("capture without a frame succeeded")
	}
}

func TestCaptureRotatesNaturalOrientationFrame(t *testing.T) {
	// The panel is portrait 40×80 but the UI is landscape: the tree says 80×40.
	src := testScreen(40, 80, 0)
	landscape := strings.NewReplacer(`rotation="0"`, `rotation="1"`, "[0,0][40,80]", "[0,0][80,40]").Replace(smallDump)
	dev := &scriptedDevice{
		exec:  map[string][]reply{"screencap": {{out: rawFrame(src, FormatRGBA8888, 16, 0)}}, "uiautomator dump /dev/tty": {{out: []byte(landscape)}}},
		shell: stateShell(t),
	}
	s, err := Capture(context.Background(), dev, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Width != 80 || s.Height != 40 || s.State.Orientation != "LANDSCAPE" {
		t.Errorf("frame %dx%d orientation %s", s.Width, s.Height, s.State.Orientation)
	}
}

// A frame given in Options is the picture: the phone is asked for the tree and the
// state only, and the snapshot is that frame's.
func TestCaptureWithAGivenFrameTakesNoScreencap(t *testing.T) {
	given := testScreen(40, 80, 0)
	dev := &scriptedDevice{
		exec:  map[string][]reply{"uiautomator dump /dev/tty": {{out: []byte(smallDump)}}},
		shell: stateShell(t),
	}
	snap, err := Capture(context.Background(), dev, Options{Frame: given})
	if err != nil {
		t.Fatal(err)
	}
	if dev.ran("screencap") || dev.ran("screencap -p") {
		t.Error("a screencap ran although the frame was given")
	}
	if snap.Frame != given || len(snap.Nodes) != 2 || snap.Timings.Frame != 0 {
		t.Errorf("frame %p (given %p), %d nodes, frame took %v", snap.Frame, given, len(snap.Nodes), snap.Timings.Frame)
	}
}
