package mcp

import (
	"strings"
	"testing"
)

// TestSchemaErrorsAreSentences: arguments that break a tool's schema get an
// INVALID_INPUT sentence an agent can act on, never a Go struct dump, and
// never the (possibly huge) value back.
func TestSchemaErrorsAreSentences(t *testing.T) {
	c := newClient(t, Deps{Store: openStore(t, t.TempDir())})
	long := strings.Repeat("x", 30000)
	cases := []struct {
		tool string
		args map[string]any
		want []string
	}{
		{"fixthis_wait_for_feedback", map[string]any{"timeoutSeconds": "soon"}, []string{"timeoutSeconds must be a number, not a string."}},
		{"fixthis_wait_for_feedback", map[string]any{"timeoutSeconds": 500}, []string{"timeoutSeconds must be at most 50."}},
		{"fixthis_resolve_feedback", map[string]any{"sessionId": 3, "itemId": "i", "status": "done"},
			[]string{"summary is required.", "status must be one of resolved, wont_fix, needs_clarification.", "sessionId must be a string, not a number."}},
		{"fixthis_ask", map[string]any{"sessionId": "s", "itemId": "i", "question": long}, []string{"question must be at most 20000 characters long."}},
	}
	for _, tc := range cases {
		res := call(t, c, tc.tool, tc.args, nil)
		msg := text(res)
		if !res.IsError || !strings.HasPrefix(msg, "INVALID_INPUT: ") || strings.Contains(msg, "&{") || len(msg) > 400 {
			t.Fatalf("%s %v: error=%v %.400q", tc.tool, tc.args["timeoutSeconds"], res.IsError, msg)
		}
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: %q lacks %q", tc.tool, msg, w)
			}
		}
	}
}

// TestEveryToolRefusesUnknownArguments: a misspelt argument is never dropped
// silently; the refusal names the tool's own arguments.
func TestEveryToolRefusesUnknownArguments(t *testing.T) {
	deps := Deps{Store: openStore(t, t.TempDir())}
	c := newClient(t, deps)
	tools := Tools(deps)
	if len(tools) < 21 {
		t.Fatalf("%d tools", len(tools))
	}
	for _, st := range tools {
		res := call(t, c, st.Tool.Name, map[string]any{"sesionId": "s1", strings.Repeat("z", 5000): 1}, nil)
		msg := text(res)
		if !res.IsError || !strings.HasPrefix(msg, "INVALID_INPUT: ") || !strings.Contains(msg, "unknown arguments ") || !strings.Contains(msg, `"sesionId"`) {
			t.Errorf("%s: error=%v %.300q", st.Tool.Name, res.IsError, msg)
			continue
		}
		if !strings.Contains(msg, st.Tool.Name+" takes ") || len(msg) > 1000 {
			t.Errorf("%s: the refusal does not name the known arguments briefly: %.300q", st.Tool.Name, msg)
		}
		for name := range st.Tool.InputSchema.Properties {
			if !strings.Contains(msg, name) {
				t.Errorf("%s: the refusal leaves out %s: %.300q", st.Tool.Name, name, msg)
			}
		}
	}
}

// TestFractionsAreRefusedWhereTheToolCountsWholeUnits: seconds 1.5 must not
// record 1 s; a pixel or a dpi is whole.
func TestFractionsAreRefusedWhereTheToolCountsWholeUnits(t *testing.T) {
	c := newClient(t, Deps{Store: openStore(t, t.TempDir())})
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"fixthis_record_screen", map[string]any{"seconds": 1.5}, "seconds must be an integer, not a number."},
		{"fixthis_tap", map[string]any{"x": 10.5, "y": 20}, "x must be an integer, not a number."},
		{"fixthis_swipe", map[string]any{"x": 1, "y": 2, "x2": 3, "y2": 4.25}, "y2 must be an integer, not a number."},
		{"fixthis_swipe", map[string]any{"direction": "up", "durationMs": 300.5}, "durationMs must be an integer"},
		{"fixthis_wait_for_screen", map[string]any{"text": "OK", "timeoutMs": 1000.5}, "timeoutMs must be an integer"},
		{"fixthis_set_display", map[string]any{"density": 360.5}, "density must be an integer, not a number."},
	} {
		res := call(t, c, tc.tool, tc.args, nil)
		if msg := text(res); !res.IsError || !strings.Contains(msg, tc.want) {
			t.Errorf("%s %v: error=%v %.300q; want %q", tc.tool, tc.args, res.IsError, msg, tc.want)
		}
	}
}
