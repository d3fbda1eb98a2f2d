package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"strings"
	"testing"

	"fixthis/app/agentdevice"
	"fixthis/app/store"
	"fixthis/capture"
	"fixthis/sim/scenario"
)

// demoDevice keeps the simulated demo phone's current screen as a capture, the way
// agentdevice.Phone keeps a real one, and reads its density like `wm density`.
type demoDevice struct {
	st      *store.Store
	se      *scenario.Session
	density int
}

// newDemoDevice is the demo app on a fresh simulated phone with the scenario fixes
// named applied, keeping its captures in s.
func newDemoDevice(t testing.TB, s *store.Store, fixes ...string) demoDevice {
	t.Helper()
	sc, err := scenario.Load("demo")
	if err != nil {
		t.Fatal(err)
	}
	for _, fix := range fixes {
		if err := sc.ApplyFix(fix); err != nil {
			t.Fatal(err)
		}
	}
	return demoDevice{st: s, se: sc.NewSession(), density: sc.Device.Density}
}

func (d demoDevice) Capture(ctx context.Context, serial string) (*agentdevice.Capture, error) {
	nodes, err := capture.ParseDump(d.se.UIAutomatorXML())
	if err != nil {
		return nil, err
	}
	nodesJSON, _ := json.Marshal(nodes)
	var buf bytes.Buffer
	frame := d.se.Frame()
	if err := png.Encode(&buf, frame); err != nil {
		return nil, err
	}
	b := frame.Bounds()
	kept, err := d.st.SaveCapture(ctx, store.CaptureInput{Serial: "emulator-5554", Package: "com.fixthis.demo",
		Activity: ".MainActivity", Fingerprint: "f", Width: b.Dx(), Height: b.Dy(), PNG: buf.Bytes(), NodesJSON: nodesJSON})
	if err != nil {
		return nil, err
	}
	return &agentdevice.Capture{CaptureID: kept.CaptureID, Serial: "emulator-5554", Width: b.Dx(), Height: b.Dy()}, nil
}

func (d demoDevice) DisplayDensity(context.Context, string) (int, error) { return d.density, nil }

func (d demoDevice) Act(context.Context, string, agentdevice.Action) (*agentdevice.ActionResult, error) {
	return nil, nil
}

func (d demoDevice) WaitForScreen(context.Context, string, agentdevice.ScreenCondition) (*agentdevice.WaitResult, error) {
	return nil, nil
}

// withoutDensity is the same phone behind a device layer that cannot read the density.
type withoutDensity struct{ Device }

func TestAuditScreenOnTheDemo(t *testing.T) {
	s := openStore(t, t.TempDir())
	dev := newDemoDevice(t, s)
	c := newClient(t, Deps{Store: s, Device: dev})

	var out auditOut
	if res := call(t, c, "fixthis_audit_screen", nil, &out); res.IsError {
		t.Fatalf("audit failed: %s", text(res))
	}
	if out.CaptureID == "" || out.DensityDPI != 420 || !out.ContrastChecked {
		t.Fatalf("answer %+v", out)
	}
	// The demo's documented flaws (examples/trailhead/README.md), with the values an
	// agent reads: the 36 dp search button and the 2.88:1 greeting.
	found := map[string]bool{}
	for _, f := range out.Findings {
		found[f.Check+" "+f.Measured+" needs "+f.Required] = true
		if f.Key == "" || f.NodeUID == "" || f.Message == "" || f.Suggestion == "" {
			t.Errorf("incomplete finding %+v", f)
		}
	}
	for _, want := range []string{
		"touch_target 36×36 dp needs 48×48 dp",
		"touch_target 40×40 dp needs 48×48 dp",
		"text_contrast contrast 2.88:1 (#949494 on #F9FAEF) needs 3.00:1 for any text (4.50:1 under 18 sp)",
	} {
		if !found[want] {
			t.Errorf("no finding %q in %v", want, found)
		}
	}

	// A kept capture audits the same, by id, and needs no device.
	var again auditOut
	if res := call(t, newClient(t, Deps{Store: s}), "fixthis_audit_screen", map[string]any{"captureId": out.CaptureID, "density": 420}, &again); res.IsError {
		t.Fatalf("audit by id failed: %s", text(res))
	}
	if len(again.Findings) != len(out.Findings) || again.Findings[0] != out.Findings[0] {
		t.Errorf("the kept capture audits differently: %d vs %d findings", len(again.Findings), len(out.Findings))
	}

	for _, c := range []struct {
		name string
		deps Deps
		args map[string]any
		want string
	}{
		{"unknown density", Deps{Store: s, Device: withoutDensity{dev}}, nil, "INVALID_INPUT: the density of capture"},
		{"kept capture, no density", Deps{Store: s}, map[string]any{"captureId": out.CaptureID}, "density of capture"},
		{"no such capture", Deps{Store: s}, map[string]any{"captureId": "c-nope", "density": 420}, "CAPTURE_NOT_FOUND"},
		{"density out of range", Deps{Store: s}, map[string]any{"captureId": out.CaptureID, "density": 5}, "density"},
		{"no device layer", Deps{Store: s}, nil, "no device layer in this process"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := call(t, newClient(t, c.deps), "fixthis_audit_screen", c.args, nil)
			if !res.IsError || !strings.Contains(text(res), c.want) {
				t.Fatalf("got %v %q, want an error saying %q", res.IsError, text(res), c.want)
			}
		})
	}
}
