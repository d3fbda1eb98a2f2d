package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"fixthis/internal/golden"
)

// TestToolSnapshots pins every tool's schema and annotations. Regenerate
// with UPDATE_TOOLSNAPS=1 go test ./app/mcp/ after an intended change; a
// missing snapshot fails so a new tool cannot ship unreviewed.
func TestToolSnapshots(t *testing.T) {
	update := os.Getenv("UPDATE_TOOLSNAPS") == "1"
	tools := Tools(Deps{Store: openStore(t, t.TempDir())})
	seen := map[string]bool{}
	for _, st := range tools {
		tool := st.Tool
		t.Run(tool.Name, func(t *testing.T) {
			if seen[tool.Name] {
				t.Fatalf("duplicate tool %s", tool.Name)
			}
			seen[tool.Name] = true
			a := tool.Annotations
			if a.ReadOnlyHint == nil || a.DestructiveHint == nil || a.IdempotentHint == nil || a.OpenWorldHint == nil || a.Title == "" {
				t.Fatalf("annotations incomplete: %+v", a)
			}
			if *a.ReadOnlyHint && *a.DestructiveHint {
				t.Fatal("a read-only tool cannot be destructive")
			}
			if tool.Description == "" || tool.OutputSchema.Type != "object" {
				t.Fatal("missing description or output schema")
			}
			got, err := json.MarshalIndent(tool, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden.File(t, filepath.Join("testdata", "toolsnaps", tool.Name+".snap"), append(got, '\n'), update, "UPDATE_TOOLSNAPS=1")
		})
	}
	// A snapshot without a tool is a removed tool nobody cleaned up.
	files, _ := filepath.Glob(filepath.Join("testdata", "toolsnaps", "*.snap"))
	for _, f := range files {
		if name := filepath.Base(f); !seen[name[:len(name)-len(".snap")]] {
			t.Errorf("snapshot %s has no tool", name)
		}
	}
}
