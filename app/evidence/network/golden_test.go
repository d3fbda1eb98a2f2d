package network_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"fixthis/app/evidence"
	"fixthis/app/evidence/network"
	"fixthis/internal/golden"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.json from the current parser output")

// TestSamplesGolden reads every sample log the way the collector does
// (redacted first) and compares the requests with the golden reading.
func TestSamplesGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.log"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no samples: %v", err)
	}
	for _, p := range files {
		t.Run(filepath.Base(p), func(t *testing.T) {
			raw, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			golden.JSON(t, filepath.Base(p), network.Parse(evidence.Redact(string(raw))), *update)
		})
	}
}
