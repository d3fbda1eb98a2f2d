package wire

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

const generated = "../../frontend/src/lib/wire.gen.ts"

// The checked-in console types must be what the Go types say: run
// `go generate ./app/wire` after changing a type that travels to the console.
func TestGeneratedTypesAreCurrent(t *testing.T) {
	want, err := TypeScript(Console)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(generated)
	if err != nil {
		t.Fatalf("read %s: %v (run go generate ./app/wire)", generated, err)
	}
	if string(got) != want {
		t.Fatalf("%s is stale: run `go generate ./app/wire`", generated)
	}
}

func TestEveryEventAndCodeIsInTheContract(t *testing.T) {
	ts, err := TypeScript(Console)
	if err != nil {
		t.Fatal(err)
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
	if _, err := TypeScript(c); err == nil {
		t.Fatal("two types named A were accepted")
	}
}
