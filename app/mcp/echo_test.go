package mcp

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestToolErrorsQuoteABoundedPrefix calls every tool with a 1 MB value in
// each of its string arguments in turn (every one is refused, most by the
// schema's maxLength), and with a 1 MB argument name (refused where the
// schema forbids unknown arguments): every error is under 1 KB, never the
// value echoed back.
func TestToolErrorsQuoteABoundedPrefix(t *testing.T) {
	s, sess, items := seededStore(t, 1)
	c := newClient(t, Deps{Store: s, Prompt: listPrompter{}})
	list, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("A", 1<<20)
	base := func(tool mcp.Tool) map[string]any {
		args := map[string]any{}
		for name, p := range tool.InputSchema.Properties {
			switch name {
			case "sessionId":
				args[name] = sess.SessionID
			case "itemId":
				args[name] = items[0].ItemID
			case "timeoutSeconds":
				args[name] = 1
			default:
				if m, _ := p.(map[string]any); m["type"] == "string" {
					args[name] = "x"
				}
			}
		}
		return args
	}
	probes := 0
	for _, tool := range list.Tools {
		var fields []string
		for name, p := range tool.InputSchema.Properties {
			if m, _ := p.(map[string]any); m["type"] == "string" {
				fields = append(fields, name)
			}
		}
		for _, field := range append(fields, "") {
			args := base(tool)
			label := tool.Name + "/" + field
			if field == "" {
				args[huge] = 1
				label = tool.Name + "/unknown argument"
			} else {
				args[field] = huge
			}
			probes++
			res := call(t, c, tool.Name, args, nil)
			if !res.IsError {
				if field != "" {
					t.Errorf("%s: a 1 MB value was accepted", label)
				}
				continue
			}
			if n := len(text(res)); n > 1024 {
				t.Errorf("%s: %d-byte error: %.120s…", label, n, text(res))
			}
		}
	}
	// An object that allows no other properties names the unknown ones.
	res := call(t, c, "fixthis_resolve_feedback", map[string]any{"sessionId": sess.SessionID, "itemId": items[0].ItemID,
		"status": "resolved", "summary": "x", "verification": map[string]any{huge: 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7}}, nil)
	if !res.IsError || len(text(res)) > 1024 {
		t.Errorf("unknown verification property: error=%v, %d bytes: %.120s", res.IsError, len(text(res)), text(res))
	}
	t.Logf("%d probes over %d tools", probes+1, len(list.Tools))
}
