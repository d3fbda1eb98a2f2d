package cli

import (
	"encoding/json"
	"os"
	"runtime"
	"strings"
	"testing"
)

func TestVersionJSON(t *testing.T) {
	code, out, errOut := run(t, nil, "version", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var v versionInfo
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	if v.Version != "9.9.9" || v.GoVersion != runtime.Version() || v.Platform != runtime.GOOS+"/"+runtime.GOARCH {
		t.Fatalf("got %+v", v)
	}
	// The test binary is built without the desktop tag, so Wails is not linked and
	// must not be reported.
	if v.Wails != "" {
		t.Fatalf("wails %q reported for a binary that does not link it", v.Wails)
	}
}

// TestManPageListsEveryCommand keeps the packaged man page in step with the command
// table: a command added without documentation fails here.
func TestManPageListsEveryCommand(t *testing.T) {
	page, err := os.ReadFile("../build/linux/fixthis.1")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range commands() {
		entry := ".B " + strings.ReplaceAll(c.name, "-", `\-`) + "\n"
		if !strings.Contains(string(page), ".TP\n"+entry) {
			t.Errorf("build/linux/fixthis.1 has no entry for %q under COMMANDS (want a line %q)", c.name, strings.TrimSpace(entry))
		}
	}
}
