package audit

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixthis/internal/golden"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.json from the current checks (check each change by hand first)")

// goldenDumps are real uiautomator dumps with the density of the device that wrote
// them (testdata/README.md says how each density was worked out). The parser's own
// fixtures are read where they live, in capture/testdata.
var goldenDumps = []struct {
	path string
	dpi  int
}{
	{"../../capture/testdata/ManishAradwad__pocket-financer-android__window_dump.xml", 420},
	{"../../capture/testdata/CaAlO22__LingBook-Android__window_dump.xml", 427},
	{"../../capture/testdata/CaAlO22__LingBook-Android__window_dump2.xml", 427},
	{"../../capture/testdata/Makesoft-io__hazel__ui_test_inside_profiles.xml", 320},
	{"../../capture/testdata/dtmilano__AndroidViewClient__uiautomator_dump_api27.xml", 420},
	{"../../capture/testdata/kram1k__android_avito_parsing__search_hierarchy.xml", 480},
	{"testdata/dtmilano__AndroidViewClient__uiautomator_dump_api17_chinese.xml", 213},
	{"testdata/HarnessTeam__Nora__window_dump.xml", 420},
	{"testdata/ImL1s__termux-flutter-ide__window_dump.xml", 420},
}

// TestGoldenFindings runs every check on each real dump and compares the findings
// with testdata/<dump>.golden.json, each checked by hand against ATF's rules.
func TestGoldenFindings(t *testing.T) {
	for _, g := range goldenDumps {
		name := strings.TrimSuffix(filepath.Base(g.path), ".xml")
		t.Run(name, func(t *testing.T) {
			golden.JSON(t, name, map[string]any{"findings": auditFile(t, g.path, g.dpi)}, *update)
		})
	}
}

// readDumpFile is the audit input of the dump file at path.
func readDumpFile(tb testing.TB, path string) Input {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	in, err := ReadDump(data)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return in
}

// auditFile is what every check finds on the dump at path, read at dpi.
func auditFile(t *testing.T, path string, dpi int) []Finding {
	t.Helper()
	in := readDumpFile(t, path)
	in.DensityDPI = dpi
	findings, err := Run(in)
	if err != nil {
		t.Fatal(err)
	}
	return findings
}
