package mcp

import (
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"fixthis/app/display"
)

// fixthis_set_size reads a preset by name or a custom size, and refuses what is
// not one before any phone is asked.
func TestSetSizeArguments(t *testing.T) {
	for _, c := range []struct {
		name    string
		args    map[string]any
		want    display.Preset
		refused bool
	}{
		{"tablet", map[string]any{"preset": "tablet"}, display.Presets[2], false},
		{"custom by its sides", map[string]any{"widthDp": 700, "heightDp": 900}, display.Preset{Name: "custom", WidthDp: 700, HeightDp: 900}, false},
		{"custom with a density", map[string]any{"preset": "custom", "widthDp": 700, "heightDp": 900, "density": 320}, display.Preset{Name: "custom", WidthDp: 700, HeightDp: 900, Density: 320}, false},
		{"density 0", map[string]any{"preset": "custom", "widthDp": 700, "heightDp": 900, "density": 0}, display.Preset{}, true},
		{"custom with one side", map[string]any{"preset": "custom", "widthDp": 700}, display.Preset{}, true},
		{"a preset with sides", map[string]any{"preset": "phone", "widthDp": 700, "heightDp": 900}, display.Preset{}, true},
		{"no preset", map[string]any{}, display.Preset{}, true},
		{"an unknown preset", map[string]any{"preset": "watch\x00"}, display.Preset{}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var req mcp.CallToolRequest
			req.Params.Arguments = c.args
			got, res := presetArg(req)
			if (res != nil) != c.refused {
				t.Fatalf("refused %v, want %v", res, c.refused)
			}
			if !c.refused && got != c.want {
				t.Errorf("preset %+v, want %+v", got, c.want)
			}
		})
	}
}

// fixthis_check_sizes reads preset names and custom sizes in dp, and refuses the
// rest with a clear message before any phone is asked.
func TestParseSizes(t *testing.T) {
	got, err := parseSizes([]string{"phone", " Tablet ", "700x900", "700X900@320"})
	if err != nil {
		t.Fatal(err)
	}
	want := []display.Preset{display.Presets[0], display.Presets[2],
		{Name: "custom 700x900", WidthDp: 700, HeightDp: 900}, {Name: "custom 700X900", WidthDp: 700, HeightDp: 900, Density: 320}}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("size %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	for _, c := range []struct{ in, msg string }{
		{"watch", "is neither phone"},
		{"700x900@0", "density 0 is no density"},
		{"700x", "is neither phone"},
		{"0x900", "out of range"},
		{"700x900@5", "density 5 is out of range"},
		{strings.Repeat("9", 1<<20) + "x1", "is neither phone"},
		{"700\x00x900", "is neither phone"},
	} {
		_, err := parseSizes([]string{c.in})
		if err == nil || !strings.Contains(err.Error(), c.msg) || len(err.Error()) > 200 {
			t.Errorf("%.40q: %v, want %q", c.in, err, c.msg)
		}
	}
	if _, err := parseSizes(make([]string, 7)); err == nil {
		t.Error("seven sizes should be too many")
	}
}

// FuzzParseSizes: whatever an agent sends as a size, the answer is presets that
// pass their own check or an error of bounded length.
func FuzzParseSizes(f *testing.F) {
	for _, s := range []string{"phone", "tablet", "700x900", "700x900@320", "0x0", "x", "@", "700x900@0", "9999999999x1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ps, err := parseSizes([]string{s})
		if err != nil {
			if len(err.Error()) > 300 {
				t.Fatalf("a %d-byte error", len(err.Error()))
			}
			return
		}
		for _, p := range ps {
			if err := p.Check(); err != nil {
				t.Fatalf("%q gave %+v: %v", s, p, err)
			}
		}
	})
}
