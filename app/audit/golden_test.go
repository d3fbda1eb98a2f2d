package audit

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.findings.json from the current checks (check each change by hand first)")

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
// with testdata/<dump>.findings.json, each checked by hand against ATF's rules.
func TestGoldenFindings(t *testing.T) {
	for _, g := range goldenDumps {
		name := strings.TrimSuffix(filepath.Base(g.path), ".xml")
		t.Run(name, func(t *testing.T) {
			got := auditFile(t, g.path, g.dpi)
			golden := filepath.Join("testdata", name+".findings.json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./app/audit -run Golden -update, then check the file by hand)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("findings differ from %s:\n%s", golden, got)
			}
		})
	}
}

func auditFile(t *testing.T, path string, dpi int) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	in, err := ReadDump(data)
	if err != nil {
		t.Fatal(err)
	}
	in.DensityDPI = dpi
	findings, err := Run(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.MarshalIndent(map[string]any{"findings": findings}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}
