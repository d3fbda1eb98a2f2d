package agentdevice_test

// These tests drive the phone through app/mcp's tools, so they sit outside the
// package: agentdevice never imports mcp, mcp imports agentdevice.

import (
	"context"
	"strings"
	"testing"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"fixthis/adb/adbtest"
	"fixthis/app/agentdevice"
	"fixthis/app/mcp"
)

// Through the MCP tools an agent calls, a refused value is a tool error that says
// what is wrong with it (INVALID_INPUT, the start of the value, the grammar), not a
// failure of the server, and the phone is left alone.
func TestToolsRefuseHostileValues(t *testing.T) {
	ctx := context.Background()
	p, st, dev := agentdevice.NewSimPhone(t)
	c, err := mcpclient.NewInProcessClient(mcp.NewServer(mcp.Deps{Store: st, Device: p}))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var init mcpgo.InitializeRequest
	init.Params.ClientInfo = mcpgo.Implementation{Name: "inject-test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string // in the tool error
	}{
		{"fixthis_type_text", map[string]any{"text": "hello\x00world"}, "control character U+0000"},
		{"fixthis_type_text", map[string]any{"text": "ring\a"}, "control character U+0007"},
		{"fixthis_type_text", map[string]any{"text": "line\ntouch /data/local/tmp/pwned-tool"}, "control character U+000A"},
		{"fixthis_launch_app", map[string]any{"package": "com.fixthis.demo\ntouch\t/data/local/tmp/pwned-tool"}, "package name"},
		{"fixthis_launch_app", map[string]any{"package": "com.fixthis.demo>/data/local/tmp/pwned-tool"}, "package name"},
		{"fixthis_launch_app", map[string]any{"package": "-p\tcom.x"}, "package name"},
		{"fixthis_press_key", map[string]any{"key": "BACK\ntouch /data/local/tmp/pwned-tool"}, "not a key name"},
	} {
		var req mcpgo.CallToolRequest
		req.Params.Name, req.Params.Arguments = tc.tool, tc.args
		out, err := c.CallTool(ctx, req)
		if err != nil || out == nil || !out.IsError {
			t.Errorf("%s %v: want a tool error, got %+v %v", tc.tool, tc.args, out, err)
			continue
		}
		text := ""
		for _, ct := range out.Content {
			if tc, ok := ct.(mcpgo.TextContent); ok {
				text += tc.Text
			}
		}
		if !strings.HasPrefix(text, "INVALID_INPUT") || !strings.Contains(text, tc.want) || len(text) > 300 {
			t.Errorf("%s %v: tool error %q, want INVALID_INPUT saying %q", tc.tool, tc.args, text, tc.want)
		}
		if pw := adbtest.Pwned(dev); len(pw) > 0 {
			t.Fatalf("%s %v ran on the phone: %v", tc.tool, tc.args, pw)
		}
	}
}
