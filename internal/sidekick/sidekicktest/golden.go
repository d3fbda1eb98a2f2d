// Package sidekicktest loads the golden bridge messages of internal/sidekick/testdata
// and compares messages with them, for the tests of both ends of the protocol: the
// host client (package capture) and the simulated device's demo app (sim/android).
package sidekicktest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// Path is the file name of a golden message in internal/sidekick/testdata.
func Path(name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata", name)
}

// Load reads a golden message.
func Load(name string) ([]byte, error) { return os.ReadFile(Path(name)) }

// Message reads a golden message, failing t when it cannot.
func Message(t testing.TB, name string) []byte {
	t.Helper()
	b, err := Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Equal reports how got differs from the golden JSON, as values (key order, spacing
// and 1080 against 1080.0 do not count); nil when they are the same.
func Equal(golden, got []byte) error {
	var a, b any
	if err := json.Unmarshal(golden, &a); err != nil {
		return fmt.Errorf("golden: %w", err)
	}
	if err := json.Unmarshal(got, &b); err != nil {
		return fmt.Errorf("got: %w", err)
	}
	if !reflect.DeepEqual(a, b) {
		return fmt.Errorf("got %s\nwant %s", compact(got), compact(golden))
	}
	return nil
}

func compact(b []byte) string {
	var v any
	_ = json.Unmarshal(b, &v)
	out, _ := json.Marshal(v)
	return string(out)
}

// SameShape reports where got does not have the golden message's shape: at every
// place (objects of a list count as one place), got's objects must carry every key
// that all the golden's objects there carry, no key the golden never shows there,
// and values of the same JSON kind. Lists empty on either side say nothing about
// their elements. A nil result means a reader of the golden reads got.
func SameShape(golden, got []byte) error {
	var a, b any
	if err := json.Unmarshal(golden, &a); err != nil {
		return fmt.Errorf("golden: %w", err)
	}
	if err := json.Unmarshal(got, &b); err != nil {
		return fmt.Errorf("got: %w", err)
	}
	want := map[string]*place{}
	learn(want, "$", a)
	var problems []string
	check(want, "$", b, &problems)
	if len(problems) > 0 {
		sort.Strings(problems)
		return fmt.Errorf("shape differs from the golden:\n  %s", strings.Join(problems, "\n  "))
	}
	return nil
}

// place is what the golden shows at one path.
type place struct {
	kinds    map[string]bool
	required map[string]bool // keys every object here carries
	allowed  map[string]bool // keys any object here carries
	objects  int
}

func kind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "bool"
	}
	return "null"
}

func learn(m map[string]*place, path string, v any) {
	p := m[path]
	if p == nil {
		p = &place{kinds: map[string]bool{}, required: map[string]bool{}, allowed: map[string]bool{}}
		m[path] = p
	}
	p.kinds[kind(v)] = true
	switch v := v.(type) {
	case map[string]any:
		if p.objects == 0 {
			for k := range v {
				p.required[k] = true
			}
		} else {
			for k := range p.required {
				if _, ok := v[k]; !ok {
					delete(p.required, k)
				}
			}
		}
		p.objects++
		for k, e := range v {
			p.allowed[k] = true
			learn(m, path+"."+k, e)
		}
	case []any:
		for _, e := range v {
			learn(m, path+"[]", e)
		}
	}
}

func check(m map[string]*place, path string, v any, problems *[]string) {
	p := m[path]
	if p == nil {
		return // an element of a list the golden leaves empty
	}
	if k := kind(v); !p.kinds[k] {
		*problems = append(*problems, fmt.Sprintf("%s: %s, golden has %v", path, k, keys(p.kinds)))
		return
	}
	switch v := v.(type) {
	case map[string]any:
		for k := range p.required {
			if _, ok := v[k]; !ok {
				*problems = append(*problems, fmt.Sprintf("%s: missing %q", path, k))
			}
		}
		for k, e := range v {
			if !p.allowed[k] {
				*problems = append(*problems, fmt.Sprintf("%s: unexpected %q", path, k))
				continue
			}
			check(m, path+"."+k, e, problems)
		}
	case []any:
		for _, e := range v {
			check(m, path+"[]", e, problems)
		}
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
