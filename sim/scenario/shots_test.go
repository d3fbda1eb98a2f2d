package scenario

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteScreenshots saves a PNG of every demo state to $SCENARIO_SHOTS_DIR
// (skipped when unset), for eyeballing the demo app after layout changes.
func TestWriteScreenshots(t *testing.T) {
	dir := os.Getenv("SCENARIO_SHOTS_DIR")
	if dir == "" {
		t.Skip("set SCENARIO_SHOTS_DIR to write demo screenshots")
	}
	for name, se := range demoStates(t) {
		f, err := os.Create(filepath.Join(dir, "demo-"+name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		if err := png.Encode(f, se.Frame()); err != nil {
			t.Fatal(err)
		}
		f.Close()
		os.WriteFile(filepath.Join(dir, "demo-"+name+".xml"), se.UIAutomatorXML(), 0o644)
	}
}
