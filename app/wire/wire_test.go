package wire

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"fixthis/app/events"
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
	for _, want := range []string{`"preview-ready"`, `"devices-updated"`, `"session_closed"`, `"device_not_available"`, "export interface Snapshot {",
		`"preview-ready": PreviewFrame;`, "export interface BatchRequest {"} {
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

// Every event on the bus has its Def in the contract, once and in the order of
// events.All, so the console's EventPayloads names every event the server sends.
func TestEveryEventHasItsPayload(t *testing.T) {
	var got []events.Type
	for _, d := range Console.Events {
		got = append(got, d.Type())
	}
	if !reflect.DeepEqual(got, events.All) {
		t.Fatalf("Console.Events = %v\nwant events.All = %v", got, events.All)
	}
}

func TestEventPayloads(t *testing.T) {
	type Ping struct {
		At string `json:"at"`
	}
	c := Contract{Events: []events.Descriptor{events.Define[Ping]("ping"), events.Define[events.Empty]("gone")}}
	files, err := TypeScript(c, "main")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"export interface EventPayloads {\n  \"ping\": Ping;\n  \"gone\": Empty;\n}\n",
		"export interface Ping {\n  at: string;\n}\n",
		"export type Empty = Record<string, never>;\n",
	} {
		if !strings.Contains(files[0].Text, want) {
			t.Errorf("generated text lacks\n%s\ngot\n%s", want, files[0].Text)
		}
	}
	c.Events = append(c.Events, events.Define[int]("ping"))
	if _, err := TypeScript(c, "main"); err == nil {
		t.Error("an event listed twice was accepted")
	}
}

// A named string type must say whether its values are a closed set: an Enum
// becomes a union of literals, an open string stays a string, and a type that
// is neither is an error rather than a silent `string`.
func TestNamedStringNeedsAnEnumOrToBeOpen(t *testing.T) {
	type Color string
	type Paint struct {
		Color Color `json:"color"`
	}
	roots := []reflect.Type{typeOf[Paint]()}
	if _, err := TypeScript(Contract{Roots: roots}, "main"); err == nil || !strings.Contains(err.Error(), "Contract.Enums") {
		t.Fatalf("an unlisted named string type was accepted: %v", err)
	}
	cases := []struct {
		name string
		c    Contract
		want string
	}{
		{"enum", Contract{Roots: roots, Enums: []Enum{{typeOf[Color](), []string{"red", "", "blue"}}}},
			"export type Color = (typeof ColorValues)[number];\n\nexport interface Paint {\n  color: Color;\n}\n"},
		{"open", Contract{Roots: roots, OpenStrings: []reflect.Type{typeOf[Color]()}},
			"export interface Paint {\n  color: string;\n}\n"},
	}
	for _, tc := range cases {
		files, err := TypeScript(tc.c, "main")
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !strings.Contains(files[0].Text, tc.want) {
			t.Errorf("%s: generated text lacks\n%s\ngot\n%s", tc.name, tc.want, files[0].Text)
		}
	}
}
