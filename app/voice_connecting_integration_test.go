package app

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"fixthis/app/voice"
	"fixthis/internal/realtimefake"
)

// Talk against an upstream that accepts the socket and then says nothing: the
// start answers with the session connecting, GET /api/voice shows it, and DELETE
// ends the connect.
func TestVoiceStartAnswersWhileUpstreamIsSilent(t *testing.T) {
	silent := httptest.NewServer(realtimefake.New(realtimefake.Config{Silent: true}).Handler())
	t.Cleanup(silent.Close)
	e := newVoiceEnv(t, realtimefake.Script{}, func(o *Options) {
		o.Voice = voice.Config{BaseURL: silent.URL + "/v1", Model: voice.DefaultModel, Voice: voice.DefaultVoice}
	})
	e.keys.key = fakeKey
	sid := e.newSession()
	began := time.Now()
	r := e.do("POST", "/api/voice/sessions", map[string]any{"sessionId": sid, "holder": "the desktop window"}, nil)
	took := time.Since(began)
	var vs voice.Session
	if r.Status != http.StatusCreated {
		t.Fatalf("start: %d %s", r.Status, r.Body)
	}
	r.decode(t, &vs)
	if vs.State != voice.StateConnecting || took > 4*time.Second {
		t.Fatalf("start answered %s after %s", vs.State, took)
	}
	var st voice.Status
	e.mustJSON("GET", "/api/voice", nil, &st)
	if st.Active == nil || st.Active.State != voice.StateConnecting || st.Active.VoiceSessionID != vs.VoiceSessionID {
		t.Fatalf("status while connecting: %+v", st.Active)
	}
	if r := e.do("POST", "/api/voice/sessions", map[string]any{"sessionId": sid, "holder": "a browser tab"}, nil); r.Status != http.StatusConflict {
		t.Fatalf("a second console while connecting: %d %s", r.Status, r.Body)
	}
	began = time.Now()
	if r := e.do("DELETE", "/api/voice/sessions/"+vs.VoiceSessionID, nil, nil); r.Status != http.StatusNoContent || time.Since(began) > 2*time.Second {
		t.Fatalf("stop while connecting: %d after %s", r.Status, time.Since(began))
	}
	e.mustJSON("GET", "/api/voice", nil, &st)
	if st.Active != nil {
		t.Fatalf("still active after stop: %+v", st.Active)
	}
}
