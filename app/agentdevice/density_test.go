package agentdevice

import (
	"context"
	"testing"

	"fixthis/app/display"
)

// The density comes from the simulated phone's `wm density`, override included.
func TestDisplayDensity(t *testing.T) {
	e := newSimEnv(t)
	ctx := context.Background()
	o := e.options()
	if d, err := New(o).DisplayDensity(ctx, ""); d != 0 || err != nil {
		t.Fatalf("without a display manager: %d, %v; want 0 so the caller asks", d, err)
	}
	o.Display = openDisplay(t)
	p := New(o)
	if d, err := p.DisplayDensity(ctx, ""); d != 420 || err != nil {
		t.Fatalf("density %d, %v; want the demo phone's 420", d, err)
	}
	e.allowControl(t)
	dense := 360
	if _, err := p.SetDisplay(ctx, "", display.Change{Density: &dense}); err != nil {
		t.Fatal(err)
	}
	if d, err := p.DisplayDensity(ctx, ""); d != 360 || err != nil {
		t.Fatalf("density %d, %v; want the 360 override", d, err)
	}
	if _, err := p.RestoreDisplay(ctx, ""); err != nil {
		t.Fatal(err)
	}
}
