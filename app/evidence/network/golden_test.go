package network_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"fixthis/app/evidence"
	"fixthis/app/evidence/network"
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
			got, err := json.MarshalIndent(network.Parse(evidence.Redact(string(raw))), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := p + ".golden.json"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if string(got) != string(want) {
				t.Errorf("reading changed:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
