package agentdevice

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"fixthis/adb/adbtest"
	"fixthis/app/errcode"
	"fixthis/app/mcp"
)

// Hostile values in the launch, type and key tools never run anything on the phone:
// a launch or a key that is not a package or key name is refused before it reaches
// the device, text with a control character is refused, and any other text is typed
// as it is. The simulated phone's shell runs what /system/bin/sh would, so an
// injection that got through would leave its file there.
func TestAgentValuesNeverRunOnThePhone(t *testing.T) {
	e := newSimEnv(t)
	ctx := context.Background()
	serial := e.dev.Serial()
	p := New(Options{ADB: e.client, Capturer: e.capturer, Store: e.st, AskTimeout: 300 * time.Millisecond,
		Pick: func(context.Context, string) (Target, error) { return Target{Serial: serial}, nil }})
	if err := SetControl(ctx, e.st, serial, true); err != nil {
		t.Fatal(err)
	}
	hasControl := func(s string) bool { return strings.IndexFunc(s, unicode.IsControl) >= 0 }
	textProbes := append(adbtest.Probes("hello"),
		adbtest.Probe{Name: "nul", Value: "hello\x00world"}, adbtest.Probe{Name: "bel", Value: "hello\a"},
		adbtest.Probe{Name: "esc", Value: "\x1b[2J"}, adbtest.Probe{Name: "del", Value: "a\x7f"})
	for _, tc := range []struct {
		kind   string
		probes []adbtest.Probe
		action func(v string) mcp.Action
		refuse func(v string) bool
	}{
		{"launch", adbtest.Probes("com.fixthis.demo"), func(v string) mcp.Action { return mcp.Action{Kind: "launch", Package: v} },
			func(string) bool { return true }},
		{"key", adbtest.Probes("BACK"), func(v string) mcp.Action { return mcp.Action{Kind: "key", Key: v} },
			func(string) bool { return true }},
		{"type", textProbes, func(v string) mcp.Action { return mcp.Action{Kind: "type", Text: v} }, hasControl},
	} {
		tally := adbtest.Tally{What: tc.kind}
		for _, pr := range tc.probes {
			tally.Sent++
			_, err := p.Act(ctx, "", tc.action(pr.Value))
			refused := errcode.Of(err) == errcode.InvalidInput
			if refused {
				tally.Refused++
				if msg := err.Error(); len(msg) > 300 {
					t.Errorf("%s %s: the error quotes too much (%d bytes)", tc.kind, pr.Name, len(msg))
				}
			}
			if pw := adbtest.Pwned(e.dev); len(pw) > 0 {
				tally.Ran++
				t.Errorf("%s %s (%q) ran on the phone: %v", tc.kind, pr.Name, pr.Value, pw)
				for _, f := range pw { // keep going: every probe is counted
					if _, err := e.client.Shell(ctx, serial, "rm -f "+f); err != nil {
						t.Fatal(err)
					}
				}
			}
			if want := tc.refuse(pr.Value); refused != want {
				t.Errorf("%s %s (%q): refused=%v (%v), want refused=%v", tc.kind, pr.Name, pr.Value, refused, err, want)
			} else if !want && err != nil {
				t.Errorf("%s %s (%q): %v", tc.kind, pr.Name, pr.Value, err)
			}
		}
		t.Log(tally)
	}
}

// Through the MCP tools an agent calls, a refused value is a tool error that says
// what is wrong with it (INVALID_INPUT, the start of the value, the grammar), not a
// failure of the server, and the phone is left alone.
func TestToolsRefuseHostileValues(t *testing.T) {
	e := newSimEnv(t)
	ctx := context.Background()
	serial := e.dev.Serial()
	p := New(Options{ADB: e.client, Capturer: e.capturer, Store: e.st, AskTimeout: 300 * time.Millisecond,
		Pick: func(context.Context, string) (Target, error) { return Target{Serial: serial}, nil }})
	if err := SetControl(ctx, e.st, serial, true); err != nil {
		t.Fatal(err)
	}
	c, err := mcpclient.NewInProcessClient(mcp.NewServer(mcp.Deps{Store: e.st, Device: p}))
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
		if pw := adbtest.Pwned(e.dev); len(pw) > 0 {
			t.Fatalf("%s %v ran on the phone: %v", tc.tool, tc.args, pw)
		}
	}
}
