package display_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixthis/app/display"
	"fixthis/app/errcode"
)

// Each preset reaches at least its dp target, with about the panel's pixel count,
// and a size the phone's limits cannot take is refused with the numbers.
func TestPresetPlan(t *testing.T) {
	for _, c := range []struct {
		name           string
		p              display.Preset
		physW, physH   int
		w, h, density  int
		wantErr        string
		wantWdp, minHd int
	}{
		{"phone on a Pixel 7a", display.Presets[0], 1080, 2400, 1092, 2367, 425, "", 411, 891},
		{"foldable on a Pixel 7a", display.Presets[1], 1080, 2400, 1439, 1798, 342, "", 673, 841},
		{"tablet on a Pixel 7a", display.Presets[2], 1080, 2400, 2032, 1270, 254, "", 1280, 800},
		{"tablet on a small 480x800 phone", display.Presets[2], 480, 800, 776, 485, 97, "", 1280, 800},
		{"custom with its own density", display.Preset{Name: "custom", WidthDp: 600, HeightDp: 960, Density: 320}, 1080, 2400, 1200, 1920, 320, "", 600, 960},
		{"custom over three times the panel", display.Preset{Name: "custom", WidthDp: 4000, HeightDp: 4000, Density: 640}, 1080, 2400, 0, 0, 0, "cannot show custom", 0, 0},
		{"a tiny custom needs sides under 200 px", display.Preset{Name: "custom", WidthDp: 50, HeightDp: 50, Density: 160}, 1080, 2400, 0, 0, 0, "200 to 2160×4800 px", 0, 0},
		{"wider than twice the panel's width (Android 10 and earlier clamp it)", display.Preset{Name: "custom", WidthDp: 1400, HeightDp: 800, Density: 320}, 1080, 2400, 0, 0, 0, "cannot show custom", 0, 0},
		{"density 0 given as a custom density is choosing", display.Preset{Name: "custom", WidthDp: 500, HeightDp: 800}, 1080, 2400, 0, 0, 0, "", 500, 800},
		{"a density under 72", display.Preset{Name: "custom", WidthDp: 500, HeightDp: 800, Density: 40}, 1080, 2400, 0, 0, 0, "density 40 is out of range", 0, 0},
		{"no width", display.Preset{Name: "custom", HeightDp: 800}, 1080, 2400, 0, 0, 0, "out of range", 0, 0},
		{"a megabyte of dp", display.Preset{Name: "custom", WidthDp: 1 << 30, HeightDp: 800}, 1080, 2400, 0, 0, 0, "want 1 to 4000 dp", 0, 0},
		{"a phone that reports no size", display.Presets[0], 0, 0, 0, 0, 0, "no display size", 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			plan, err := c.p.Plan(c.physW, c.physH)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.w != 0 && (plan.Width != c.w || plan.Height != c.h || plan.Density != c.density) {
				t.Errorf("plan %v, want %dx%d at %d dpi", plan, c.w, c.h, c.density)
			}
			if plan.WidthDp < c.wantWdp || plan.HeightDp < c.minHd || plan.WidthDp > c.wantWdp+1 {
				t.Errorf("apps measure %d×%d dp, want %d×%d", plan.WidthDp, plan.HeightDp, c.wantWdp, c.minHd)
			}
		})
	}
	if _, ok := display.PresetNamed("Tablet"); !ok {
		t.Error("PresetNamed should ignore case")
	}
}

// A preset changes `wm size` and `wm density` on the phone, the app lays out for
// the new width, and ResetSize and Restore put back exactly what was there, from
// the same originals file the display settings use.
func TestSetSizeOnThePhone(t *testing.T) {
	ctx := context.Background()
	p := startPhone(t)
	path := filepath.Join(t.TempDir(), "display-originals.json")
	m, err := display.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.h.Shell(ctx, "wm density 400"); err != nil {
		t.Fatal(err)
	}
	st, plan, err := m.SetSize(ctx, p.target(), display.Presets[2])
	if err != nil {
		t.Fatal(err)
	}
	if st.WidthDp < 1280 || st.HeightDp < 800 || !st.Changed || plan.Width != st.Width {
		t.Errorf("tablet: %+v, plan %v", st, plan)
	}
	if _, ok := p.nodes(t)["detail_pane"]; !ok {
		t.Error("at 1280 dp the demo should show its detail pane")
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("originals file: %v %v", fi, err)
	}
	if _, _, err := m.SetSize(ctx, p.target(), display.Presets[0]); err != nil {
		t.Fatal(err)
	}
	if _, ok := p.nodes(t)["detail_pane"]; ok {
		t.Error("at 411 dp the demo should show the list alone")
	}
	st, restored, err := m.ResetSize(ctx, p.target())
	if err != nil || !restored {
		t.Fatalf("reset: %v %v", restored, err)
	}
	if st.Width != 1080 || st.Height != 2400 || st.Density != 400 {
		t.Errorf("after reset: %+v, want 1080x2400 at the user's own 400 dpi", st)
	}
	// Only the size had changed: with it back, the phone shows its own settings and
	// nothing is left to restore.
	if st.Changed || m.Changed(p.Serial()) {
		t.Errorf("after reset the phone still reads as changed: %+v", st)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the originals file should be gone after a reset of a size-only change: %v", err)
	}
	// A setting changed beside the size stays kept after the reset, for Restore.
	night := true
	if _, _, err := m.SetSize(ctx, p.target(), display.Presets[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Set(ctx, p.target(), display.Change{Night: &night}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := m.ResetSize(ctx, p.target()); err != nil || !m.Changed(p.Serial()) {
		t.Fatalf("reset beside a dark theme: %v, still kept %v; want kept", err, m.Changed(p.Serial()))
	}
	if ok, err := m.Restore(ctx, p.target()); err != nil || !ok {
		t.Fatalf("restore after the dark theme: %v %v", ok, err)
	}

	// Refusals change nothing, and the phone still reads as before.
	for _, bad := range []display.Preset{
		{Name: "custom", WidthDp: 4000, HeightDp: 4000, Density: 2000},
		{Name: "custom", WidthDp: 500, HeightDp: 800, Density: -1},
	} {
		if _, _, err := m.SetSize(ctx, p.target(), bad); errcode.Of(err) != errcode.OutOfRange {
			t.Errorf("%+v: %v, want OUT_OF_RANGE", bad, err)
		}
	}
	if _, _, err := m.SetSize(ctx, p.target(), display.Presets[1]); err != nil {
		t.Fatal(err)
	}
	if ok, err := m.Restore(ctx, p.target()); err != nil || !ok {
		t.Fatalf("restore: %v %v", ok, err)
	}
	out, _ := p.h.Shell(ctx, "wm size; wm density")
	if got := string(out.Stdout); got != "Physical size: 1080x2400\nPhysical density: 420\nOverride density: 400\n" {
		t.Errorf("after restore: %q", got)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the originals file should be gone after restore: %v", err)
	}
}

// A crash after a size change: the next start's Restore puts the size back from
// the file. A file written before sizes were kept has no size, and its Restore
// leaves the phone's size alone rather than reset one the user set.
func TestSizeRestoredAfterACrash(t *testing.T) {
	ctx := context.Background()
	p := startPhone(t)
	path := filepath.Join(t.TempDir(), "display-originals.json")
	// restoreAtStart is the next start's Restore from what the file keeps; the
	// phone's `wm size` then reads want.
	restoreAtStart := func(what, want string) {
		t.Helper()
		next, err := display.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := next.Restore(ctx, p.target()); err != nil || !ok {
			t.Fatalf("restore %s: %v %v", what, ok, err)
		}
		if out, _ := p.h.Shell(ctx, "wm size"); string(out.Stdout) != want {
			t.Errorf("%s: wm size %q, want %q", what, out.Stdout, want)
		}
	}
	crashed, err := display.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := crashed.SetSize(ctx, p.target(), display.Presets[1]); err != nil {
		t.Fatal(err)
	}
	restoreAtStart("after the crashed run", "Physical size: 1080x2400\n")

	if _, err := p.h.Shell(ctx, "wm size 1200x2400"); err != nil {
		t.Fatal(err)
	}
	old := `{"version":1,"devices":{"` + p.Serial() + `":{"nightMode":"no","fontScale":"1.0","densityOverride":0,"physicalDensity":420,"animation":{}}}}`
	if err := os.WriteFile(path, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	restoreAtStart("from an older file, keeping the user's own size", "Physical size: 1080x2400\nOverride size: 1200x2400\n")
}
