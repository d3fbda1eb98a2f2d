package app

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"fixthis/adb/adbtest"
	"fixthis/app/agentdevice"
	"fixthis/app/audit"
	"fixthis/app/feedback"
	"fixthis/app/mcp"
	"fixthis/internal/eventually"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// dynamicAuditOut is the part of fixthis_audit_screen's answer these tests read.
type dynamicAuditOut struct {
	Findings []audit.Finding `json:"findings"`
	Dynamic  *struct {
		Ran          []string `json:"ran"`
		Skipped      []string `json:"skipped"`
		Restored     bool     `json:"restored"`
		RestoreError string   `json:"restoreError"`
		Ms           int64    `json:"ms"`
	} `json:"dynamic"`
}

// agentOnPhone is an MCP client whose device tools drive the app's phone (the
// simulated one), with the agent allowed to control it.
func agentOnPhone(t *testing.T, e *testEnv) *mcpclient.Client {
	t.Helper()
	ctx := context.Background()
	if err := agentdevice.SetControl(ctx, e.store, e.sim.Serial(), true); err != nil {
		t.Fatal(err)
	}
	return inProcessClient(t, mcp.Deps{Store: e.store, Device: e.app.agentPhone()}, "dynamic-audit")
}

func callAudit(ctx context.Context, t *testing.T, c *mcpclient.Client, args map[string]any) (dynamicAuditOut, *mcpgo.CallToolResult, error) {
	t.Helper()
	var req mcpgo.CallToolRequest
	req.Params.Name, req.Params.Arguments = "fixthis_audit_screen", args
	res, err := c.CallTool(ctx, req)
	var out dynamicAuditOut
	if err == nil && !res.IsError {
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
	}
	return out, res, err
}

// The dynamic pass on the simulated phone through the real display manager: font
// scale 2, the dark theme and Arabic for the demo app each ran, within the 10 s
// budget, and the phone's settings are its own again afterwards — the manager keeps
// no originals, the phone is in the light theme at font scale 1 and the app follows
// the system's language.
func TestDynamicAuditRestoresThePhone(t *testing.T) {
	e := newTestEnv(t)
	e.waitSimSelected()
	c := agentOnPhone(t, e)
	ctx := context.Background()
	out, res, err := callAudit(ctx, t, c, map[string]any{"dynamic": true})
	if err != nil || res.IsError {
		t.Fatalf("audit: %v %+v", err, res)
	}
	d := out.Dynamic
	if d == nil || len(d.Ran) != 3 || len(d.Skipped) != 0 || !d.Restored {
		t.Fatalf("dynamic: %+v", d)
	}
	if d.Ms > 10_000 {
		t.Fatalf("the dynamic pass took %d ms, budget 10 s", d.Ms)
	}
	t.Logf("dynamic pass: %d ms, %d findings", d.Ms, len(out.Findings))
	assertDisplayOwn(t, e)

	// A display the user chose stays chosen: the pass puts back dark theme, not the
	// phone's originals.
	var setReq mcpgo.CallToolRequest
	setReq.Params.Name, setReq.Params.Arguments = "fixthis_set_display", map[string]any{"night": true}
	if r, err := c.CallTool(ctx, setReq); err != nil || r.IsError {
		t.Fatalf("set night: %v %+v", err, r)
	}
	out, res, err = callAudit(ctx, t, c, map[string]any{"dynamic": true})
	if err != nil || res.IsError || out.Dynamic == nil || len(out.Dynamic.Ran) != 2 || len(out.Dynamic.Skipped) != 1 || !out.Dynamic.Restored {
		t.Fatalf("with night on: %v %+v %+v", err, res, out.Dynamic)
	}
	if got := e.simNight(); got != "Night mode: yes" || !e.app.displays.Changed(e.sim.Serial()) {
		t.Fatalf("after a pass with night chosen: %q, originals kept %v", got, e.app.displays.Changed(e.sim.Serial()))
	}
}

// A pass whose call is cancelled part way still puts the phone back.
func TestDynamicAuditCancelledRestoresThePhone(t *testing.T) {
	e := newTestEnv(t)
	e.waitSimSelected()
	c := agentOnPhone(t, e)
	ctx, cancel := context.WithCancel(context.Background())
	sawChange := make(chan bool, 1)
	go func() {
		// Cancel once the first setting reached the phone: the pass then has seconds
		// of settings and captures ahead of it.
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) && !e.app.displays.Changed(e.sim.Serial()) {
			time.Sleep(5 * time.Millisecond)
		}
		sawChange <- e.app.displays.Changed(e.sim.Serial())
		cancel()
	}()
	_, res, err := callAudit(ctx, t, c, map[string]any{"dynamic": true})
	if !<-sawChange {
		t.Fatal("no setting of the pass reached the phone within 10 s")
	}
	if err == nil && !res.IsError {
		t.Fatal("the pass answered as finished although its call was cancelled part way")
	}
	eventually.True(t, 5*time.Second, "the display put back", func() bool { return !e.app.displays.Changed(e.sim.Serial()) })
	assertDisplayOwn(t, e)
}

// assertDisplayOwn: the phone shows its own display settings and FixThis keeps no
// originals of it.
func assertDisplayOwn(t *testing.T, e *testEnv) {
	t.Helper()
	if e.app.displays.Changed(e.sim.Serial()) {
		t.Fatal("the display manager still keeps originals: the pass did not restore them")
	}
	var got DisplaySettings
	e.mustJSON("GET", "/api/display", nil, &got)
	if got.State.Night || got.State.FontScale != 1 || got.State.Locale != "" {
		t.Fatalf("the phone was not put back: %+v", got.State)
	}
}

// The console's "with font, dark and RTL": the frozen demo screen audited at font
// scale 2, dark and in Arabic on the simulated phone, the display put back through
// the display manager; a dynamic value that is not true or false is refused.
func TestConsoleDynamicAudit(t *testing.T) {
	e := newTestEnv(t)
	fr := e.freeze()
	var res feedback.AuditResult
	e.mustJSON("POST", "/api/preview/"+fr.FrozenID+"/audit?dynamic=true", nil, &res)
	d := res.Dynamic
	if d == nil || len(d.Ran) != 3 || len(d.Skipped) != 0 || !d.Restored || d.Ms > 10_000 {
		t.Fatalf("dynamic: %+v", d)
	}
	var static feedback.AuditResult
	e.mustJSON("POST", "/api/preview/"+fr.FrozenID+"/audit", nil, &static)
	if static.Dynamic != nil || len(res.Findings) < len(static.Findings) {
		t.Fatalf("static %d findings (dynamic %+v), with the pass %d", len(static.Findings), static.Dynamic, len(res.Findings))
	}
	assertDisplayOwn(t, e)
	if r := e.do("POST", "/api/preview/"+fr.FrozenID+"/audit?dynamic=yes%00please", nil, nil); r.Status != http.StatusUnprocessableEntity ||
		!strings.Contains(string(r.Body), "true or false") {
		t.Fatalf("a bad dynamic value: %d %s", r.Status, r.Body)
	}
}

// On Android 9 the phone has no per-app languages (cmd locale, Android 13+): the
// pass skips its RTL step and says why, runs the other two and puts the phone back,
// all through the real adb server.
func TestDynamicAuditSkipsRTLBeforeAndroid13(t *testing.T) {
	opts := quietSim
	opts.Scenario = adbtest.DemoOnAndroid9(t)
	e := newTestEnvWith(t, opts)
	e.waitSimSelected()
	c := agentOnPhone(t, e)
	out, res, err := callAudit(context.Background(), t, c, map[string]any{"dynamic": true})
	if err != nil || res.IsError {
		t.Fatalf("audit: %v %+v", err, res)
	}
	d := out.Dynamic
	if d == nil || len(d.Ran) != 2 || len(d.Skipped) != 1 || !d.Restored {
		t.Fatalf("dynamic on Android 9: %+v", d)
	}
	if !strings.Contains(d.Skipped[0], "13") {
		t.Fatalf("the skipped step does not say it needs Android 13: %q", d.Skipped[0])
	}
	assertDisplayOwn(t, e)
}
