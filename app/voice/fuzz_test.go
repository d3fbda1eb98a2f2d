package voice

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"unicode/utf8"

	"fixthis/app/voice/realtime"
)

// FuzzServerEvent feeds one server frame, whatever it holds, to the interview:
// nothing panics, and what reaches the console stays within its bounds.
func FuzzServerEvent(f *testing.F) {
	for _, seed := range []string{
		`{"type":"response.output_audio_transcript.delta","item_id":"item_1","delta":"hello"}`,
		`{"type":"conversation.item.input_audio_transcription.completed","item_id":"i","transcript":"make it blue"}`,
		`{"type":"error","error":{"type":"server_error","code":"x","message":"Slow down\u001b[2J"}}`,
		`{"type":"response.function_call_arguments.done","call_id":"c1","name":"record_unit","arguments":"{\"statement\":\"\\ud800\"}"}`,
		`{"type":"response.function_call_arguments.done","call_id":"c2","name":"look_at_screen","arguments":"{}"}`,
		`{"type":"response.function_call_arguments.done","call_id":"c3","name":"x","arguments":"not json"}`,
		`{"type":"response.output_audio.delta","response_id":"r","delta":"AAAA"}`,
		`{"type":"input_audio_buffer.speech_started"}`,
		"{\"type\":\"response.output_text.done\",\"text\":\"\xff\"}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		ev, err := realtime.Decode(raw)
		if err != nil {
			return
		}
		rec := &recorder{}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		iv := &Interviewer{sink: rec, ctx: ctx, cancel: cancel, log: slog.New(slog.NewTextHandler(io.Discard, nil)),
			unitq: make(chan realtime.Event, 1), started: make(chan struct{}),
			doc: Session{VoiceSessionID: "v1", Mode: ModeCollect, SpokenReplies: true}}
		iv.unitSt.init()
		iv.conn = realtime.New(ctx, realtime.Options{}, upstream{iv}) // never started: nothing is written
		iv.handle(ev)
		rec.mu.Lock()
		defer rec.mu.Unlock()
		for _, tr := range rec.transcripts {
			if (!tr.Final && len(tr.Text) > maxLiveLine) || utf8.RuneCountInString(tr.Text) > maxFinalLine || len(tr.TurnID) > 4*maxID {
				t.Fatalf("transcript of %d bytes, turn id of %d", len(tr.Text), len(tr.TurnID))
			}
		}
		for _, e := range rec.errors {
			if utf8.RuneCountInString(e.Message) > maxEcho+20 || strings.ContainsAny(e.Message, "\x00\x1b\n") || len(e.Code) > 4*maxID {
				t.Fatalf("voice-error %q", e.Message)
			}
		}
		for _, a := range rec.audio {
			if len(a.PCM) > maxAudioDelta {
				t.Fatalf("audio of %d bytes", len(a.PCM))
			}
		}
		if n := len(iv.ToolCalls()); n > 1 {
			t.Fatalf("%d calls logged for one event", n)
		}
	})
}
