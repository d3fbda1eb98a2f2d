package agentdevice

import (
	"context"
	"path/filepath"
	"testing"

	"fixthis/app/display"
)

// The density comes from the simulated phone's `wm density`, override included.
func TestDisplayDensity(t *testing.T) {
	e := newSimEnv(t)
	ctx := context.Background()
	serial := e.dev.Serial()
	pick := func(context.Context, string) (Target, error) { return Target{Serial: serial}, nil }
	if d, err := New(Options{ADB: e.client, Store: e.st, Pick: pick}).DisplayDensity(ctx, ""); d != 0 || err != nil {
		t.Fatalf("without a display manager: %d, %v; want 0 so the caller asks", d, err)
	}
	m, err := display.Open(filepath.Join(t.TempDir(), "display-originals.json"))
	if err != nil {
		t.Fatal(err)
	}
	p := New(Options{ADB: e.client, Store: e.st, Display: m, Pick: pick})
	if d, err := p.DisplayDensity(ctx, ""); d != 420 || err != nil {
		t.Fatalf("density %d, %v; want the demo phone's 420", d, err)
	}
	if err := SetControl(ctx, e.st, serial, true); err != nil {
		t.Fatal(err)
	}
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
