package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// recorder stands in for the testing.TB a golden check runs under, so this test can
// read the failure a check gives instead of failing itself.
type recorder struct {
	testing.TB
	failure string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) { r.failure = fmt.Sprintf(format, args...) }

func (r *recorder) Fatalf(format string, args ...any) {
	r.failure = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Fatal(args ...any) {
	r.failure = fmt.Sprint(args...)
	runtime.Goexit()
}

// check runs File under a recorder and returns its failure, "" when it passed.
func check(t *testing.T, path string, got []byte, update bool) string {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		File(r, path, got, update, "UPDATE_X=1")
	}()
	<-done
	return r.failure
}

func TestFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "new", "out.golden") // the update makes the folder
	long := strings.Repeat("y", 1000)
	if f := check(t, path, []byte("a\nb\n"), false); !strings.Contains(f, "UPDATE_X=1 to write it") {
		t.Fatalf("missing file: failure %q, want it to say how to write the file", f)
	}
	if f := check(t, path, []byte("a\nb\n"), true); f != "" {
		t.Fatalf("update: %s", f)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "a\nb\n" {
		t.Fatalf("update wrote %q, %v", b, err)
	}
	for _, tt := range []struct {
		name, got string
		want      []string // in the failure; none: the check passes
	}{
		{"same", "a\nb\n", nil},
		{"second line", "a\nc\n", []string{"line 2:", ` got: "c\n"`, `want: "b\n"`, "UPDATE_X=1 to accept it", path}},
		{"one line more", "a\nb\nc\n", []string{"line 3:", ` got: "c\n"`, "want: (past the end)"}},
		{"no line end", "a\nb", []string{"line 2:", ` got: "b"`, `want: "b\n"`}},
		{"long line cut", "a\n" + long + "\n", []string{"line 2:", `"` + strings.Repeat("y", 300) + `"…`}},
		{"nul byte", "a\x00\nb\n", []string{"line 1:", ` got: "a\x00\n"`}},
	} {
		f := check(t, path, []byte(tt.got), false)
		if (f == "") != (tt.want == nil) {
			t.Errorf("%s: failure %q", tt.name, f)
		}
		for _, w := range tt.want {
			if !strings.Contains(f, w) {
				t.Errorf("%s: failure %q lacks %q", tt.name, f, w)
			}
		}
		if strings.Contains(f, strings.Repeat("y", 301)) {
			t.Errorf("%s: failure carries the whole long line", tt.name)
		}
	}
}
