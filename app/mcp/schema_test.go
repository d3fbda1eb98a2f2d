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
