package app

import (
	"context"
	"strings"
	"testing"

	"fixthis/app/agentdevice"
	"fixthis/app/store"
)

// TestAgentPresenceAndControlRoutes: GET /api/agent answers the presence the store
// holds, and the control routes answer the state the user's answer leaves.
func TestAgentPresenceAndControlRoutes(t *testing.T) {
	env := newTestEnv(t)
	sid := env.createSession("Agents")

	var p store.Presence
	env.mustJSON("GET", "/api/agent?sessionId="+sid, nil, &p)
	if p.SessionID != sid || p.Presence != store.PresenceNone {
		t.Fatalf("presence before any agent: %+v, want none for %s", p, sid)
	}
	if _, err := env.store.SetPresence(context.Background(), sid, store.PresenceListening); err != nil {
		t.Fatal(err)
	}
	env.mustJSON("GET", "/api/agent?sessionId="+sid, nil, &p)
	if p.Presence != store.PresenceListening {
		t.Fatalf("presence after a wait: %+v, want listening", p)
	}

	serial := env.sim.Serial()
	var st agentdevice.ControlState
	env.mustJSON("GET", "/api/agent-control", nil, &st)
	if st.Serial != serial || st.Decided {
		t.Fatalf("control before an answer: %+v, want undecided for the selected %s", st, serial)
	}
	for _, allowed := range []bool{true, false} {
		env.mustJSON("PUT", "/api/agent-control", AgentControlRequest{Serial: serial, Allowed: &allowed}, &st)
		if st.Serial != serial || !st.Decided || st.Allowed != allowed {
			t.Fatalf("control answered allowed=%v: %+v", allowed, st)
		}
		env.mustJSON("GET", "/api/agent-control?serial="+serial, nil, &st)
		if !st.Decided || st.Allowed != allowed {
			t.Fatalf("control read back after allowed=%v: %+v", allowed, st)
		}
	}

	for _, tc := range []struct {
		name, method, path, body string
		status                   int
		prefix                   string
	}{
		{"no answer", "PUT", "/api/agent-control", `{"serial":"` + serial + `"}`, 422, "INVALID_INPUT: allowed (true or false) is required"},
		{"an unknown phone", "PUT", "/api/agent-control", `{"serial":"nope-1","allowed":true}`, 404, `"error":"device_not_found"`},
		{"a body that is no JSON", "PUT", "/api/agent-control", `{"serial":`, 400, "INVALID_INPUT: request body is not valid JSON"},
		{"an unknown phone read", "GET", "/api/agent-control?serial=nope-1", ``, 404, `"error":"device_not_found"`},
	} {
		var body []byte
		if tc.body != "" {
			body = []byte(tc.body)
		}
		status, out := env.raw(tc.method, tc.path, body)
		if status != tc.status || !strings.Contains(string(out), tc.prefix) {
			t.Errorf("%s: %d %.200s, want %d with %q", tc.name, status, out, tc.status, tc.prefix)
		}
	}
	// The refusals changed nothing.
	env.mustJSON("GET", "/api/agent-control?serial="+serial, nil, &st)
	if !st.Decided || st.Allowed {
		t.Errorf("control after the refusals: %+v, want the last answer (not allowed)", st)
	}
}
