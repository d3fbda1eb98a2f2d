package app

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/jpeg"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"fixthis/app/errcode"
	"fixthis/app/feedback"
	"fixthis/app/talk"
	"fixthis/app/voice"
	"fixthis/internal/eventually"
	"fixthis/internal/realtimefake"
)

// memKeychain is an OS keychain in memory.
type memKeychain struct{ key string }

func (k *memKeychain) Get() (string, error) {
	if k.key == "" {
		return "", voice.ErrNoKey
	}
	return k.key, nil
}
func (k *memKeychain) Set(key string) error { k.key = key; return nil }
func (k *memKeychain) Delete() error        { k.key = ""; return nil }

type voiceEnv struct {
	*testEnv
	fake *realtimefake.Server
	keys *memKeychain
	logs *syncBuffer // everything the app logged
}

// syncBuffer is a log sink the test can read while the app's goroutines write to it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

const fakeKey = "sk-fixthis-test-0123456789"

// newVoiceEnv is a test app whose interviewer is the fake Realtime server.
func newVoiceEnv(t *testing.T, script realtimefake.Script, tweaks ...func(*Options)) *voiceEnv {
	t.Helper()
	return newVoiceEnvIn(t, t.TempDir(), script, tweaks...)
}

// newVoiceEnvIn is newVoiceEnv with dir as the project directory.
func newVoiceEnvIn(t *testing.T, dir string, script realtimefake.Script, tweaks ...func(*Options)) *voiceEnv {
	t.Helper()
	fake := realtimefake.New(realtimefake.Config{Key: fakeKey, Script: script})
	srv := httptest.NewServer(fake.Handler())
	t.Cleanup(srv.Close)
	keys := &memKeychain{}
	logs := &syncBuffer{}
	e := newTestEnvAt(t, dir, quietSim, append([]func(*Options){func(o *Options) {
		o.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		o.Voice = voice.Config{BaseURL: srv.URL + "/v1", Model: voice.DefaultModel, Voice: voice.DefaultVoice}
		o.VoiceKeys = voice.Keys{Getenv: func(string) string { return "" }, Keychain: keys}
	}}, tweaks...)...)
	return &voiceEnv{testEnv: e, fake: fake, keys: keys, logs: logs}
}

func (e *voiceEnv) newSession() string {
	var out struct{ SessionID string }
	e.mustJSON("POST", "/api/sessions", map[string]string{"title": "Voice"}, &out)
	return out.SessionID
}

func (e *voiceEnv) postAudio(id string, pcm []byte) apiResponse {
	e.t.Helper()
	resp, err := http.Post(e.srv.URL+"/api/voice/sessions/"+id+"/audio", "application/octet-stream", bytes.NewReader(pcm))
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return apiResponse{Status: resp.StatusCode, Body: body}
}

// pageNotes returns the [PAGE] texts the fake received, in order.
func (e *voiceEnv) pageNotes() []string {
	var out []string
	for _, r := range e.fake.ReceivedEvents() {
		if r.Type != "conversation.item.create" {
			continue
		}
		var ev struct {
			Item struct {
				Role    string
				Content []struct{ Type, Text string }
			}
		}
		_ = json.Unmarshal(r.Event, &ev)
		if ev.Item.Role == "system" && len(ev.Item.Content) > 0 && strings.HasPrefix(ev.Item.Content[0].Text, "[PAGE]") {
			out = append(out, ev.Item.Content[0].Text)
		}
	}
	return out
}

func TestVoiceKeyAndStartErrors(t *testing.T) {
	e := newVoiceEnv(t, realtimefake.Script{})
	sid := e.newSession()
	var st voice.Status
	e.mustJSON("GET", "/api/voice", nil, &st)
	if st.KeySet || st.KeySource != "" || !st.KeychainAvailable || st.Model != "gpt-realtime" || st.Voice != "marin" || st.Active != nil {
		t.Fatalf("status without a key: %+v", st)
	}
	r := e.do("POST", "/api/voice/sessions", map[string]any{"sessionId": sid}, nil)
	if r.Status != http.StatusPreconditionFailed || !strings.Contains(string(r.Body), `"voice_no_key"`) {
		t.Fatalf("start without a key: %d %s", r.Status, r.Body)
	}
	if r := e.do("PUT", "/api/voice/key", map[string]string{"key": "short"}, nil); r.Status != 422 {
		t.Fatalf("a malformed key: %d %s", r.Status, r.Body)
	}
	if r := e.do("PUT", "/api/voice/key", map[string]string{"key": "sk-wrong-0123456789abcdef"}, nil); r.Status != 204 {
		t.Fatalf("store a key: %d %s", r.Status, r.Body)
	}
	r = e.do("GET", "/api/voice", nil, nil)
	if strings.Contains(string(r.Body), "sk-wrong") || !strings.Contains(string(r.Body), `"keySource":"keychain"`) {
		t.Fatalf("status: %s", r.Body)
	}
	events := e.subscribe()
	r = e.do("POST", "/api/voice/sessions", map[string]any{"sessionId": sid}, nil)
	if r.Status != http.StatusBadGateway || !strings.Contains(string(r.Body), "OpenAI refused the key") || strings.Contains(string(r.Body), "sk-wrong") {
		t.Fatalf("start with a refused key: %d %s", r.Status, r.Body)
	}
	failed := events.next(5*time.Second, "voice-state", func(ev sseEvent) bool { return strings.Contains(string(ev.Data), `"failed"`) })
	if !strings.Contains(string(failed.Data), `"errorCode":"voice_key_refused"`) || strings.Contains(string(failed.Data), "sk-wrong") {
		t.Fatalf("voice-state: %s", failed.Data)
	}
	if r := e.do("DELETE", "/api/voice/key", nil, nil); r.Status != 204 || e.keys.key != "" {
		t.Fatalf("delete the key: %d", r.Status)
	}
	if strings.Contains(e.logs.String(), "sk-") {
		t.Fatalf("a key reached the log:\n%s", e.logs.String())
	}
	// The fake logs what it received: the refused key is nowhere in it either.
	got, _ := json.Marshal(e.fake.ReceivedEvents())
	if strings.Contains(string(got), "sk-wrong") {
		t.Fatal("the key travelled in an event")
	}
}

func TestVoiceSessionRoutes(t *testing.T) {
	e := newVoiceEnv(t, realtimefake.Script{})
	e.keys.key = fakeKey
	sid := e.newSession()
	events := e.subscribe()
	var vs voice.Session
	r := e.do("POST", "/api/voice/sessions", map[string]any{"sessionId": sid, "spokenReplies": false, "holder": "the desktop window"}, nil)
	if r.Status != http.StatusCreated {
		t.Fatalf("start: %d %s", r.Status, r.Body)
	}
	r.decode(t, &vs)
	if vs.State != voice.StateListening || vs.SpokenReplies || vs.Serial != e.sim.Serial() || vs.Holder != "the desktop window" {
		t.Fatalf("started session: %+v", vs)
	}
	events.next(5*time.Second, "voice-state", func(ev sseEvent) bool { return strings.Contains(string(ev.Data), `"listening"`) })

	// A holder is trimmed, never cut: one over 80 characters or with a control
	// character is refused whole (a byte cut could split the "é").
	for _, holder := range []string{strings.Repeat("é", 81), "a tab\x00", "a\ntab"} {
		r := e.do("POST", "/api/voice/sessions", map[string]any{"sessionId": sid, "holder": holder}, nil)
		if r.Status < 400 || r.Status == http.StatusConflict {
			t.Errorf("holder %q: %d %s", holder, r.Status, r.Body)
		}
	}

	r = e.do("POST", "/api/voice/sessions", map[string]any{"sessionId": sid, "holder": "a browser tab"}, nil)
	if r.Status != http.StatusConflict || !strings.Contains(string(r.Body), "VOICE_BUSY: the desktop window is already talking") {
		t.Fatalf("second console: %d %s", r.Status, r.Body)
	}

	if r := e.postAudio(vs.VoiceSessionID, make([]byte, 4800)); r.Status != 204 {
		t.Fatalf("audio: %d %s", r.Status, r.Body)
	}
	if r := e.postAudio(vs.VoiceSessionID, make([]byte, 48002)); r.Status != 413 {
		t.Fatalf("audio over 1 s: %d %s", r.Status, r.Body)
	}
	if r := e.postAudio(vs.VoiceSessionID, make([]byte, 4801)); r.Status != 422 {
		t.Fatalf("odd audio: %d %s", r.Status, r.Body)
	}
	if r := e.postAudio("vnope", make([]byte, 4800)); r.Status != 404 || !strings.Contains(string(r.Body), string(errcode.VoiceNotFound)) {
		t.Fatalf("audio to no session: %d %s", r.Status, r.Body)
	}
	// One streamed body is forwarded in 100 ms pieces.
	pr, pw := io.Pipe()
	go func() {
		for range 3 {
			_, _ = pw.Write(make([]byte, 4800))
			time.Sleep(20 * time.Millisecond)
		}
		pw.Close()
	}()
	req, _ := http.NewRequest("POST", e.srv.URL+"/api/voice/sessions/"+vs.VoiceSessionID+"/audio", pr)
	req.Header.Set("Content-Type", "application/octet-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 204 {
		t.Fatalf("streamed audio: %v %v", resp, err)
	}
	resp.Body.Close()
	// A streamed body that ends on half a sample is refused, not taken.
	pr, pw = io.Pipe()
	go func() {
		_, _ = pw.Write(make([]byte, 4801))
		pw.Close()
	}()
	req, _ = http.NewRequest("POST", e.srv.URL+"/api/voice/sessions/"+vs.VoiceSessionID+"/audio", pr)
	req.Header.Set("Content-Type", "application/octet-stream")
	resp, err = http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("streamed odd audio: %v %v", resp, err)
	}
	resp.Body.Close()
	eventually.True(t, 5*time.Second, "five audio chunks at the fake", func() bool {
		n, bytes := 0, 0
		for _, r := range e.fake.ReceivedEvents() {
			if r.Type == "input_audio_buffer.append" {
				n++
				bytes += r.Audio.Bytes
			}
		}
		return n == 5 && bytes == 5*4800
	})

	var upd voice.Session
	e.mustJSON("PUT", "/api/voice/sessions/"+vs.VoiceSessionID, map[string]bool{"muted": true, "spokenReplies": true}, &upd)
	if !upd.Muted || !upd.SpokenReplies {
		t.Fatalf("update: %+v", upd)
	}
	began := time.Now()
	if r := e.do("DELETE", "/api/voice/sessions/"+vs.VoiceSessionID, nil, nil); r.Status != 204 {
		t.Fatalf("stop: %d %s", r.Status, r.Body)
	}
	if d := time.Since(began); d > time.Second {
		t.Fatalf("stop took %s", d)
	}
	events.next(5*time.Second, "voice-state", func(ev sseEvent) bool { return strings.Contains(string(ev.Data), `"stopped"`) })
	var st voice.Status
	e.mustJSON("GET", "/api/voice", nil, &st)
	if st.Active != nil {
		t.Fatalf("still active after stop: %+v", st.Active)
	}
}

func TestVoiceAnchorsAnnounceTheNode(t *testing.T) {
	e := newVoiceEnv(t, realtimefake.Script{})
	e.keys.key = fakeKey
	sid := e.newSession()
	e.subscribe() // a watching console keeps the live preview running
	var vs voice.Session
	r := e.do("POST", "/api/voice/sessions", map[string]any{"sessionId": sid}, nil)
	r.decode(t, &vs)

	// Annotate: a node of a freeze, by uid.
	fr := e.freeze()
	card := fr.node(t, "trail_card_1")
	var a1 talk.VoiceAnchor
	e.mustJSON("POST", "/api/voice/sessions/"+vs.VoiceSessionID+"/anchors",
		map[string]any{"kind": "click", "mode": "annotate", "frozenId": fr.FrozenID, "nodeUid": card.UID}, &a1)
	if a1.AnchorID != "anchor_0001" || a1.NodeUID != card.UID {
		t.Fatalf("annotate anchor: %+v", a1)
	}
	// Annotate: an area over the card.
	var a2 talk.VoiceAnchor
	e.mustJSON("POST", "/api/voice/sessions/"+vs.VoiceSessionID+"/anchors",
		map[string]any{"kind": "area", "mode": "annotate", "frozenId": fr.FrozenID, "bounds": card.Bounds}, &a2)
	e.mustJSON("POST", "/api/preview/resume", nil, nil)

	// Select: the point of a live tap resolves from the tree kept for the screen.
	x, y := card.center()
	frozen, _ := e.app.device.Frozen(fr.FrozenID)
	want, ok := frozen.Snapshot.Tree.HitTest(x, y)
	if !ok {
		t.Fatal("nothing under the card's centre")
	}
	eventually.True(t, 10*time.Second, "the kept tree after resume", func() bool { return e.app.device.CurrentScreen(e.sim.Serial()) != nil })
	var a3 talk.VoiceAnchor
	e.mustJSON("POST", "/api/voice/sessions/"+vs.VoiceSessionID+"/anchors",
		map[string]any{"kind": "click", "mode": "select", "x": x, "y": y}, &a3)
	if a3.NodeUID != want.Node.UID || a3.AnchorID != "anchor_0003" {
		t.Fatalf("select click resolved to %+v, want %s", a3, want.Node.UID)
	}
	eventually.True(t, 5*time.Second, "three notes at the fake", func() bool { return len(e.pageNotes()) >= 3 })
	notes := e.pageNotes()
	if !strings.HasPrefix(notes[0], "[PAGE] The user clicked ") || !strings.Contains(notes[0], "trail_card_1") ||
		!strings.HasSuffix(notes[0], "(anchor id: anchor_0001).") {
		t.Fatalf("first note: %s", notes[0])
	}
	if !strings.HasPrefix(notes[1], "[PAGE] The user drew on an area of ") || !strings.Contains(notes[1], "anchor_0002") {
		t.Fatalf("area note: %s", notes[1])
	}
	if !strings.Contains(notes[2], voice.NodeDescription(want.Node, frozen.Snapshot.State.Activity)) || !strings.Contains(notes[2], "anchor_0003") {
		t.Fatalf("select note: %s", notes[len(notes)-1])
	}
	if r := e.do("POST", "/api/voice/sessions/"+vs.VoiceSessionID+"/anchors", map[string]any{"kind": "area", "mode": "select"}, nil); r.Status != 422 {
		t.Fatalf("area without bounds: %d", r.Status)
	}
	anchor := func(body map[string]any) apiResponse {
		return e.do("POST", "/api/voice/sessions/"+vs.VoiceSessionID+"/anchors", body, nil)
	}
	// Off the screen, by a point or an area reaching past its edge.
	w := frozen.Snapshot.Width
	for _, off := range []map[string]any{
		{"kind": "click", "mode": "annotate", "frozenId": fr.FrozenID, "x": w, "y": 10},
		{"kind": "click", "mode": "select", "x": 10, "y": -1},
		{"kind": "area", "mode": "annotate", "frozenId": fr.FrozenID, "bounds": map[string]int{"left": 0, "top": 0, "right": w + 1, "bottom": 10}},
	} {
		if r := anchor(off); r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "screen") {
			t.Errorf("anchor off the screen %v: %d %s", off, r.Status, r.Body)
		}
	}
	// A long serial and a long frozen id are quoted, not echoed whole.
	long := strings.Repeat("x", 5000)
	for _, body := range []map[string]any{
		{"kind": "screen", "mode": "select", "serial": long},
		{"kind": "screen", "mode": "annotate", "frozenId": long},
	} {
		if r := anchor(body); r.Status < 400 || strings.Contains(string(r.Body), long[:100]) || !strings.Contains(string(r.Body), "5000") {
			t.Errorf("long value echoed: %d %s", r.Status, r.Body)
		}
	}
	// A note counts characters, not bytes: 2,000 "é" are taken, 2,001 refused.
	if r := anchor(map[string]any{"kind": "screen", "mode": "select", "note": strings.Repeat("é", 2000)}); r.Status != 200 {
		t.Errorf("a 2,000-character note: %d %s", r.Status, r.Body)
	}
	if r := anchor(map[string]any{"kind": "screen", "mode": "select", "note": strings.Repeat("é", 2001)}); r.Status != http.StatusRequestEntityTooLarge {
		t.Errorf("a 2,001-character note: %d %s", r.Status, r.Body)
	}
}

// Without a freeze, a Select-mode click resolves from the tree captured in the
// background once the screen stood still.
func TestVoiceSelectClickUsesTheKeptTree(t *testing.T) {
	e := newVoiceEnv(t, realtimefake.Script{})
	e.keys.key = fakeKey
	sid := e.newSession()
	e.subscribe()
	var vs voice.Session
	e.do("POST", "/api/voice/sessions", map[string]any{"sessionId": sid}, nil).decode(t, &vs)
	eventually.True(t, 10*time.Second, "the kept tree", func() bool { return e.app.device.CurrentScreen(e.sim.Serial()) != nil })
	snap := e.app.device.CurrentScreen(e.sim.Serial()).Snapshot
	var x, y int
	for _, n := range snap.Nodes {
		if n.TestTag == "trail_card_1" {
			x, y = (n.Bounds.Left+n.Bounds.Right)/2, (n.Bounds.Top+n.Bounds.Bottom)/2
		}
	}
	want, _ := snap.Tree.HitTest(x, y)
	var a talk.VoiceAnchor
	e.mustJSON("POST", "/api/voice/sessions/"+vs.VoiceSessionID+"/anchors",
		map[string]any{"kind": "click", "mode": "select", "x": x, "y": y}, &a)
	if a.NodeUID == "" || a.NodeUID != want.Node.UID {
		t.Fatalf("select click resolved to %+v, want %s", a, want.Node.UID)
	}
	// The tap opens the trail: the old tree stops counting at the first changed
	// frame, and a new one is kept once the new screen stands still.
	e.mustJSON("POST", "/api/preview/tap", map[string]int{"x": x, "y": y}, nil)
	eventually.True(t, 10*time.Second, "the tree of the new screen", func() bool {
		now := e.app.device.CurrentScreen(e.sim.Serial())
		return now != nil && now.Snapshot != snap && now.Snapshot.Fingerprint.String() != snap.Fingerprint.String()
	})
}

// look_at_screen's frame is a kept screen of the phone (a new keep while none is
// current, the current one once a voice session keeps it), at most 1,280 px wide.
func TestVoiceLookGrabsThePhone(t *testing.T) {
	e := newVoiceEnv(t, realtimefake.Script{})
	serial := e.sim.Serial()
	if e.app.device.CurrentScreen(serial) != nil {
		t.Fatal("a current screen is kept before any voice session")
	}
	f, err := e.app.feedback.VoiceScreen().Look(context.Background(), serial)
	if err != nil {
		t.Fatal(err)
	}
	img, err := jpeg.Decode(bytes.NewReader(f.JPEG))
	if err != nil {
		t.Fatalf("not a JPEG: %v", err)
	}
	if w := img.Bounds().Dx(); w != f.Width || w > voice.MaxFrameWidth || w < 300 || !f.Fresh || time.Since(f.CapturedAt) > 5*time.Second {
		t.Fatalf("frame %dx%d fresh=%v", img.Bounds().Dx(), img.Bounds().Dy(), f.Fresh)
	}
	// A bare screencap knows no activity; a kept screen read the screen state with it.
	if f.Activity == "" {
		t.Error("the look names no activity: it was not a kept screen")
	}

	// With a current screen kept, the look is that screen: same activity, same
	// pixels, and no new keep on its path.
	e.keys.key = fakeKey
	sid := e.newSession()
	e.do("POST", "/api/voice/sessions", map[string]any{"sessionId": sid}, nil)
	eventually.True(t, 10*time.Second, "the kept screen", func() bool { return e.app.device.CurrentScreen(serial) != nil })
	kept := e.app.device.CurrentScreen(serial)
	want, err := feedback.EncodeLook(kept.Snapshot.Frame, kept.Snapshot.State.Activity, time.Now(), true)
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.app.feedback.VoiceScreen().Look(context.Background(), serial)
	if err != nil {
		t.Fatal(err)
	}
	if cur := e.app.device.CurrentScreen(serial); cur == kept && (!bytes.Equal(got.JPEG, want.JPEG) || got.Activity != kept.Snapshot.State.Activity) {
		t.Errorf("the look is not the current kept screen (activity %q, want %q)", got.Activity, kept.Snapshot.State.Activity)
	}
	wide := image.NewNRGBA(image.Rect(0, 0, 2400, 1080))
	if lf, err := feedback.EncodeLook(wide, ".Main", time.Now(), true); err != nil || lf.Width != voice.MaxFrameWidth || lf.Height != 576 {
		t.Fatalf("a landscape frame is sent %dx%d (%v)", lf.Width, lf.Height, err)
	}
}
