package source_test

import (
	"context"
	"flag"
	"testing"

	"fixthis/app/source"
	"fixthis/internal/golden"
)

var updateDemoIndex = flag.Bool("update-demo-index", false, "rewrite the demo APK's source index from examples/trailhead")

// demoIndexFile is the source index the simulated demo app's APK carries: the
// export of examples/trailhead in the Gradle plugin's schema 1.3, standing in for
// the plugin's build step.
const demoIndexFile = "../../sim/scenario/demo/" + source.SourceIndexFileName

// TestDemoAPKSourceIndexIsCurrent: the demo APK's index is what the export of
// examples/trailhead gives now, and reads back as a schema-1.3 index.
func TestDemoAPKSourceIndexIsCurrent(t *testing.T) {
	idx, err := source.Build(context.Background(), "../../examples/trailhead")
	if err != nil {
		t.Fatal(err)
	}
	want, err := source.MarshalAppIndex(idx.ExportAppIndex(":app"))
	if err != nil {
		t.Fatal(err)
	}
	golden.File(t, demoIndexFile, want, *updateDemoIndex, "-update-demo-index")
	ai, err := source.ParseAppIndex(want)
	if err != nil || len(ai.Entries) < 50 {
		t.Fatalf("parse: %v (%d entries)", err, len(ai.Entries))
	}
}
