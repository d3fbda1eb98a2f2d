package audit

import (
	"errors"
	"image"
	"image/color"
	"strings"
	"testing"

	"fixthis/capture"
	"fixthis/sim/scenario"
)

// wantOne checks a dynamic check's answer: nothing when measured is "", else one
// finding of check on node n0.0.0 with that measured value, under condition.
func wantOne(t *testing.T, got []Finding, err error, check, condition, measured string) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if measured == "" {
		if len(got) != 0 {
			t.Fatalf("unexpected %+v", got)
		}
		return
	}
	if len(got) != 1 || got[0].Measured != measured || got[0].Check != check || got[0].Condition != condition ||
		got[0].NodeUID != "n0.0.0" || !strings.HasSuffix(got[0].Key, "|"+condition) {
		t.Fatalf("got %+v, want %s measured %q", got, check, measured)
	}
}

func TestTextScaling(t *testing.T) {
	row := func(title capture.Bounds) Input {
		return screenOf(node("0.0", frame, rect(0, 100, 1080, 400)),
			node("0.0.0", label, title, text("Ridge loop")))
	}
	for _, c := range []struct {
		name          string
		before, after capture.Bounds
		want          string // measured, "" for no finding
	}{
		{"grew with the font", rect(40, 120, 400, 180), rect(40, 120, 760, 240), ""},
		{"grew taller only (wrapped)", rect(40, 120, 1000, 180), rect(40, 120, 1000, 300), ""},
		{"fixed box", rect(40, 120, 400, 180), rect(40, 120, 400, 180), "137×23 dp at font scale 1, 137×23 dp at 2"},
		{"within rounding", rect(40, 120, 400, 180), rect(40, 120, 402, 182), "137×23 dp at font scale 1, 138×24 dp at 2"},
		{"now outside its parent", rect(40, 120, 400, 180), rect(40, 300, 400, 520), "reaches outside its parent at font scale 2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := TextScaling(row(c.before), row(c.after))
			wantOne(t, got, err, CheckTextScaling, ConditionFontScale, c.want)
		})
	}
}

// A text whose node is gone, changed its text or became another class is not
// compared: following it would pin a finding on a different node.
func TestTextScalingFollowsOnlyTheSameNode(t *testing.T) {
	base := screenOf(node("0.0", label, rect(40, 120, 400, 180), text("Ridge loop")),
		node("0.1", label, rect(40, 200, 400, 260), text("4.2 km")), node("0.2", label, rect(40, 300, 400, 360), text("Open")))
	scaled := screenOf(node("0.0", label, rect(40, 120, 400, 180), text("Ridge…")),
		node("0.1", "android.widget.Button", rect(40, 200, 400, 260), text("4.2 km")))
	got, err := TextScaling(base, scaled)
	if err != nil || len(got) != 0 {
		t.Fatalf("got %+v, %v", got, err)
	}
}

func TestLocaleText(t *testing.T) {
	pair := func(a, b capture.Bounds) Input {
		return screenOf(node("0.0", frame, rect(0, 100, 1080, 400)),
			node("0.0.0", label, a, text("Ridge loop")), node("0.0.1", label, b, text("4.2 km")))
	}
	ltr := pair(rect(40, 120, 500, 180), rect(600, 120, 1040, 180))
	for _, c := range []struct {
		name string
		rtl  Input
		want string
	}{
		{"mirrored whole", pair(rect(580, 120, 1040, 180), rect(40, 120, 480, 180)), ""},
		{"cut narrower", pair(rect(700, 120, 1040, 180), rect(40, 120, 480, 180)), "130×23 dp right to left, 175×23 dp left to right"},
		{"overlapping", pair(rect(580, 120, 1040, 180), rect(400, 120, 840, 180)), `overlaps "4.2 km" right to left`},
		{"pushed off the screen", pair(rect(760, 120, 1220, 180), rect(40, 120, 480, 180)), "175×23 dp right to left, 175×23 dp left to right"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := LocaleText(ltr, c.rtl)
			wantOne(t, got, err, CheckLocaleText, ConditionRTL, c.want)
		})
	}
	// Texts that already overlapped left to right are the static audit's concern.
	both := pair(rect(40, 120, 700, 180), rect(600, 120, 1040, 180))
	if got, err := LocaleText(both, pair(rect(380, 120, 1040, 180), rect(40, 120, 480, 180))); err != nil || len(got) != 0 {
		t.Fatalf("an overlap both ways: %+v %v", got, err)
	}
}

// Only contrast flaws the dark theme adds are reported, marked as such.
func TestNightContrast(t *testing.T) {
	paint := func(bg, fg color.RGBA) *image.RGBA {
		img := image.NewRGBA(image.Rect(0, 0, 1080, 2400))
		for y := 0; y < 2400; y++ {
			for x := 0; x < 1080; x++ {
				c := bg
				if y >= 130 && y < 170 && x >= 60 && x < 380 && (x/6)%2 == 0 {
					c = fg
				}
				img.Set(x, y, c)
			}
		}
		return img
	}
	in := screenOf(node("0.0", label, rect(40, 120, 400, 180), text("Ridge loop")))
	light, dark := in, in
	light.Pixels = paint(color.RGBA{255, 255, 255, 255}, color.RGBA{0, 0, 0, 255})
	dark.Pixels = paint(color.RGBA{18, 20, 14, 255}, color.RGBA{60, 60, 60, 255})
	base, err := Run(light)
	if err != nil || len(base) != 0 {
		t.Fatalf("light: %+v %v", base, err)
	}
	got, err := NightContrast(base, dark)
	if err != nil || len(got) != 1 || got[0].Check != CheckDarkTextContrast || got[0].Condition != ConditionNight ||
		!strings.HasPrefix(got[0].Message, "In the dark theme: ") || !strings.HasSuffix(got[0].Key, "|night") {
		t.Fatalf("night: %+v %v", got, err)
	}
	// A flaw both themes have is the static audit's finding, not reported twice.
	if again, err := NightContrast(got[:0:0], dark); err != nil || len(again) != 1 {
		t.Fatalf("%+v %v", again, err)
	}
	staticToo, _ := Run(dark)
	if again, err := NightContrast(staticToo, dark); err != nil || len(again) != 0 {
		t.Fatalf("reported twice: %+v %v", again, err)
	}
}

func TestDynamicBadInput(t *testing.T) {
	good := screenOf(node("0.0", label, rect(40, 120, 400, 180), text("x")))
	bad := good
	bad.DensityDPI = 0
	for _, f := range []func(a, b Input) ([]Finding, error){TextScaling, LocaleText} {
		if _, err := f(good, bad); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "changed screen") {
			t.Errorf("bad changed screen: %v", err)
		}
		if _, err := f(bad, good); !errors.Is(err, ErrBadInput) {
			t.Errorf("bad base: %v", err)
		}
	}
}

// The simulated demo follows Android's rules (sp text, mirrored layouts, a dark
// palette of its own): the dynamic checks match its texts across the settings and
// find nothing the static audit does not.
func TestDynamicOnTheDemo(t *testing.T) {
	sc := demoScenario(t)
	se := sc.NewSession()
	under := func(d scenario.Display) Input {
		se.SetDisplay(d)
		return screenInput(t, sc, se)
	}
	base := under(scenario.Display{})
	big, dark, rtl := under(scenario.Display{FontScale: DynamicFontScale}), under(scenario.Display{Night: true}), under(scenario.Display{RTL: true})
	if n := len(matchTextNodes(base.Nodes, big.Nodes)); n < 10 {
		t.Fatalf("only %d texts followed to font scale 2", n)
	}
	grew := 0
	for _, p := range matchTextNodes(base.Nodes, big.Nodes) {
		if big.Nodes[p[1]].Bounds.Height() > base.Nodes[p[0]].Bounds.Height() {
			grew++
		}
	}
	if grew == 0 {
		t.Fatal("no text grew at font scale 2")
	}
	light, err := Run(base)
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func() ([]Finding, error){
		"font":  func() ([]Finding, error) { return TextScaling(base, big) },
		"night": func() ([]Finding, error) { return NightContrast(light, dark) },
		"rtl":   func() ([]Finding, error) { return LocaleText(base, rtl) },
	} {
		if got, err := f(); err != nil || len(got) != 0 {
			t.Errorf("%s: %+v %v", name, got, err)
		}
	}
}

// A finding is drawn on the screen the user froze: it carries the node's bounds
// there, not where the changed screen put it.
func TestDynamicFindingsSitOnTheFrozenScreen(t *testing.T) {
	base := screenOf(node("0.0", frame, rect(0, 100, 1080, 400)),
		node("0.0.0", label, rect(653, 120, 837, 180), text("Saved")))
	moved := screenOf(node("0.0", frame, rect(0, 100, 1080, 400)),
		node("0.0.0", label, rect(890, 120, 1027, 180), text("Saved")))
	for name, run := range map[string]func() ([]Finding, error){
		"text_scaling": func() ([]Finding, error) { return TextScaling(base, moved) },
		"locale_text":  func() ([]Finding, error) { return LocaleText(base, moved) },
	} {
		got, err := run()
		if err != nil || len(got) != 1 {
			t.Fatalf("%s: %+v, %v", name, got, err)
		}
		if want := rect(653, 120, 837, 180); got[0].Bounds != want {
			t.Errorf("%s: bounds %+v, want the frozen screen's %+v", name, got[0].Bounds, want)
		}
	}
}
