package app

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"fixthis/app/feedbackapi"
	"fixthis/app/httpapi"
)

// TestRefusedRequests: requests that used to be saved or answered as if
// nothing were wrong are refused with the contract's prefix.
func TestRefusedRequests(t *testing.T) {
	env := newTestEnv(t)
	sid := env.createSession("Refusals")
	other := env.createSession("Another")
	fr, saved, _ := env.saveDrafts(sid)
	iid := saved.Items[0].ItemID
	card := fr.node(t, "trail_card_1")
	batch := func(draft string, edit func(b map[string]any, item map[string]any)) []byte {
		item := map[string]any{"draftItemId": draft, "severity": "low", "comment": "Bigger",
			"target": map[string]any{"type": "node", "nodeUid": card.UID, "bounds": card.Bounds}}
		b := map[string]any{"sessionId": sid, "frozenId": fr.FrozenID, "workspaceId": "ws-refuse", "items": []any{item}}
		if edit != nil {
			edit(b, item)
		}
		out, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	huge := int64(1) << 62
	cases := []struct {
		name, method, path string
		body               []byte
		status             int
		prefix             string
	}{
		{"batch without frozenId", "POST", "/api/items/batch", batch("r1", func(b, _ map[string]any) { b["frozenId"] = "" }),
			422, "INVALID_INPUT: frozenId is required"},
		{"bounds beyond the screen", "POST", "/api/items/batch", batch("r2", func(_, it map[string]any) {
			it["target"] = map[string]any{"type": "area", "bounds": map[string]any{"left": 0, "top": 0, "right": huge, "bottom": huge}}
		}), 422, "INVALID_INPUT: item \"r2\": target bounds (0,0)-(4611686018427387904,4611686018427387904) leave the"},
		{"bounds one pixel too wide", "POST", "/api/items/batch", batch("r3", func(_, it map[string]any) {
			it["target"] = map[string]any{"type": "area", "bounds": map[string]any{"left": 0, "top": 0, "right": fr.Screen.Width + 1, "bottom": 10}}
		}), 422, "INVALID_INPUT: item \"r3\": target bounds"},
		{"invalid UTF-8", "POST", "/api/items/batch",
			[]byte(strings.Replace(string(batch("r4", nil)), "Bigger", "Big\xffger", 1)), 400, "INVALID_INPUT: request body is not valid UTF-8"},
		{"half a surrogate pair", "POST", "/api/items/batch",
			[]byte(strings.Replace(string(batch("r5", nil)), "Bigger", `Big\ud800ger`, 1)), 400, "INVALID_INPUT: request body escapes half"},
		{"a low surrogate alone", "POST", "/api/sessions", []byte(`{"title":"x\udc00"}`), 400, "INVALID_INPUT: request body escapes half"},
		{"trailing data", "POST", "/api/items/batch", append(batch("r6", nil), []byte(` {"sessionId":"x"}`)...),
			400, "INVALID_INPUT: request body has data after its JSON value"},
		{"trailing garbage", "PUT", "/api/sessions/" + sid, []byte(`{"title":"t"}garbage`), 400, "INVALID_INPUT: request body has data after"},
		{"collect for another session", "POST", "/api/items/" + iid + "/runtime-evidence/collect",
			[]byte(`{"sessionId":"` + other + `"}`), 404, "ITEM_NOT_FOUND:"},
		{"collect for an unknown session", "POST", "/api/items/" + iid + "/runtime-evidence/collect",
			[]byte(`{"sessionId":"nope"}`), 404, "SESSION_NOT_FOUND:"},
		{"after that is no number", "GET", "/api/device-actions?after=abc", nil, 400, "INVALID_INPUT: after must be"},
		{"negative after", "GET", "/api/device-actions?after=-1", nil, 400, "INVALID_INPUT: after must be"},
		{"control without serial", "PUT", "/api/agent-control", []byte(`{"serial":"","allowed":true}`), 422, "INVALID_INPUT: serial is required"},
		{"control without any serial", "PUT", "/api/agent-control", []byte(`{"allowed":false}`), 422, "INVALID_INPUT: serial is required"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body := env.raw(c.method, c.path, c.body, "If-Match", "*")
			var eb httpapi.ErrorBody
			_ = json.Unmarshal(body, &eb)
			if status != c.status || !strings.HasPrefix(eb.Message, c.prefix) {
				t.Fatalf("%s %s: %d %.300s, want %d %q", c.method, c.path, status, body, c.status, c.prefix)
			}
		})
	}
	// Nothing refused above was stored.
	var doc feedbackapi.SessionDoc
	env.mustJSON("GET", "/api/sessions/"+sid, nil, &doc)
	if n := len(doc.Session.Items); n != len(saved.Items) {
		t.Fatalf("session has %d items after the refusals, want %d", n, len(saved.Items))
	}
	// What the console sends is still accepted: an empty collect body, after=0.
	for _, ok := range []struct{ method, path string }{
		{"GET", "/api/device-actions?after=0"}, {"GET", "/api/device-actions"},
	} {
		if status, body := env.raw(ok.method, ok.path, nil); status != http.StatusOK {
			t.Fatalf("%s %s: %d %s", ok.method, ok.path, status, body)
		}
	}
}

// TestBatchStringFields puts a NUL byte and then a megabyte into every string
// field of a batch save in turn: each is refused with a clear 4xx error or
// stored exactly as sent, never a 5xx, and an error never quotes it whole.
func TestBatchStringFields(t *testing.T) {
	env := newTestEnv(t)
	sid := env.createSession("Fields")
	fr := env.freeze()
	card := fr.node(t, "trail_card_1")
	fields := []string{"sessionId", "frozenId", "workspaceId", "frozenFingerprint", "draftItemId", "severity", "comment",
		"target.type", "target.nodeUid", "snapshot.class", "snapshot.text", "snapshot.testTag", "snapshot.contentDescription",
		"snapshot.role", "snapshot.resourceId"}
	values := map[string]string{"nul": "a\x00b", "megabyte": strings.Repeat("m", 1<<20)}
	n := 0
	for _, field := range fields {
		for vname, v := range values {
			n++
			t.Run(field+"/"+vname, func(t *testing.T) {
				snap := map[string]any{"class": "android.view.View", "text": "Card"}
				target := map[string]any{"type": "node", "nodeUid": card.UID, "bounds": card.Bounds, "snapshot": snap}
				item := map[string]any{"draftItemId": fmt.Sprintf("f%d", n), "severity": "low", "comment": "Bigger", "target": target}
				b := map[string]any{"sessionId": sid, "frozenId": fr.FrozenID, "workspaceId": fmt.Sprintf("ws-%d", n),
					"frozenFingerprint": fr.Screen.Fingerprint, "items": []any{item}}
				key, sub, _ := strings.Cut(field, ".")
				switch key {
				case "target":
					target[sub] = v
				case "snapshot":
					snap[sub] = v
				case "draftItemId", "severity", "comment":
					item[key] = v
				default:
					b[key] = v
				}
				body, err := json.Marshal(b)
				if err != nil {
					t.Fatal(err)
				}
				status, resp := env.raw("POST", "/api/items/batch", body, "If-Match", "*")
				switch {
				case status >= 500:
					t.Fatalf("%d: %.300s", status, resp)
				case status >= 400:
					var eb httpapi.ErrorBody
					if err := json.Unmarshal(resp, &eb); err != nil || eb.Error == "" || len(resp) > maxErrorBody {
						t.Fatalf("%d: %d-byte answer %.300s", status, len(resp), resp)
					}
				default:
					var res batchResponse
					if err := json.Unmarshal(resp, &res); err != nil || len(res.Items) != 1 {
						t.Fatalf("%d: %.300s", status, resp)
					}
					got := res.Items[0]
					stored := map[string]string{"comment": got.Comment, "severity": string(got.Severity), "target.type": string(got.Target.Type),
						"target.nodeUid": got.Target.NodeUID}
					if got.Target.Snapshot != nil {
						s := got.Target.Snapshot
						for k, v := range map[string]string{"class": s.Class, "text": s.Text, "testTag": s.TestTag,
							"contentDescription": s.ContentDescription, "role": s.Role, "resourceId": s.ResourceID} {
							stored["snapshot."+k] = v
						}
					}
					if want, ok := stored[field]; ok && want != v {
						t.Fatalf("accepted but stored %d bytes, not the %d sent", len(want), len(v))
					}
				}
			})
		}
	}
}
