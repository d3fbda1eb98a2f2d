package app

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"fixthis/sim"
)

// plantedSecrets writes what leaky apps log into the simulated phone's log,
// each secret fresh for this run, and returns the secret values.
func plantedSecrets(t *testing.T, dev *sim.Device) []string {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(os.Getpid()), 26))
	word := func(alpha string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alpha[r.IntN(len(alpha))]
		}
		return string(b)
	}
	const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	s := map[string]string{
		"password": "hunter2-" + word(alnum, 6),
		"aws":      "AKIA" + word("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16),
		"apiKey":   word("0123456789abcdef", 24),
		"cookie":   word(alnum, 20),
		"jwt":      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI" + word(alnum, 12) + "In0." + word(alnum+"-_", 43),
		"github":   "ghp_" + word(alnum, 36),
		"stripe":   "sk_live_" + word(alnum, 24),
		"slack":    "xoxb-" + word("0123456789", 11) + "-" + word(alnum, 24),
		"google":   "AIza" + word(alnum+"-_", 35),
		"pemLine":  "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + word(alnum+"+/", 32),
		"userinfo": "pa55-" + word(alnum, 8),
	}
	logs := []struct{ level, tag, msg string }{
		{"D", "OkHttp", "--> POST https://api.trailhead.example/v1/login"},
		{"D", "OkHttp", `{"username":"ana","password":"` + s["password"] + `"}`},
		{"D", "OkHttp", "Authorization: Bearer " + s["jwt"]},
		{"D", "OkHttp", "Cookie: sessionid=" + s["cookie"] + "; theme=dark"},
		{"W", "Uploader", "S3 upload with BasicAWSCredentials(accessKey=" + s["aws"] + ")"},
		{"I", "Forecast", "GET forecast api_key=" + s["apiKey"] + " units=metric"},
		{"E", "GitSync", "push rejected for " + s["github"]},
		{"E", "Payments", "stripe init failed: " + s["stripe"]},
		{"W", "Notifier", "slack post with " + s["slack"]},
		{"E", "Maps", "REQUEST_DENIED for " + s["google"]},
		{"D", "KeyStore", "-----BEGIN PRIVATE KEY-----\n" + s["pemLine"] + "\n-----END PRIVATE KEY-----"},
		{"E", "Backup", "clone https://ana:" + s["userinfo"] + "@git.example.com/team/app.git failed"},
	}
	for _, l := range logs {
		if err := dev.AppLog(l.level, l.tag, l.msg); err != nil {
			t.Fatal(err)
		}
	}
	// The crash message quotes a credential, as a login screen's exception might.
	err := dev.CrashApp(sim.Crash{
		Exception: "java.lang.IllegalStateException: login failed for user=ana password=" + s["password"],
		Frames: []string{
			"com.fixthis.demo.ui.format.TrailFormatKt.formatDistance(TrailFormat.kt:27)",
			"android.os.Looper.loop(Looper.java:294)",
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, 0, len(s))
	for _, v := range s {
		out = append(out, v)
	}
	return out
}

// Secrets an app logged reach none of what FixThis stores or answers: the
// files under .fixthis (database included), the console API's answers and the
// MCP tools' results, while the crash itself is still reported.
func TestPlantedSecretsReachNothingStoredOrShown(t *testing.T) {
	e := newTestEnv(t)
	sid := e.createSession("secrets")
	_, saved, _ := e.saveDrafts(sid)
	itemID := saved.Items[0].ItemID
	secrets := plantedSecrets(t, e.sim)

	answers := map[string]string{}
	check := func(name string, r apiResponse) {
		t.Helper()
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", name, r.Status, r.Body)
		}
		answers[name] = string(r.Body)
	}
	check("POST /api/agent-handoffs", e.do("POST", "/api/agent-handoffs", map[string]any{"sessionId": sid}, nil))
	check("POST collect", e.do("POST", "/api/items/"+itemID+"/runtime-evidence/collect", nil, nil))
	check("GET runtime-evidence", e.do("GET", "/api/items/"+itemID+"/runtime-evidence?sessionId="+sid, nil, nil))
	check("GET session", e.do("GET", "/api/sessions/"+sid, nil, nil))
	check("GET export", e.do("GET", "/api/sessions/"+sid+"/export", nil, nil))
	check("POST handoff-preview", e.do("POST", "/api/sessions/"+sid+"/handoff-preview", nil, nil))
	if !strings.Contains(answers["GET runtime-evidence"], "password=[REDACTED]") ||
		!strings.Contains(answers["GET runtime-evidence"], "TrailFormat.kt:27") {
		t.Errorf("the crash is not reported, or not redacted readably: %s", answers["GET runtime-evidence"])
	}

	for name, args := range map[string]map[string]any{
		"fixthis_capture_runtime_evidence": {"itemId": itemID},
		"fixthis_get_runtime_evidence":     {"itemId": itemID},
		"fixthis_read_feedback":            {"sessionId": sid, "itemId": itemID},
		"fixthis_list_feedback":            {"sessionId": sid},
		"fixthis_wait_for_feedback":        {"sessionId": sid, "timeoutSeconds": 1},
	} {
		answers[name] = callTool(t, e, name, args)
	}

	for name, body := range answers {
		noSecretIn(t, name+"'s answer", []byte(body), secrets)
	}
	files := noSecretInFiles(t, filepath.Join(e.projectDir, ".fixthis"), secrets)
	logs, _ := filepath.Glob(filepath.Join(e.projectDir, ".fixthis", "runtime-evidence", sid, "*", "logcat.txt"))
	if files < 3 || len(logs) < 2 {
		t.Fatalf("%d files, %d stored logs: nothing to check", files, len(logs))
	}
	if b, _ := os.ReadFile(logs[0]); !strings.Contains(string(b), "Authorization: Bearer [REDACTED]") {
		t.Errorf("stored log lost its readable rest:\n%s", b)
	}
}

// callTool calls one MCP tool in-process against the app's device layer and
// returns its whole result as JSON.
func callTool(t *testing.T, e *testEnv, name string, args map[string]any) string {
	t.Helper()
	c := inProcessAgent(t, e, "redact-test")
	ctx := context.Background()
	var req mcpgo.CallToolRequest
	req.Params.Name, req.Params.Arguments = name, args
	out, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b, _ := json.Marshal(out)
	if out.IsError {
		t.Fatalf("%s: %s", name, b)
	}
	return string(b)
}
