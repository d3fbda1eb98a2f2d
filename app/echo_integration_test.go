package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// maxErrorBody is what an error answer may weigh: errors quote at most a few
// dozen characters of what they refuse (errcode.Quote), whatever was sent.
const maxErrorBody = 1024

// echoProbe is one request with a huge value in one field.
type echoProbe struct {
	name   string
	method string
	path   string // %s is replaced by the huge value (path-escaped)
	body   map[string]any
}

// TestErrorsQuoteABoundedPrefix sends every console route that refuses input
// a 10 MB value in each of its fields (ids in paths and queries get 512 KB,
// under the server's header limit) and requires an error under 1 KB.
func TestErrorsQuoteABoundedPrefix(t *testing.T) {
	env := newTestEnv(t)
	sid := env.createSession("Echo")
	_, saved, _ := env.saveDrafts(sid)
	iid := saved.Items[0].ItemID
	const big = "\x00" // replaced by the huge value below
	probes := []echoProbe{
		{"select serial", "POST", "/api/device/select", map[string]any{"serial": big}},
		{"freeze serial", "POST", "/api/preview/freeze", map[string]any{"serial": big}},
		{"tap serial", "POST", "/api/preview/tap", map[string]any{"x": 1, "y": 1, "serial": big}},
		{"stats transport", "POST", "/api/preview/stats", map[string]any{"transport": big}},
		{"stats decoder", "POST", "/api/preview/stats", map[string]any{"transport": "h264", "decoder": big}},
		{"control serial", "PUT", "/api/agent-control", map[string]any{"serial": big, "allowed": true}},
		{"control query", "GET", "/api/agent-control?serial=%s", nil},
		{"device actions after", "GET", "/api/device-actions?after=%s", nil},
		{"handoff session", "POST", "/api/agent-handoffs", map[string]any{"sessionId": big, "itemIds": []string{iid}}},
		{"handoff item", "POST", "/api/agent-handoffs", map[string]any{"sessionId": sid, "itemIds": []string{big}}},
		{"handoff preview", "POST", "/api/sessions/" + sid + "/handoff-preview", map[string]any{"itemIds": []string{big}}},
		{"export format", "GET", "/api/sessions/" + sid + "/export?format=%s", nil},
		{"answer session", "POST", "/api/items/" + iid + "/answer", map[string]any{"sessionId": big, "answer": "yes"}},
		{"answer text", "POST", "/api/items/" + iid + "/answer", map[string]any{"sessionId": sid, "answer": big}},
		{"answer item", "POST", "/api/items/%s/answer", map[string]any{"sessionId": sid, "answer": "yes"}},
		{"resolve status", "POST", "/api/items/" + iid + "/resolve", map[string]any{"sessionId": sid, "status": big}},
		{"resolve session", "POST", "/api/items/" + iid + "/resolve", map[string]any{"sessionId": big, "status": "resolved"}},
		{"reopen note", "POST", "/api/items/" + iid + "/reopen", map[string]any{"sessionId": sid, "note": big}},
		{"reopen session", "POST", "/api/items/" + iid + "/reopen", map[string]any{"sessionId": big, "note": "again"}},
		{"reopen item", "POST", "/api/items/%s/reopen", map[string]any{"sessionId": sid, "note": "again"}},
		{"verify item", "POST", "/api/items/%s/verify", map[string]any{"sessionId": sid}},
		{"update comment", "PUT", "/api/items/" + iid, map[string]any{"sessionId": sid, "comment": big}},
		{"update severity", "PUT", "/api/items/" + iid, map[string]any{"sessionId": sid, "severity": big}},
		{"update session", "PUT", "/api/items/" + iid, map[string]any{"sessionId": big, "comment": "x"}},
		{"update item", "PUT", "/api/items/%s", map[string]any{"sessionId": sid, "comment": "x"}},
		{"delete item", "DELETE", "/api/items/%s?sessionId=" + sid, nil},
		{"delete drafts", "DELETE", "/api/items/draft?sessionId=%s", nil},
		{"batch session", "POST", "/api/items/batch", map[string]any{"sessionId": big, "frozenId": "p", "items": []any{}}},
		{"batch preview", "POST", "/api/items/batch", map[string]any{"sessionId": sid, "frozenId": big, "items": []any{}}},
		{"batch severity", "POST", "/api/items/batch", map[string]any{"sessionId": sid, "frozenId": "p",
			"items": []any{map[string]any{"draftItemId": "d", "severity": big}}}},
		{"batch target type", "POST", "/api/items/batch", map[string]any{"sessionId": sid, "frozenId": "p",
			"items": []any{map[string]any{"draftItemId": "d", "severity": "low", "target": map[string]any{"type": big}}}}},
		{"session title", "POST", "/api/sessions", map[string]any{"title": big}},
		{"session policy", "PUT", "/api/sessions/" + sid, map[string]any{"runtimeEvidencePolicy": big}},
		{"session pickup", "PUT", "/api/sessions/" + sid, map[string]any{"agentPickup": big}},
		{"session id", "GET", "/api/sessions/%s", nil},
		{"session close", "POST", "/api/sessions/%s/close", nil},
		{"screen image", "GET", "/api/screens/%s/image?sessionId=" + sid, nil},
		{"screen session", "GET", "/api/screens/s/image?sessionId=%s", nil},
		{"item crop", "GET", "/api/items/%s/crop?sessionId=" + sid, nil},
		{"item sources", "GET", "/api/items/%s/sources?sessionId=" + sid, nil},
		{"item evidence", "GET", "/api/items/%s/runtime-evidence?sessionId=" + sid, nil},
		{"item network", "GET", "/api/items/%s/network?sessionId=" + sid, nil},
		{"evidence collect", "POST", "/api/items/%s/runtime-evidence/collect", map[string]any{}},
		{"evidence collect session", "POST", "/api/items/" + iid + "/runtime-evidence/collect", map[string]any{"sessionId": big}},
		{"preview image", "GET", "/api/preview/%s/image", nil},
		{"capture image", "GET", "/api/captures/%s/image", nil},
		{"app run module", "POST", "/api/target-app/run", map[string]any{"module": big}},
		{"app run variant", "POST", "/api/target-app/run", map[string]any{"variant": big}},
		{"voice start session", "POST", "/api/voice/sessions", map[string]any{"sessionId": big}},
		{"voice session id", "PUT", "/api/voice/sessions/%s", map[string]any{"muted": true}},
		{"voice anchors", "POST", "/api/voice/sessions/%s/anchors", map[string]any{"kind": big}},
		{"unknown route", "GET", "/api/%s", nil},
	}
	huge := strings.Repeat("A", 10<<20)
	hugeID := strings.Repeat("A", 512<<10)
	for _, p := range probes {
		t.Run(p.name, func(t *testing.T) {
			path := strings.ReplaceAll(p.path, "%s", url.PathEscape(hugeID))
			var body []byte
			if p.body != nil {
				b, err := json.Marshal(p.body)
				if err != nil {
					t.Fatal(err)
				}
				body = bytes.ReplaceAll(b, []byte(`"\u0000"`), []byte(`"`+huge+`"`))
			}
			status, resp := env.raw(p.method, path, body)
			if status < 400 {
				t.Fatalf("%s %.60s: status %d, want a refusal", p.method, path, status)
			}
			if len(resp) > maxErrorBody {
				t.Fatalf("%s %.60s: %d-byte error body (status %d): %.200s…", p.method, path, len(resp), status, resp)
			}
		})
	}
}

// raw sends body as it is (nil: none) with the header pairs given, and
// returns the status and body.
func (e *testEnv) raw(method, path string, body []byte, header ...string) (int, []byte) {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatalf("build %s: %v", method, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatalf("%s %.60s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatalf("%s: read body: %v", method, err)
	}
	return resp.StatusCode, data
}
