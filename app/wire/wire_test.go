package wire

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

const generatedDir = "../../frontend/src/lib/"

// The checked-in console types must be what the Go types say: run
// `go generate ./app/wire` after changing a type that travels to the console.
func TestGeneratedTypesAreCurrent(t *testing.T) {
	files, err := TypeScript(Console, MainFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 2 {
		t.Fatalf("got %d files, want the main one and the store's", len(files))
	}
	for _, f := range files {
		path := generatedDir + f.Name + ".ts"
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("read %s: %v (run go generate ./app/wire)", path, err)
		}
		if string(got) != f.Text {
			t.Fatalf("%s is stale: run `go generate ./app/wire`", path)
		}
		if n := strings.Count(f.Text, "\n"); n > 500 {
			t.Errorf("%s has %d lines; split another package off", path, n)
		}
	}
}

func TestEveryEventAndCodeIsInTheContract(t *testing.T) {
	files, err := TypeScript(Console, MainFile)
	if err != nil {
		t.Fatal(err)
	}
	ts := ""
	for _, f := range files {
		ts += f.Text
	}
	for _, want := range []string{`"preview-ready"`, `"devices-updated"`, `"session_closed"`, `"device_not_available"`, "export interface Snapshot {"} {
		if !strings.Contains(ts, want) {
			t.Errorf("generated types lack %s", want)
		}
	}
}

func TestNameClashIsAnError(t *testing.T) {
	type A struct{ X int }
	type B struct{ Y int }
	c := Contract{Roots: []reflect.Type{typeOf[A](), typeOf[B]()}, Names: map[reflect.Type]string{typeOf[B](): "A"}}
	if _, err := TypeScript(c, "main"); err == nil {
		t.Fatal("two types named A were accepted")
	}
}
