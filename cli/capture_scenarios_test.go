package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fixthis/adb/adbtest"
	"fixthis/capture"
	"fixthis/sim"
)

type captureDoc struct {
	Width, Height int
	Orientation   string
	Rotation      int
	Windows       []capture.Window
	IMEVisible    bool `json:"imeVisible"`
	Secure        bool
	Nodes         int
	Activity      string
}

// runCaptureJSON runs `fixthis capture --json` against the adb server and decodes it.
func runCaptureJSON(t *testing.T, serial, out string) captureDoc {
	t.Helper()
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	code := Run(ctx, Env{Stdout: &stdout, Stderr: &stderr, Getenv: os.Getenv}, []string{"capture", "--json", "--serial", serial, "--out", out})
	if code != 0 {
		t.Fatalf("capture exit %d: %s", code, stderr.String())
	}
	var doc captureDoc
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("capture --json printed %q: %v", stdout.String(), err)
	}
	if !strings.Contains(stdout.String(), `"windows":[`) || !strings.Contains(stdout.String(), `"imeVisible":`) {
		t.Fatalf("capture --json lacks windows or imeVisible: %s", stdout.String())
	}
	return doc
}

func windowOf(doc captureDoc, typ capture.WindowType) *capture.Window {
	for i, w := range doc.Windows {
		if w.Type == typ && w.Visible {
			return &doc.Windows[i]
		}
	}
	return nil
}

// TestCaptureScenarios captures each built-in scenario of the simulated phone,
// switched at run time with the demo app's broadcast, through a real adb server.
func TestCaptureScenarios(t *testing.T) {
	srv := adbtest.StartServer(t)
	srv.Setenv(t)
	dev := srv.ConnectSim(t, sim.Options{Scenario: "demo", LatencyScale: 0})
	serial := dev.Serial()
	show := func(name string) {
		out := srv.MustADB(t, "-s", serial, "shell", "am", "broadcast", "-a", "com.fixthis.demo.SHOW_SCENARIO", "--es", "scenario", name)
		if !strings.Contains(out, `Broadcast completed: result=-1, data="`+name+`"`) {
			t.Fatalf("switch to %s: %q", name, out)
		}
	}
	statusAndNav := func(t *testing.T, doc captureDoc) {
		if windowOf(doc, capture.WindowStatusBar) == nil || windowOf(doc, capture.WindowNavigationBar) == nil {
			t.Errorf("no visible status and navigation bars in %+v", doc.Windows)
		}
	}

	t.Run("demo", func(t *testing.T) {
		show("demo")
		doc := runCaptureJSON(t, serial, t.TempDir())
		if doc.Width != 1080 || doc.Height != 2400 || doc.Orientation != "PORTRAIT" || doc.Rotation != 0 || doc.IMEVisible || doc.Secure {
			t.Fatalf("demo = %+v", doc)
		}
		statusAndNav(t, doc)
		app := windowOf(doc, capture.WindowApp)
		if app == nil || !app.Focused || app.Package != "com.fixthis.demo" || app.Bounds != (capture.Bounds{Right: 1080, Bottom: 2400}) {
			t.Fatalf("app window = %+v", app)
		}
	})
	t.Run("landscape", func(t *testing.T) {
		show("landscape")
		doc := runCaptureJSON(t, serial, t.TempDir())
		if doc.Width != 2400 || doc.Height != 1080 || doc.Orientation != "LANDSCAPE" || doc.Rotation != 1 {
			t.Fatalf("landscape = %+v", doc)
		}
		if app := windowOf(doc, capture.WindowApp); app == nil || app.Bounds.Width() != 2400 {
			t.Fatalf("app window = %+v", app)
		}
		// wm size reports the panel in its natural orientation whatever the rotation.
		if out := srv.MustADB(t, "-s", serial, "shell", "wm", "size"); out != "Physical size: 1080x2400\n" {
			t.Errorf("wm size = %q", out)
		}
	})
	t.Run("dialog", func(t *testing.T) {
		show("dialog")
		dir := t.TempDir()
		doc := runCaptureJSON(t, serial, dir)
		dlg := windowOf(doc, capture.WindowDialog)
		if dlg == nil || !dlg.Focused || dlg.Title != "com.fixthis.demo/com.fixthis.demo.MainActivity" || dlg.Bounds.Width() >= 1080 {
			t.Fatalf("dialog window = %+v in %+v", dlg, doc.Windows)
		}
		if app := windowOf(doc, capture.WindowApp); app == nil || app.Focused {
			t.Fatalf("the activity behind the dialog = %+v", app)
		}
		// uiautomator dumps only the dialog's window: every node lies inside it.
		nodes := readNodes(t, dir)
		for _, n := range nodes {
			if n.Bounds.Intersect(dlg.Bounds) != n.Bounds {
				t.Errorf("node %s %q at %+v lies outside the dialog %+v", n.Class, n.Text, n.Bounds, dlg.Bounds)
			}
		}
	})
	t.Run("keyboard", func(t *testing.T) {
		show("keyboard")
		dir := t.TempDir()
		doc := runCaptureJSON(t, serial, dir)
		ime := windowOf(doc, capture.WindowIME)
		if !doc.IMEVisible || ime == nil || ime.Package != "com.google.android.inputmethod.latin" || ime.Bounds.Bottom != 2400 || ime.Bounds.Top < 1200 {
			t.Fatalf("keyboard = %+v, ime window %+v", doc, ime)
		}
		st := capture.ScreenState{Windows: doc.Windows}
		if w := st.WindowAt(540, ime.Bounds.Top+40); w == nil || w.Type != capture.WindowIME {
			t.Errorf("a point on the keys hits %+v, want the input method", w)
		}
		if w := st.WindowAt(540, 600); w == nil || w.Type != capture.WindowApp {
			t.Errorf("a point above the keys hits %+v, want the app", w)
		}
		// The dump is the app's window only; the keyboard has no nodes in it.
		for _, n := range readNodes(t, dir) {
			if n.Package == "com.google.android.inputmethod.latin" {
				t.Fatalf("keyboard node in the dump: %+v", n)
			}
		}
	})
	t.Run("secure", func(t *testing.T) {
		show("secure")
		dir := t.TempDir()
		doc := runCaptureJSON(t, serial, dir)
		if !doc.Secure || doc.Nodes < 5 {
			t.Fatalf("secure = %+v", doc)
		}
		f, err := os.Open(filepath.Join(dir, "screen.png"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		img, err := png.Decode(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, y := range []int{400, 1200, 2000} {
			if r, g, b, _ := img.At(540, y).RGBA(); r|g|b != 0 {
				t.Errorf("pixel (540,%d) of a FLAG_SECURE screen is not black", y)
			}
		}
	})
}

func readNodes(t *testing.T, dir string) []capture.Node {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "tree.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tree struct{ Nodes []capture.Node }
	if err := json.Unmarshal(raw, &tree); err != nil {
		t.Fatal(err)
	}
	if len(tree.Nodes) == 0 {
		t.Fatal("empty tree")
	}
	return tree.Nodes
}

// TestCaptureReplaysRealWindowList pins a real Android 12 `dumpsys window` on the
// simulated phone (sim --outputs) and reads it back through `fixthis capture --json`.
func TestCaptureReplaysRealWindowList(t *testing.T) {
	dir := t.TempDir()
	real, err := os.ReadFile(filepath.Join("..", "capture", "testdata", "dumpsys_window_windows_api31_appium.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "dumpsys_window.txt"), real, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := adbtest.StartServer(t)
	srv.Setenv(t)
	dev := srv.ConnectSim(t, sim.Options{Scenario: "demo", LatencyScale: 0, Outputs: dir})
	doc := runCaptureJSON(t, dev.Serial(), t.TempDir())
	if len(doc.Windows) != 8 || doc.IMEVisible || doc.Secure {
		t.Fatalf("replayed window list: %+v", doc)
	}
	nav, status := windowOf(doc, capture.WindowNavigationBar), windowOf(doc, capture.WindowStatusBar)
	if nav == nil || nav.Bounds.Top != 2148 || status == nil || status.Bounds.Bottom != 83 {
		t.Errorf("bars: navigation %+v, status %+v", nav, status)
	}
	for _, w := range doc.Windows {
		if (w.Type == capture.WindowIME || w.Type == capture.WindowNotificationShade) && w.Visible {
			t.Errorf("%s should be hidden: %+v", w.Title, w)
		}
	}
}
