// Package golden compares what a test produces with a file checked in beside it:
// a parser's reading of a real device output, a rendered handoff, the exact message
// sent on a connection. A deliberate change is accepted by rerunning the test with the
// package's update switch, which rewrites the file; the diff then shows in review.
// Only tests import it.
package golden

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// UpdateFlag is the switch most packages use: go test -update. Passed as how, it is
// quoted in the failure so the developer knows what to run.
const UpdateFlag = "-update"

// File compares got with the file at path, or writes got there when update is set.
// how names the switch that sets update in the calling package (UpdateFlag,
// "UPDATE_GOLDEN=1"): a missing or different file fails and says how to accept it.
func File(t testing.TB, path string, got []byte, update bool, how string) {
	t.Helper()
	if update {
		// A new golden folder (a first tool snapshot) is made on the first update.
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with %s to write it)", err, how)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (check the change, then run the test with %s to accept it)\n%s",
			path, how, firstDifference(got, want))
	}
}

// JSON compares v, as indented JSON ending in a line end, with
// testdata/<name>.golden.json, or rewrites that file when update (-update) is set.
func JSON(t testing.TB, name string, v any, update bool) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	File(t, filepath.Join("testdata", name+".golden.json"), append(b, '\n'), update, UpdateFlag)
}

// firstDifference names the first line where got and want part, with both versions
// of it quoted (a missing line end or a NUL byte shows): a whole uiautomator dump's
// reading is too long to print in a failure.
func firstDifference(got, want []byte) string {
	gotLines, wantLines := bytes.SplitAfter(got, []byte("\n")), bytes.SplitAfter(want, []byte("\n"))
	i := 0
	for i < len(gotLines) && i < len(wantLines) && bytes.Equal(gotLines[i], wantLines[i]) {
		i++
	}
	return fmt.Sprintf("line %d:\n got: %s\nwant: %s", i+1, shown(gotLines, i), shown(wantLines, i))
}

// shown is lines[i] shortened to what a failure message can carry.
func shown(lines [][]byte, i int) string {
	const most = 300
	switch {
	case i >= len(lines) || len(lines[i]) == 0:
		return "(past the end)"
	case len(lines[i]) > most:
		return fmt.Sprintf("%q…", lines[i][:most])
	}
	return fmt.Sprintf("%q", lines[i])
}
