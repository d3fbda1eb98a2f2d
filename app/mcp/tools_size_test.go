package mcp

import (
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
