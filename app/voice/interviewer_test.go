package voice

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"image"
	"image/jpeg"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"fixthis/app/errcode"
	"fixthis/internal/eventually"
	"fixthis/internal/realtimefake"
)

// recorder is a Sink that keeps everything it is told.
type recorder struct {
	mu          sync.Mutex
	states      []Session
	transcripts []Transcript
	speech      []Speech
	audio       []Audio
	errors      []ErrorEvent
	units       []Unit
	questions   []Question
}

func (r *recorder) State(s Session) { r.mu.Lock(); r.states = append(r.states, s); r.mu.Unlock() }
func (r *recorder) Transcript(t Transcript) {
	r.mu.Lock()
	r.transcripts = append(r.transcripts, t)
	r.mu.Unlock()
}
func (r *recorder) Speech(s Speech)    { r.mu.Lock(); r.speech = append(r.speech, s); r.mu.Unlock() }
func (r *recorder) Audio(a Audio)      { r.mu.Lock(); r.audio = append(r.audio, a); r.mu.Unlock() }
func (r *recorder) Error(e ErrorEvent) { r.mu.Lock(); r.errors = append(r.errors, e); r.mu.Unlock() }
func (r *recorder) Unit(u Unit)        { r.mu.Lock(); r.units = append(r.units, u); r.mu.Unlock() }
func (r *recorder) Question(q Question) {
	r.mu.Lock()
	r.questions = append(r.questions, q)
	r.mu.Unlock()
}
func (r *recorder) lastState() State {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.states) == 0 {
		return ""
	}
	return r.states[len(r.states)-1].State
}

// stopPromptly stops iv and fails the test unless Stop returned within a second
// with the session done, m free and Stopped the last state rec saw.
func stopPromptly(t *testing.T, m *Manager, iv *Interviewer, rec *recorder) {
	t.Helper()
	began := time.Now()
	iv.Stop()
	if d := time.Since(began); d > time.Second {
		t.Fatalf("Stop took %s", d)
	}
	select {
	case <-iv.Done():
	default:
		t.Fatal("session not done after Stop")
	}
	if m.Active() != nil || rec.lastState() != StateStopped {
		t.Fatalf("after Stop: active %v, state %s", m.Active(), rec.lastState())
	}
}

// memKeychain is a keychain in memory.
type memKeychain struct{ key string }

func (k *memKeychain) Get() (string, error) {
	if k.key == "" {
		return "", ErrNoKey
	}
	return k.key, nil
}
func (k *memKeychain) Set(key string) error { k.key = key; return nil }
func (k *memKeychain) Delete() error        { k.key = ""; return nil }

// stillScreen answers look_at_screen with one solid frame.
type stillScreen struct{ err error }

func (s stillScreen) Look(ctx context.Context, serial string) (Frame, error) {
	if s.err != nil {
		return Frame{}, s.err
	}
	var buf bytes.Buffer
	_ = jpeg.Encode(&buf, image.NewGray(image.Rect(0, 0, 108, 240)), nil)
	return Frame{JPEG: buf.Bytes(), Width: 108, Height: 240, Activity: ".Main", CapturedAt: time.Now(), Fresh: true}, nil
}

type harness struct {
	t    *testing.T
	fake *realtimefake.Server
	srv  *httptest.Server
	sink *recorder
	m    *Manager
	keys *memKeychain
	dir  string
}

func newHarness(t *testing.T, script realtimefake.Script, fakeKey string) *harness {
	t.Helper()
	fake := realtimefake.New(realtimefake.Config{Key: fakeKey, Script: script})
	srv := httptest.NewServer(fake.Handler())
	t.Cleanup(srv.Close)
	h := &harness{t: t, fake: fake, srv: srv, sink: &recorder{}, keys: &memKeychain{key: "sk-test-right"}, dir: t.TempDir()}
	h.m = NewManager(Options{
		Config: Config{BaseURL: srv.URL + "/v1", Model: DefaultModel, Voice: DefaultVoice},
		Keys:   Keys{Getenv: func(string) string { return "" }, Keychain: h.keys},
		Sink:   h.sink, Screen: stillScreen{}, DataDir: h.dir,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	t.Cleanup(h.m.StopAll)
	return h
}

func (h *harness) start() *Interviewer {
	h.t.Helper()
	iv, err := h.m.Start(StartRequest{SessionID: "s1", Serial: "sim-1", SpokenReplies: true, Holder: "the desktop window"})
	if err != nil {
		h.t.Fatal(err)
	}
	return iv
}

// received returns the client events the fake got, of the given types ("" for all).
func (h *harness) received(types ...string) []realtimefake.Received {
	var out []realtimefake.Received
	for _, r := range h.fake.ReceivedEvents() {
		if len(types) == 0 || slices.Contains(types, r.Type) {
			out = append(out, r)
		}
	}
	return out
}

func (h *harness) waitReceived(what string, cond func([]realtimefake.Received) bool) []realtimefake.Received {
	h.t.Helper()
	return eventually.Get(h.t, 5*time.Second, what, func() []realtimefake.Received { return h.received() }, cond, func(got []realtimefake.Received) string {
		types := make([]string, len(got))
		for i, r := range got {
			types[i] = r.Type
		}
		return "the fake received " + strings.Join(types, " ")
	})
}

// itemText is the text of a received conversation.item.create's first text part.
func itemText(r realtimefake.Received) string {
	var ev struct {
		Item struct {
			Type, Role string
			Content    []struct{ Type, Text string }
		}
	}
	_ = json.Unmarshal(r.Event, &ev)
	for _, c := range ev.Item.Content {
		if c.Type == "input_text" {
			return c.Text
		}
	}
	return ""
}

func TestStartSendsThePinnedSessionUpdate(t *testing.T) {
	h := newHarness(t, realtimefake.Script{}, "sk-test-right")
	_ = os.WriteFile(h.dir+"/"+BriefFile, []byte("The app is a hiking planner. Speak German."), 0o600)
	iv := h.start()
	if iv.Doc().State != StateListening {
		t.Fatalf("state after start: %s", iv.Doc().State)
	}
	got := h.received("session.update")
	if len(got) != 1 {
		t.Fatalf("%d session.update events", len(got))
	}
	// The golden file has the spoken variant without a brief; build the expected bytes
	// the same way, with this brief, and compare byte for byte.
	want, _ := SessionUpdate(DefaultVoice, "The app is a hiking planner. Speak German.", true)
	if string(got[0].Event) != string(want) {
		t.Fatalf("sent session.update:\n%s\nwant:\n%s", got[0].Event, want)
	}
	if !strings.Contains(string(got[0].Event), `[SESSION BRIEF]\nThe app is a hiking planner.`) {
		t.Fatal("the brief is not in the instructions")
	}
}

func TestNoKeyAndRefusedKeyStartNothing(t *testing.T) {
	h := newHarness(t, realtimefake.Script{}, "sk-test-right")
	h.keys.key = ""
	_, err := h.m.Start(StartRequest{Holder: "x"})
	if errcode.Of(err) != errcode.VoiceNoKey || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
		t.Fatalf("no key: %v", err)
	}
	h.keys.key = "sk-test-wrong-key-123"
	_, err = h.m.Start(StartRequest{Holder: "x"})
	if errcode.Of(err) != errcode.VoiceKeyRefused || !strings.Contains(err.Error(), "OpenAI refused the key") || strings.Contains(err.Error(), "sk-test-wrong") {
		t.Fatalf("wrong key: %v", err)
	}
	if h.sink.lastState() != StateFailed || h.sink.states[len(h.sink.states)-1].ErrorCode != string(errcode.VoiceKeyRefused) {
		t.Fatalf("voice-state after a 401: %+v", h.sink.states)
	}
	if h.m.Active() != nil || len(h.fake.Connects()) != 0 {
		t.Fatal("a refused start left a session behind")
	}
	_ = os.WriteFile(h.dir+"/"+BriefFile, []byte("token: abcdef123456"), 0o600)
	h.keys.key = "sk-test-right"
	if _, err := h.m.Start(StartRequest{Holder: "x"}); errcode.Of(err) != errcode.VoiceBriefRefused || strings.Contains(err.Error(), "abcdef") {
		t.Fatalf("secret brief: %v", err)
	}
}

func TestSecondConsoleIsBusyAndStopIsQuick(t *testing.T) {
	h := newHarness(t, realtimefake.Script{}, "")
	iv := h.start()
	_, err := h.m.Start(StartRequest{Holder: "a browser console"})
	if errcode.Of(err) != errcode.VoiceBusy || !strings.Contains(err.Error(), "the desktop window") {
		t.Fatalf("second start: %v", err)
	}
	stopPromptly(t, h.m, iv, h.sink)
	h.start() // the project is free again
}

func TestAudioReachesTheFakeAndSpeechComesBack(t *testing.T) {
	script := realtimefake.Script{Turns: []realtimefake.Turn{{Transcript: "make the header darker",
		Responses: []realtimefake.Response{{Text: "Which header?", AudioMs: 200}}}}}
	h := newHarness(t, script, "")
	iv := h.start()
	chunk := func(ms int, loud bool) []byte {
		b := make([]byte, ms*SampleRate/1000*2)
		if loud {
			for i := 0; i+1 < len(b); i += 2 {
				v := int16(8000)
				if (i/2/40)%2 == 0 {
					v = -8000
				}
				b[i], b[i+1] = byte(v), byte(v>>8)
			}
		}
		return b
	}
	for range 5 {
		iv.Audio(chunk(200, false))
	}
	for range 5 {
		iv.Audio(chunk(200, true))
	}
	for range 5 {
		iv.Audio(chunk(200, false))
	}
	h.waitReceived("15 chunks", func(r []realtimefake.Received) bool {
		n := 0
		for _, e := range r {
			if e.Type == "input_audio_buffer.append" {
				n++
			}
		}
		return n == 15
	})
	eventually.True(t, 5*time.Second, "the interviewer's reply", func() bool {
		h.sink.mu.Lock()
		defer h.sink.mu.Unlock()
		return len(h.sink.audio) > 0 && len(h.sink.transcripts) >= 2 && h.sink.transcripts[len(h.sink.transcripts)-1].Final &&
			h.sink.transcripts[len(h.sink.transcripts)-1].Role == RoleInterviewer
	})
	h.sink.mu.Lock()
	defer h.sink.mu.Unlock()
	if len(h.sink.speech) != 2 || !h.sink.speech[0].Speaking || h.sink.speech[1].Speaking {
		t.Fatalf("speech edges: %+v", h.sink.speech)
	}
	var finals []string
	for _, tr := range h.sink.transcripts {
		if tr.Final {
			finals = append(finals, string(tr.Role)+": "+tr.Text)
		}
	}
	if strings.Join(finals, " | ") != "riffer: make the header darker | interviewer: Which header?" {
		t.Fatalf("final transcript lines: %v", finals)
	}
	if pcm, _ := base64.StdEncoding.DecodeString(h.sink.audio[0].PCM); len(pcm) == 0 {
		t.Fatal("reply audio is empty")
	}
	spans := h.fake.Speech()
	if len(spans) != 1 || spans[0].StartMs != 1000 || spans[0].EndMs != 2000 {
		t.Fatalf("the fake heard %+v", spans)
	}
}

func TestMutedAudioIsDropped(t *testing.T) {
	h := newHarness(t, realtimefake.Script{}, "")
	iv := h.start()
	muted := true
	iv.Update(&muted, nil, nil)
	iv.Audio(make([]byte, 4800))
	h.waitReceived("the mute note", func(r []realtimefake.Received) bool {
		for _, e := range r {
			if strings.Contains(itemText(e), "muted their microphone") {
				return true
			}
		}
		return false
	})
	if n := len(h.received("input_audio_buffer.append")); n != 0 || iv.Stats().AudioDropped != 1 {
		t.Fatalf("muted audio went up: %d chunks, stats %+v", n, iv.Stats())
	}
}

func TestUpstreamErrorIsShownAndSurvived(t *testing.T) {
	h := newHarness(t, realtimefake.Script{}, "")
	iv := h.start()
	h.fake.SendError("rate_limit_exceeded", "Slow down")
	eventually.True(t, 5*time.Second, "the voice-error", func() bool {
		h.sink.mu.Lock()
		defer h.sink.mu.Unlock()
		return len(h.sink.errors) == 1 && h.sink.errors[0].Code == "rate_limit_exceeded" && h.sink.errors[0].Message == "Slow down"
	})
	if iv.Doc().State != StateListening {
		t.Fatalf("state after an upstream error: %s", iv.Doc().State)
	}
	if _, err := iv.Announce(Pointing{Kind: AnchorScreen}); err != nil {
		t.Fatalf("announce after an upstream error: %v", err)
	}
}

var errNoFrame = errors.New("adb -s emulator-5554 (sim-1): screencap to /home/dev/.fixthis/tmp failed: the preview is paused")
