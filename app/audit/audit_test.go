package audit

import (
	"errors"
	"image"
	"image/color"
	"strings"
	"testing"

	"fixthis/capture"
)

// node builds a test node: uid "n"+path, parent from the path.
func node(path, class string, b capture.Bounds, opts ...func(*capture.Node)) capture.Node {
	n := capture.Node{UID: "n" + path, IndexPath: path, Class: class, Bounds: b, Enabled: true}
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		n.ParentUID = "n" + path[:i]
	}
	for _, o := range opts {
		o(&n)
	}
	return n
}

func rect(l, t, r, b int) capture.Bounds { return capture.Bounds{Left: l, Top: t, Right: r, Bottom: b} }

var (
	clickable = func(n *capture.Node) { n.Clickable = true }
	disabled  = func(n *capture.Node) { n.Enabled = false }
	editable  = func(n *capture.Node) { n.Editable = true; n.Redacted = true }
)

func text(s string) func(*capture.Node) { return func(n *capture.Node) { n.Text = s } }
func desc(s string) func(*capture.Node) { return func(n *capture.Node) { n.ContentDescription = s } }

const (
	frame  = "android.widget.FrameLayout"
	button = "android.widget.Button"
	image_ = "android.widget.ImageButton"
	label  = "android.widget.TextView"
)

// screenOf is a 1080×2400 phone at 420 dpi (2.625 px per dp) holding nodes under a
// full-screen root.
func screenOf(nodes ...capture.Node) Input {
	root := node("0", frame, rect(0, 0, 1080, 2400))
	return Input{Nodes: append([]capture.Node{root}, nodes...), DensityDPI: 420}
}

func run(t *testing.T, in Input, check string) []Finding {
	t.Helper()
	all, err := Run(in)
	if err != nil {
		t.Fatal(err)
	}
	var out []Finding
	for _, f := range all {
		if f.Check == check {
			out = append(out, f)
		}
	}
	return out
}

func TestTouchTarget(t *testing.T) {
	// 36 dp = 94.5 px; 48 dp = 126 px at 420 dpi.
	cases := []struct {
		name     string
		in       Input
		want     int
		severity string
		measured string
		required string
	}{
		{"36 dp icon button", screenOf(node("0.0", image_, rect(100, 500, 195, 595), clickable, desc("Share"))), 1, SeverityError, "36×36 dp", "48×48 dp"},
		{"48 dp icon button", screenOf(node("0.0", image_, rect(100, 500, 226, 626), clickable, desc("Share"))), 0, "", "", ""},
		{"not clickable: never a target", screenOf(node("0.0", image_, rect(100, 500, 120, 520), desc("Logo"))), 0, "", "", ""},
		{"disabled", screenOf(node("0.0", image_, rect(100, 500, 120, 520), clickable, disabled, desc("Share"))), 0, "", "", ""},
		{"zero size is not visible", screenOf(node("0.0", image_, rect(100, 500, 100, 500), clickable, desc("Share"))), 0, "", "", ""},
		{"against the left edge needs 32 dp wide", screenOf(node("0.0", image_, rect(0, 500, 90, 626), clickable, desc("Back"))), 0, "", "", ""},
		{"against the left edge, 30 dp", screenOf(node("0.0", image_, rect(0, 500, 79, 626), clickable, desc("Back"))), 1, SeverityError, "30×48 dp", "32×48 dp"},
		{"big clickable parent demotes to warning", screenOf(
			node("0.0", frame, rect(100, 500, 600, 700), clickable),
			node("0.0.0", "android.widget.Switch", rect(480, 560, 560, 620), clickable)), 1, SeverityWarning, "30×23 dp", "48×48 dp"},
		{"clipped by its parent", screenOf(
			node("0.0", frame, rect(100, 500, 600, 560)),
			node("0.0.0", button, rect(100, 500, 400, 626), clickable, text("Go"))), 1, SeverityWarning, "114×23 dp", "48×48 dp"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := run(t, c.in, CheckTouchTarget)
			if len(got) != c.want {
				t.Fatalf("got %d findings %+v, want %d", len(got), got, c.want)
			}
			if c.want == 0 {
				return
			}
			f := got[0]
			if f.Severity != c.severity || f.Measured != c.measured || f.Required != c.required {
				t.Errorf("got %s %q needs %q, want %s %q needs %q", f.Severity, f.Measured, f.Required, c.severity, c.measured, c.required)
			}
			if !strings.HasPrefix(f.Key, CheckTouchTarget+"|") || f.NodeUID == "" || f.Message == "" || f.Suggestion == "" {
				t.Errorf("incomplete finding %+v", f)
			}
		})
	}
}

func TestSpeakableText(t *testing.T) {
	cases := []struct {
		name string
		in   Input
		want []string // uids flagged
	}{
		{"unlabelled image button", screenOf(node("0.0", image_, rect(100, 500, 226, 626), clickable)), []string{"n0.0"}},
		{"labelled by description", screenOf(node("0.0", image_, rect(100, 500, 226, 626), clickable, desc("Share"))), nil},
		{"labelled by a child's text", screenOf(
			node("0.0", frame, rect(100, 500, 600, 626), clickable),
			node("0.0.0", label, rect(120, 520, 580, 600), text("Save"))), nil},
		{"checkable speaks its state", screenOf(node("0.0", "android.widget.CheckBox", rect(100, 500, 226, 626), clickable, func(n *capture.Node) { n.Checkable = true })), nil},
		{"container with an unlabelled child is not focused", screenOf(
			node("0.0", frame, rect(100, 500, 600, 626), clickable),
			node("0.0.0", "android.widget.ImageView", rect(120, 520, 180, 600))), nil},
		{"plain layout is not focused", screenOf(node("0.0", frame, rect(100, 500, 600, 626))), nil},
		{"list item cut at the list's edge: its children are out of the dump", screenOf(
			node("0.0", "androidx.recyclerview.widget.RecyclerView", rect(0, 500, 1080, 1500), func(n *capture.Node) { n.Scrollable = true }),
			node("0.0.0", frame, rect(0, 1480, 1080, 1500), clickable)), nil},
		{"the same item inside the list is flagged", screenOf(
			node("0.0", "androidx.recyclerview.widget.RecyclerView", rect(0, 500, 1080, 1500), func(n *capture.Node) { n.Scrollable = true }),
			node("0.0.0", frame, rect(0, 1300, 1080, 1400), clickable)), []string{"n0.0.0"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, f := range run(t, c.in, CheckSpeakableText) {
				got = append(got, f.NodeUID)
			}
			if strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Errorf("flagged %v, want %v", got, c.want)
			}
		})
	}
}

func TestLabelChecks(t *testing.T) {
	in := screenOf(
		node("0.0", image_, rect(100, 200, 226, 326), clickable, desc("Share button")),
		node("0.1", image_, rect(300, 200, 426, 326), clickable, desc("Delete")),
		node("0.2", image_, rect(500, 200, 626, 326), clickable, desc("Delete")),
		node("0.3", "android.widget.EditText", rect(100, 400, 1000, 526), clickable, editable, desc("Email")),
		node("0.4", "com.example.FancyView", rect(100, 600, 1000, 726)),
	)
	for _, c := range []struct {
		check, uid, severity string
	}{
		{CheckRedundantDescription, "n0.0", SeverityWarning},
		{CheckDuplicateSpeakable, "n0.1", SeverityWarning},
		{CheckEditableContentDesc, "n0.3", SeverityError},
		{CheckClassName, "n0.4", SeverityWarning},
	} {
		got := run(t, in, c.check)
		if len(got) != 1 || got[0].NodeUID != c.uid || got[0].Severity != c.severity {
			t.Errorf("%s: got %+v, want one %s on %s", c.check, got, c.severity, c.uid)
		}
	}
	if got := run(t, in, CheckDuplicateClickable); len(got) != 0 {
		t.Errorf("distinct bounds reported as duplicates: %+v", got)
	}
}

func TestLayoutChecks(t *testing.T) {
	in := screenOf(
		node("0.0", frame, rect(100, 200, 500, 400)),
		node("0.0.0", label, rect(120, 220, 600, 260), text("Overflowing")),
		node("0.0.1", label, rect(120, 300, 400, 340), text("Hidden")),
		node("0.0.2", "android.widget.ImageView", rect(110, 290, 450, 350), desc("Banner")),
		node("0.1", button, rect(0, 1000, 1080, 1126), clickable, text("Wide")),
		node("0.2", button, rect(0, 1200, 1080, 1326), clickable, text("Twin")),
		node("0.3", button, rect(0, 1200, 1080, 1326), clickable, text("Twin 2")),
	)
	for _, c := range []struct {
		check, uid, measured string
	}{
		{CheckBounds, "n0.0.0", "38 dp past the right"},
		{CheckDuplicateClickable, "n0.2", "2 clickable nodes at [0,1200][1080,1326]"},
	} {
		got := run(t, in, c.check)
		if len(got) != 1 || got[0].NodeUID != c.uid || got[0].Measured != c.measured {
			t.Errorf("%s: got %+v, want %q on %s", c.check, got, c.measured, c.uid)
		}
	}
	// The twins overlap too: the second button's label covers the first's.
	if got := run(t, in, CheckOverlap); len(got) != 2 || got[0].Measured != "100% covered by ImageView n0.0.2" || got[1].NodeUID != "n0.2" {
		t.Errorf("overlap: got %+v", got)
	}
	if got := run(t, in, CheckButtonWidth); len(got) != 3 || got[0].Measured != "411 dp wide" {
		t.Errorf("button_width: got %+v, want three 411 dp buttons", got)
	}
	// A tablet at 160 dpi: a field across 1000 px is 1000 dp.
	tablet := Input{DensityDPI: 160, Nodes: []capture.Node{
		node("0", frame, rect(0, 0, 1280, 800)),
		node("0.0", "android.widget.EditText", rect(100, 100, 1100, 180), clickable, editable),
		node("0.1", "android.widget.EditText", rect(100, 300, 500, 380), clickable, editable),
	}}
	if got := run(t, tablet, CheckTextFieldWidth); len(got) != 1 || got[0].NodeUID != "n0.0" || got[0].Measured != "1000 dp wide" {
		t.Errorf("text_field_width: got %+v", got)
	}
}

// paint fills r of img with c.
func paint(img *image.NRGBA, r image.Rectangle, c color.NRGBA) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetNRGBA(x, y, c)
		}
	}
}

func TestContrast(t *testing.T) {
	white := color.NRGBA{255, 255, 255, 255}
	img := image.NewNRGBA(image.Rect(0, 0, 1080, 2400))
	paint(img, img.Rect, white)
	// Grey #949494 on white is 3.03:1: borderline text. #B0B0B0 is 2.15:1: too low
	// for any text or image. Black is 21:1.
	paint(img, image.Rect(110, 110, 300, 140), color.NRGBA{0x94, 0x94, 0x94, 255})
	paint(img, image.Rect(110, 310, 300, 340), color.NRGBA{0xB0, 0xB0, 0xB0, 255})
	paint(img, image.Rect(110, 510, 300, 540), color.NRGBA{0, 0, 0, 255})
	paint(img, image.Rect(120, 720, 160, 760), color.NRGBA{0xB0, 0xB0, 0xB0, 255})
	in := screenOf(
		node("0.0", label, rect(100, 100, 400, 150), text("Borderline")),
		node("0.1", label, rect(100, 300, 400, 350), text("Too light")),
		node("0.2", label, rect(100, 500, 400, 550), text("Fine")),
		node("0.3", "android.widget.ImageView", rect(100, 700, 200, 800), desc("Pale icon")),
		node("0.4", label, rect(100, 900, 400, 950), text("Blank patch")),
	)
	in.Pixels = img
	got := run(t, in, CheckTextContrast)
	if len(got) != 2 || got[0].NodeUID != "n0.0" || got[1].NodeUID != "n0.1" {
		t.Fatalf("text_contrast: got %+v", got)
	}
	if got[0].Measured != "contrast 3.03:1 (#949494 on #FFFFFF)" || !strings.Contains(got[0].Message, "borderline") {
		t.Errorf("borderline finding: %+v", got[0])
	}
	if got[1].Measured != "contrast 2.17:1 (#B0B0B0 on #FFFFFF)" || !strings.Contains(got[1].Required, "3.00:1") {
		t.Errorf("low finding: %+v", got[1])
	}
	if img := run(t, in, CheckImageContrast); len(img) != 1 || img[0].NodeUID != "n0.3" {
		t.Errorf("image_contrast: got %+v", img)
	}
	// A keyboard drawn over the pale text: its pixels there are the keyboard's.
	in.Covered = []capture.Bounds{rect(0, 200, 1080, 2400)}
	if got := run(t, in, CheckTextContrast); len(got) != 1 || got[0].NodeUID != "n0.0" {
		t.Errorf("text_contrast under a keyboard: %+v", got)
	}
	in.Covered = nil
	in.Pixels = nil
	if got := run(t, in, CheckTextContrast); len(got) != 0 {
		t.Errorf("contrast without pixels: %+v", got)
	}
}

func TestBadInput(t *testing.T) {
	ok := screenOf(node("0.0", button, rect(10, 10, 200, 200), clickable, text("Go")))
	cases := []struct {
		name string
		edit func(*Input)
		want string
	}{
		{"no nodes", func(in *Input) { in.Nodes = nil }, "no nodes"},
		{"unknown density", func(in *Input) { in.DensityDPI = 0 }, "density is unknown"},
		{"negative density", func(in *Input) { in.DensityDPI = -420 }, "outside 100-800"},
		{"absurd density", func(in *Input) { in.DensityDPI = 42000 }, "outside 100-800"},
		{"negative size", func(in *Input) { in.Nodes[1].Bounds = rect(200, 10, 10, 200) }, "negative size"},
		{"zero-size screen", func(in *Input) {
			for i := range in.Nodes {
				in.Nodes[i].Bounds = capture.Bounds{}
			}
		}, "no size"},
		{"node off the screen", func(in *Input) { in.Width, in.Height = 1080, 2400; in.Nodes[1].Bounds = rect(2000, 3000, 2100, 3100) }, "outside the 1080x2400 screen"},
		{"screenshot of another size", func(in *Input) {
			in.Width, in.Height = 1080, 2400
			in.Pixels = image.NewNRGBA(image.Rect(0, 0, 720, 1600))
		}, "the screenshot is 720x1600"},
		{"node outside the screenshot", func(in *Input) {
			in.Pixels = image.NewNRGBA(image.Rect(0, 0, 720, 1600))
			in.Nodes[1].Bounds = rect(800, 1700, 900, 1800)
		}, "screenshot (is it of another screen?)"},
		{"dangling parent", func(in *Input) { in.Nodes[1].ParentUID = "n9" }, "does not come before it"},
		{"duplicate uid", func(in *Input) { in.Nodes[1].UID = in.Nodes[0].UID }, "share the uid"},
		{"extras of another dump", func(in *Input) { in.Extras = make([]Extra, 5) }, "5 node extras for 2 nodes"},
		{"megabyte uid is quoted short", func(in *Input) {
			in.Nodes[1].UID = strings.Repeat("\x00x", 1<<19)
			in.Nodes[1].Bounds = rect(5, 5, 1, 1)
		}, `"\x00x\x00x`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := ok
			in.Nodes = append([]capture.Node(nil), ok.Nodes...)
			c.edit(&in)
			got, err := Run(in)
			if err == nil || !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, %v; want an ErrBadInput saying %q", got, err, c.want)
			}
			if len(err.Error()) > 300 {
				t.Errorf("error of %d bytes", len(err.Error()))
			}
		})
	}
}

func TestStableKeysAndOrder(t *testing.T) {
	in := screenOf(
		node("0.0", image_, rect(100, 900, 195, 995), clickable),
		node("0.1", image_, rect(100, 500, 195, 595), clickable, func(n *capture.Node) { n.ResourceID = "app:id/share" }),
	)
	a, _ := Run(in)
	b, _ := Run(in)
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("runs differ: %d vs %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("finding %d differs between runs: %+v vs %+v", i, a[i], b[i])
		}
	}
	if a[0].Severity != SeverityError || a[0].Bounds.Top != 500 {
		t.Errorf("first finding %+v: errors come first, top to bottom", a[0])
	}
	want := CheckSpeakableText + "|n0.1|app:id/share"
	found := false
	for _, f := range a {
		found = found || f.Key == want
	}
	if !found {
		t.Errorf("no finding keyed %q in %+v", want, a)
	}
}

func TestDumpExtras(t *testing.T) {
	dump := "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<hierarchy rotation=\"0\">\r\n" +
		`<node index="0" text="" class="android.widget.FrameLayout" bounds="[0,0][1080,2400]">` +
		"<node text=\"a\x01b\" class=\"android.widget.TextView\" focusable=\"true\" long-clickable=\"true\" bounds=\"[0,0][100,100]\"/>" +
		`<node text="&#10; " hint="Email &amp; phone" class="android.widget.EditText" visible-to-user="false" bounds='[0,100][100,200]' />` +
		"</node></hierarchy>\nUI hierchary dumped to: /dev/tty\n"
	in, err := ReadDump([]byte(dump))
	if err != nil {
		t.Fatal(err)
	}
	want := []Extra{{}, {LongClickable: true, Focusable: true, HasText: true}, {Hidden: true, Hint: "Email & phone"}}
	if len(in.Extras) != len(want) {
		t.Fatalf("extras %+v", in.Extras)
	}
	for i := range want {
		if in.Extras[i] != want[i] {
			t.Errorf("node %d: %+v, want %+v", i, in.Extras[i], want[i])
		}
	}
	for _, bad := range []string{`<node text="x`, `<node text=x>`, `<node text`} {
		if _, err := DumpExtras([]byte(bad)); !errors.Is(err, ErrBadInput) {
			t.Errorf("%q: %v, want ErrBadInput", bad, err)
		}
	}
}
