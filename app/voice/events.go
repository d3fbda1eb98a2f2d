package voice

import (
	"slices"
	"strings"
	"time"

	"fixthis/app/errcode"
	"fixthis/app/voice/realtime"
)

// handle is one server event of the live connection. response.created and
// response.done are the connection's business (the response gate); the rest is
// the interview's.
func (iv *Interviewer) handle(ev realtime.Event) {
	id := iv.ID()
	switch ev.Type {
	case "input_audio_buffer.speech_started":
		iv.speechEdge(true)
		iv.sink.Speech(Speech{VoiceSessionID: id, Speaking: true})
	case "input_audio_buffer.speech_stopped":
		iv.speechEdge(false)
		iv.sink.Speech(Speech{VoiceSessionID: id, Speaking: false})
	case "conversation.item.input_audio_transcription.delta":
		iv.partialLine(RoleRiffer, ev.ItemID, ev.Delta)
	case "conversation.item.input_audio_transcription.completed":
		iv.finalLine(RoleRiffer, ev.ItemID, ev.Transcript)
	case "response.output_audio_transcript.delta", "response.output_text.delta":
		iv.partialLine(RoleInterviewer, ev.ItemID, ev.Delta)
	case "response.output_audio_transcript.done":
		iv.finalLine(RoleInterviewer, ev.ItemID, ev.Transcript)
	case "response.output_text.done":
		iv.finalLine(RoleInterviewer, ev.ItemID, ev.Text)
	case "response.output_audio.delta":
		iv.mu.Lock()
		spoken := iv.doc.SpokenReplies
		iv.mu.Unlock()
		switch {
		case len(ev.Delta) > maxAudioDelta:
			iv.log.Warn("voice: oversized reply audio dropped", "bytes", len(ev.Delta))
		case spoken:
			iv.sink.Audio(Audio{VoiceSessionID: id, ResponseID: clipID(ev.ResponseID), PCM: ev.Delta})
		}
	case "response.function_call_arguments.done":
		iv.toolCall(ev)
	case "error":
		if ev.Error != nil {
			code := ev.Error.Code
			if code == "" {
				code = ev.Error.Type
			}
			iv.sink.Error(ErrorEvent{VoiceSessionID: id, Code: clipID(code), Message: echo(ev.Error.Message)})
		}
	}
}

func (iv *Interviewer) partialLine(role Role, itemID, delta string) {
	if delta == "" {
		return
	}
	itemID = clipID(itemID)
	iv.mu.Lock()
	text := iv.lines.grow(itemID, delta)
	id := iv.doc.VoiceSessionID
	iv.mu.Unlock()
	iv.sink.Transcript(Transcript{VoiceSessionID: id, Role: role, Text: text, Final: false, TurnID: itemID})
}

func (iv *Interviewer) finalLine(role Role, itemID, text string) {
	itemID = clipID(itemID)
	text = clip(text, maxFinalLine)
	iv.mu.Lock()
	iv.lines.end(itemID)
	id := iv.doc.VoiceSessionID
	if t := strings.TrimSpace(text); t != "" {
		if role == RoleRiffer {
			iv.unitSt.lastRiffer = t
		}
		iv.lines.remember(string(role) + ": " + clip(oneLine(t), 200))
	}
	iv.mu.Unlock()
	iv.sink.Transcript(Transcript{VoiceSessionID: id, Role: role, Text: text, Final: true, TurnID: itemID})
}

// reconnectItem re-seeds a replacement connection.
func reconnectItem(recent []string) []byte {
	note := "[RECONNECT] Your connection was replaced mid-session. The conversation before this note is gone from this connection: anchor ids start again at anchor_0001, and ids from before mean nothing now. Keep listening; if you need something the riffer said before, ask them to repeat it."
	if len(recent) > 0 {
		note += " The last lines before the break were:\n" + strings.Join(recent, "\n")
	}
	return systemItem(note)
}

// maxNote is the most characters a screen note holds.
const maxNote = 2000

// Announce tells the interviewer about a click, drag or screen note, and returns
// its anchor. The same thing again within a second refreshes the anchor silently.
// A note that is not strict text, carries a control character or is longer than
// maxNote characters is refused.
func (iv *Interviewer) Announce(p Pointing) (Anchor, error) {
	if err := checkText("note", p.Note, maxNote, true); err != nil {
		return Anchor{}, err
	}
	now := time.Now()
	iv.mu.Lock()
	iv.touched = now
	if iv.conn.Number() == 0 {
		st := iv.doc.State
		iv.mu.Unlock()
		if st == StateConnecting {
			return Anchor{}, errcode.New(errcode.VoiceReconnecting, "the interviewer is still connecting; the click was not announced, try again in a moment")
		}
		return Anchor{}, errcode.New(errcode.VoiceReconnecting, "the interviewer is reconnecting; the click was not announced, try again in a moment")
	}
	a, announce := iv.anchors.add(p, now)
	iv.mu.Unlock()
	if announce && !iv.conn.SendItem(systemItem(a.Note)) {
		return a, errcode.New(errcode.VoiceReconnecting, "the connection to the interviewer dropped; the click was not announced")
	}
	return a, nil
}

// Anchors returns the anchors announced in this session, oldest first.
func (iv *Interviewer) Anchors() []Anchor {
	iv.mu.Lock()
	defer iv.mu.Unlock()
	return iv.anchors.all()
}

// Update changes mute, spoken replies and the mode; the interviewer hears of a
// mute change. A mode that is not one of Modes is refused.
func (iv *Interviewer) Update(muted, spoken *bool, mode *Mode) (Session, error) {
	if mode != nil && !slices.Contains(Modes, *mode) {
		return iv.Doc(), errcode.New(errcode.InvalidInput, "mode must be instant, smart or collect, not %s", errcode.Quote(string(*mode)))
	}
	iv.mu.Lock()
	iv.touched = time.Now()
	modeChanged := mode != nil && *mode != iv.doc.Mode
	if modeChanged {
		iv.doc.Mode = *mode
	}
	var note string
	if muted != nil && *muted != iv.doc.Muted {
		iv.doc.Muted = *muted
		note = "[PAGE] The user unmuted their microphone."
		if *muted {
			note = "[PAGE] The user muted their microphone; expect silence."
		}
	}
	spokenChanged := spoken != nil && *spoken != iv.doc.SpokenReplies
	if spokenChanged {
		iv.doc.SpokenReplies = *spoken
	}
	doc := iv.doc
	iv.mu.Unlock()
	if spokenChanged {
		if msg, err := ModalitiesUpdate(doc.SpokenReplies); err == nil {
			iv.write(msg)
		}
	}
	if note != "" {
		iv.conn.SendItem(systemItem(note))
	}
	if note != "" || spokenChanged || modeChanged {
		iv.sink.State(doc)
	}
	if modeChanged && doc.Mode == ModeInstant {
		iv.checkpoint("mode") // switching to instant hands off what waited
	}
	return doc, nil
}
