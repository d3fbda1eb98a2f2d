package voice

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"fixthis/app/errcode"
	"fixthis/internal/eventually"
	"fixthis/internal/realtimefake"

	"github.com/gorilla/websocket"
)

// Starting Talk answers while an upstream that accepted the socket says nothing:
// the session is visible as connecting, and Stop ends the connect.
func TestStartAnswersWhileUpstreamIsSilent(t *testing.T) {
	p := newHostilePeer(t, func(ws *websocket.Conn) bool {
		_, _, _ = ws.ReadMessage() // nothing, until the client goes
		return false
	})
	rec := &recorder{}
	m := p.manager(rec, nil)
	began := time.Now()
	iv, err := m.Start(StartRequest{SessionID: "s1", Serial: "sim-1", Holder: "the desktop window"})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(began); d > startWait+time.Second {
		t.Fatalf("Start took %s with a silent upstream", d)
	}
	if iv.Doc().State != StateConnecting {
		t.Fatalf("state %s, want connecting", iv.Doc().State)
	}
	st := m.Status()
	if st.Active == nil || st.Active.State != StateConnecting || st.Active.VoiceSessionID != iv.ID() {
		t.Fatalf("status while connecting: %+v", st.Active)
	}
	if got, err := m.Get(iv.ID()); err != nil || got != iv {
		t.Fatalf("Get while connecting: %v", err)
	}
	if _, err := m.Start(StartRequest{Holder: "a browser console"}); errcode.Of(err) != errcode.VoiceBusy || !strings.Contains(err.Error(), "the desktop window") {
		t.Fatalf("a second start while connecting: %v", err)
	}
	if _, err := iv.Announce(Pointing{Kind: AnchorScreen, Note: "x"}); errcode.Of(err) != errcode.VoiceReconnecting || !strings.Contains(err.Error(), "connecting") {
		t.Fatalf("announce while connecting: %v", err)
	}
	stopPromptly(t, m, iv, rec)
}

// An upstream that refuses the session with a megabyte of message: the start's
// error and voice-state quote a few dozen characters of it.
func TestSessionRefusalIsQuotedShort(t *testing.T) {
	huge := strings.Repeat("refused ", 1<<17)
	p := newHostilePeer(t, func(ws *websocket.Conn) bool {
		send(t, ws, map[string]any{"type": "error", "error": map[string]any{"type": "invalid_request_error", "code": "x", "message": huge}})
		_, _, _ = ws.ReadMessage()
		return false
	})
	rec := &recorder{}
	_, err := p.manager(rec, nil).Start(StartRequest{Holder: "x"})
	if errcode.Of(err) != errcode.VoiceUpstream || len(err.Error()) > 300 || !strings.Contains(err.Error(), "refused refused") {
		t.Fatalf("start error (%d bytes): %.300s", len(err.Error()), err)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	last := rec.states[len(rec.states)-1]
	if last.State != StateFailed || len(last.Message) > 300 {
		t.Fatalf("voice-state %s with a %d-byte message", last.State, len(last.Message))
	}
}

// Upstream error events mid-session reach voice-error short and on one line.
func TestUpstreamErrorsAreEchoedShort(t *testing.T) {
	p := newHostilePeer(t, nil)
	rec := &recorder{}
	p.manager(rec, nil).Start(StartRequest{Holder: "x"})
	ws := p.next()
	msg := "Slow\x1b[2J down\n" + strings.Repeat("é", 1<<19)
	send(t, ws, map[string]any{"type": "error", "error": map[string]any{"type": "invalid_request_error", "code": strings.Repeat("c", 1<<20), "message": msg}})
	eventually.True(t, 5*time.Second, "the voice-error", func() bool { rec.mu.Lock(); defer rec.mu.Unlock(); return len(rec.errors) == 1 })
	e := rec.errors[0]
	if utf8.RuneCountInString(e.Message) > maxEcho+20 || len(e.Code) > maxID+20 || strings.ContainsAny(e.Message, "\x1b\n") ||
		!strings.HasPrefix(e.Message, "Slow [2J down é") || !strings.HasSuffix(e.Message, "bytes)") {
		t.Fatalf("voice-error: code %d bytes, message %q", len(e.Code), e.Message)
	}
}

// Tool calls: oversized arguments are refused and not kept, a burst past the
// budget is refused with rate_limited, the log keeps only the newest calls.
func TestToolCallsAreBoundedAndRateLimited(t *testing.T) {
	p := newHostilePeer(t, nil)
	m := p.manager(&recorder{}, nil)
	iv, _ := m.Start(StartRequest{Holder: "x"})
	ws := p.next()
	send(t, ws, toolCall("call_big", "record_unit", `{"statement":"`+strings.Repeat("a", 1<<20)+`"}`))
	for i := range 40 {
		send(t, ws, toolCall(fmt.Sprintf("call_%d", i), "no_such_tool", `{}`))
	}
	eventually.True(t, 5*time.Second, "41 answers", func() bool { n, _ := p.answered(); return n == 41 })
	_, reasons := p.answered()
	if reasons["too_large"] != 1 || reasons["rate_limited"] < 15 || reasons["unknown_tool"] < callBurst-1 ||
		reasons["rate_limited"]+reasons["unknown_tool"] != 40 {
		t.Fatalf("answers by reason: %v", reasons)
	}
	calls := iv.ToolCalls()
	for _, c := range calls {
		if len(c.Arguments) > maxArguments {
			t.Fatalf("a call kept %d bytes of arguments", len(c.Arguments))
		}
	}
	if len(calls) != keptCalls || calls[len(calls)-1].CallID != "call_39" {
		t.Fatalf("%d calls kept, newest %s", len(calls), calls[len(calls)-1].CallID)
	}
}

// A live transcript line of two megabytes: every voice-transcript carries at most
// maxLiveLine bytes, its newest part; the final line is clipped too.
func TestLiveTranscriptStaysSmall(t *testing.T) {
	p := newHostilePeer(t, nil)
	rec := &recorder{}
	p.manager(rec, nil).Start(StartRequest{Holder: "x"})
	ws := p.next()
	const deltas = 2048 // of 1 KB each
	for i := range deltas {
		delta := fmt.Sprintf("%04d", i) + strings.Repeat("ü", 510)
		send(t, ws, map[string]any{"type": "response.output_audio_transcript.delta", "item_id": "item_1", "delta": delta})
	}
	send(t, ws, map[string]any{"type": "response.output_audio_transcript.done", "item_id": "item_1", "transcript": strings.Repeat("w", 1<<20)})
	eventually.True(t, 5*time.Second, "the final line", func() bool {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		return len(rec.transcripts) == deltas+1
	})
	total := 0
	for i, tr := range rec.transcripts[:deltas] {
		total += len(tr.Text)
		if len(tr.Text) > maxLiveLine || !utf8.ValidString(tr.Text) || !strings.Contains(tr.Text, fmt.Sprintf("%04d", i)) {
			t.Fatalf("event %d: %d bytes", i, len(tr.Text))
		}
	}
	if total > deltas*maxLiveLine {
		t.Fatalf("%d bytes of partial lines sent", total)
	}
	if final := rec.transcripts[deltas]; !final.Final || utf8.RuneCountInString(final.Text) > maxFinalLine {
		t.Fatalf("final line of %d characters", utf8.RuneCountInString(final.Text))
	}
}

// Reply audio past maxAudioDelta in one event is dropped, not passed to consoles.
func TestOversizedReplyAudioIsDropped(t *testing.T) {
	p := newHostilePeer(t, nil)
	rec := &recorder{}
	p.manager(rec, nil).Start(StartRequest{Holder: "x", SpokenReplies: true})
	ws := p.next()
	send(t, ws, map[string]any{"type": "response.output_audio.delta", "response_id": "resp_1", "delta": strings.Repeat("AAAA", 1<<18)})
	send(t, ws, map[string]any{"type": "response.output_audio.delta", "response_id": "resp_1", "delta": "AAAA"})
	eventually.True(t, 5*time.Second, "the small chunk", func() bool { rec.mu.Lock(); defer rec.mu.Unlock(); return len(rec.audio) > 0 })
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.audio) != 1 || rec.audio[0].PCM != "AAAA" {
		t.Fatalf("%d audio events, first %d bytes", len(rec.audio), len(rec.audio[0].PCM))
	}
}

// countingScreen is a Screen that takes a while and counts its captures.
type countingScreen struct {
	stillScreen
	n atomic.Int32
}

func (s *countingScreen) Look(ctx context.Context, serial string) (Frame, error) {
	s.n.Add(1)
	time.Sleep(200 * time.Millisecond)
	return s.stillScreen.Look(ctx, serial)
}

// A burst of look_at_screen calls makes one capture and sends one image.
func TestLookBurstSharesOneCapture(t *testing.T) {
	h := newHarness(t, realtimefake.Script{}, "")
	screen := &countingScreen{}
	h.m.opts.Screen = screen
	iv := h.start()
	var wg sync.WaitGroup
	results := make([]lookResult, 50)
	for i := range results {
		wg.Add(1)
		go func() { defer wg.Done(); results[i] = iv.attachScreen() }()
	}
	wg.Wait()
	if n := screen.n.Load(); n != 1 {
		t.Fatalf("%d captures for a burst of 50 looks", n)
	}
	fresh := 0
	for _, r := range results {
		if !r.OK || r.FrameID != "frame_0001" {
			t.Fatalf("look: %+v", r)
		}
		if *r.Fresh {
			fresh++
		}
	}
	time.Sleep(100 * time.Millisecond)
	if n := len(h.received("conversation.item.create")); n != 1 || fresh != 1 {
		t.Fatalf("%d images sent, %d answers fresh", n, fresh)
	}
}

// Audio faster than real time is paced once it runs audioAhead ahead: a minute
// and two seconds sent at once take about two; once real time caught up, audio
// never waits.
func TestAudioIsPacedToRealTime(t *testing.T) {
	h := newHarness(t, realtimefake.Script{}, "")
	iv := h.start()
	second := make([]byte, 2*SampleRate)
	began := time.Now()
	for range 62 {
		iv.Audio(second)
	}
	want := 62*time.Second - audioAhead
	if d := time.Since(began); d < want-200*time.Millisecond || d > want+time.Second {
		t.Fatalf("62 s of audio at once took %s, want about %s", d, want)
	}
	iv.mu.Lock()
	iv.audioClock = time.Now() // as if real time had caught up
	iv.mu.Unlock()
	began = time.Now()
	iv.Audio(second)
	if d := time.Since(began); d > 50*time.Millisecond {
		t.Fatalf("audio within the allowance waited %s", d)
	}
}
