package audit

import (
	"fmt"
	"testing"

	"fixthis/sim/scenario"
)

// demoScenario is the simulated demo app.
func demoScenario(t *testing.T) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Load("demo")
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// screenInput is the audit input of what se shows now, pixels and all, at the
// density of sc's phone.
func screenInput(t *testing.T, sc *scenario.Scenario, se *scenario.Session) Input {
	t.Helper()
	in, err := ReadDump(se.UIAutomatorXML())
	if err != nil {
		t.Fatal(err)
	}
	in.DensityDPI, in.Pixels = sc.Device.Density, se.Frame()
	return in
}

// TestDemoFlaws audits the simulated demo app, pixels and all, and finds the flaws
// its source keeps on purpose (examples/trailhead/README.md, "Accessibility flaws")
// with their measured and required values.
func TestDemoFlaws(t *testing.T) {
	sc := demoScenario(t)
	list := sc.NewSession()
	detail := sc.NewSession()
	for _, n := range detail.SidekickNodes() {
		if n.TestTag == "trail_card_0" {
			detail.Tap((n.Bounds.Left+n.Bounds.Right)/2, (n.Bounds.Top+n.Bounds.Bottom)/2)
		}
	}
	if detail.State().ScreenID != "detail" {
		t.Fatalf("the first card opened %q, not the detail screen", detail.State().ScreenID)
	}
	type want struct{ check, severity, label, measured, required string }
	for _, c := range []struct {
		name    string
		session *scenario.Session
		wants   []want
	}{
		{"trail list", list, []want{
			{CheckTouchTarget, SeverityError, "search_button", "36×36 dp", "48×48 dp"},
			{CheckTouchTarget, SeverityError, "account_avatar", "40×40 dp", "48×48 dp"},
			{CheckTouchTarget, SeverityError, "filter_nearby", "76×32 dp", "48×48 dp"},
			{CheckTextContrast, SeverityWarning, "Good morning, Sam", "contrast 2.88:1 (#949494 on #F9FAEF)", "3.00:1 for any text (4.50:1 under 18 sp)"},
		}},
		{"trail detail", detail, []want{
			{CheckSpeakableText, SeverityError, "share_button", "no text, content description or labelled child", "a spoken label"},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := screenInput(t, sc, c.session)
			findings, err := Run(in)
			if err != nil {
				t.Fatal(err)
			}
			// The dump names a node by text, or by test tag where the screen exports
			// tags as resource ids; the sidekick's tree carries every tag, so it names
			// the rest by their bounds.
			tags := map[[4]int]string{}
			for _, n := range c.session.SidekickNodes() {
				tags[[4]int{n.Bounds.Left, n.Bounds.Top, n.Bounds.Right, n.Bounds.Bottom}] = n.TestTag
			}
			label := map[string]string{}
			for _, n := range in.Nodes {
				b := n.Bounds
				label[n.UID] = n.Text
				if tag := tags[[4]int{b.Left, b.Top, b.Right, b.Bottom}]; n.Text == "" && tag != "" {
					label[n.UID] = tag
				}
			}
			for _, w := range c.wants {
				var seen []string
				found := false
				for _, f := range findings {
					if f.Check == w.check && label[f.NodeUID] == w.label {
						found = f.Severity == w.severity && f.Measured == w.measured && f.Required == w.required
						seen = append(seen, fmt.Sprintf("%s %q needs %q", f.Severity, f.Measured, f.Required))
					}
				}
				if !found {
					t.Errorf("%s on %s: want %s %q needs %q, got %v", w.check, w.label, w.severity, w.measured, w.required, seen)
				}
			}
		})
	}
}
