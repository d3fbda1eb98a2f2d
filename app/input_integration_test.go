package app

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
)

// TestBadInputIsRefused: control characters and oversized fields are refused
// with 4xx wherever text is stored, and the error never echoes the input.
func TestBadInputIsRefused(t *testing.T) {
	e := newTestEnv(t)
	var created struct {
		SessionID string `json:"sessionId"`
	}
	e.mustJSON("POST", "/api/sessions", map[string]string{"title": "Input"}, &created)
	sid := created.SessionID
	fr := e.freeze()
	card := fr.node(t, "trail_card_1")
	batch := func(comment string, target map[string]any) map[string]any {
		if target == nil {
			target = map[string]any{"type": "node", "nodeUid": card.UID, "bounds": card.Bounds}
		}
		return map[string]any{"sessionId": sid, "frozenId": fr.FrozenID, "workspaceId": "ws-input",
			"items": []map[string]any{{"draftItemId": "d1", "severity": "high", "comment": comment, "target": target}}}
	}
	huge := strings.Repeat("x", 31<<20)
	cases := []struct {
		name   string
		method string
		path   string
		body   any
		status int
	}{
		{"NUL at the start of a comment", "POST", "/api/items/batch", batch("\u0000 fix the button", nil), 422},
		{"bell inside a comment", "POST", "/api/items/batch", batch("fix\u0007 it", nil), 422},
		{"control character in a title", "POST", "/api/sessions", map[string]string{"title": "a\u001bb"}, 422},
		{"control character in a draft id", "POST", "/api/items/batch", map[string]any{"sessionId": sid, "frozenId": fr.FrozenID,
			"workspaceId": "ws\u0000", "items": []map[string]any{{"draftItemId": "d1", "comment": "x", "target": map[string]any{"type": "screen"}}}}, 422},
		{"31 MB snapshot", "POST", "/api/items/batch", batch("fix it", map[string]any{"type": "node", "nodeUid": card.UID,
			"bounds": card.Bounds, "snapshot": map[string]any{"text": huge}}), 422},
		{"300 KiB of ancestors", "POST", "/api/items/batch", batch("fix it", map[string]any{"type": "node", "nodeUid": card.UID,
			"bounds": card.Bounds, "ancestors": []string{strings.Repeat("a", 300<<10)}}), 413},
		{"oversized severity is not echoed", "POST", "/api/items/batch", map[string]any{"sessionId": sid, "frozenId": fr.FrozenID,
			"workspaceId": "ws-input", "items": []map[string]any{{"draftItemId": "d1", "severity": huge[:1<<20], "comment": "x",
				"target": map[string]any{"type": "screen"}}}}, 422},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do(tc.method, tc.path, tc.body, nil)
			if r.Status != tc.status {
				t.Fatalf("status %d, want %d: %.300s", r.Status, tc.status, r.Body)
			}
			if len(r.Body) > 1024 {
				t.Fatalf("error body is %d bytes: it echoes the input", len(r.Body))
			}
		})
	}

	// A body over the limit is 413, not 400 invalid_json.
	req, _ := http.NewRequest("POST", e.srv.URL+"/api/items/batch", bytes.NewReader(bytes.Repeat([]byte(" "), 33<<20)))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("oversized body: %d, want 413", resp.StatusCode)
	}

	// Nothing was stored by the refused requests.
	var sess struct {
		Session struct {
			Items []any `json:"items"`
		} `json:"session"`
	}
	e.mustJSON("GET", "/api/sessions/"+sid, nil, &sess)
	if len(sess.Session.Items) != 0 {
		t.Fatalf("refused requests stored %d items", len(sess.Session.Items))
	}
}

// TestCopyPromptUnknownItem: Copy Prompt naming an unknown item is 404,
// whether or not the copy is to be recorded.
func TestCopyPromptUnknownItem(t *testing.T) {
	e := newTestEnv(t)
	sid := e.createSession("Copy")
	_, saved, _ := e.saveDrafts(sid)
	for _, mark := range []bool{false, true} {
		r := e.do("POST", "/api/sessions/"+sid+"/handoff-preview",
			map[string]any{"itemIds": []string{saved.Items[0].ItemID, "no-such-item"}, "markCopied": mark}, nil)
		if r.Status != http.StatusNotFound || !strings.Contains(string(r.Body), "ITEM_NOT_FOUND: ") {
			t.Fatalf("markCopied=%v: %d %s", mark, r.Status, r.Body)
		}
	}
}

// TestPreviewPrefixes: a second save of a frozen frame while one runs is
// PREVIEW_SAVE_IN_PROGRESS; a screen without its screenshot is
// PREVIEW_SCREENSHOT_NOT_FOUND.
func TestPreviewPrefixes(t *testing.T) {
	e := newTestEnv(t)
	sid := e.createSession("Prefixes")
	fr := e.freeze()
	body := map[string]any{"sessionId": sid, "frozenId": fr.FrozenID, "workspaceId": "ws-p",
		"items": []map[string]any{{"draftItemId": "d1", "comment": "x", "target": map[string]any{"type": "screen"}}}}
	release, ok := e.app.feedback.HoldSave(sid, fr.FrozenID)
	if !ok {
		t.Fatal("key busy before any save")
	}
	r := e.do("POST", "/api/items/batch", body, nil)
	release()
	if r.Status != http.StatusConflict || !strings.Contains(string(r.Body), `"PREVIEW_SAVE_IN_PROGRESS: `) {
		t.Fatalf("save during another save: %d %s", r.Status, r.Body)
	}
	if r := e.do("POST", "/api/items/batch", body, nil); r.Status != http.StatusOK {
		t.Fatalf("save after the other finished: %d %s", r.Status, r.Body)
	}

	// A screen saved without an image (no frozen frame named).
	var res batchResponse
	e.do("POST", "/api/items/batch", map[string]any{"sessionId": sid, "workspaceId": "ws-noimg",
		"items": []map[string]any{{"draftItemId": "d9", "comment": "y", "target": map[string]any{"type": "screen"}}}},
		map[string]string{"If-Match": "*"}).decode(t, &res)
	if res.ScreenID == "" {
		t.Skip("a save without a frame stores no screen")
	}
	r = e.do("GET", "/api/screens/"+res.ScreenID+"/image?sessionId="+sid, nil, nil)
	if r.Status != http.StatusNotFound || !strings.Contains(string(r.Body), "PREVIEW_SCREENSHOT_NOT_FOUND: ") {
		t.Fatalf("screen without screenshot: %d %s", r.Status, r.Body)
	}
}
