package voice

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"fixthis/app/errcode"

	"github.com/gorilla/websocket"
)

// serverEvent holds the fields of the Realtime server events the interviewer uses.
type serverEvent struct {
	Type       string `json:"type"`
	ItemID     string `json:"item_id"`
	ResponseID string `json:"response_id"`
	Delta      string `json:"delta"`
	Transcript string `json:"transcript"`
	Text       string `json:"text"`
	CallID     string `json:"call_id"`
	Name       string `json:"name"`
	Arguments  string `json:"arguments"`
	Response   *struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	} `json:"response"`
	Error *struct {
		Type    string `json:"type"`
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// read handles server events until the connection fails.
func (iv *Interviewer) read(ws *websocket.Conn) error {
	for {
		_, raw, err := ws.ReadMessage()
		if err != nil {
			return scrub(err)
		}
		var ev serverEvent
		if err := json.Unmarshal(raw, &ev); err != nil {
			iv.log.Warn("voice: unreadable server event", "bytes", len(raw))
			continue
		}
		iv.handle(ev)
	}
}

func (iv *Interviewer) handle(ev serverEvent) {
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
		if spoken {
			iv.sink.Audio(Audio{VoiceSessionID: id, ResponseID: ev.ResponseID, PCM: ev.Delta})
		}
	case "response.created":
		iv.mu.Lock()
		iv.responding = true
		iv.mu.Unlock()
	case "response.done":
		iv.responseDone()
	case "response.function_call_arguments.done":
		iv.toolCall(ev)
	case "error":
		if ev.Error != nil {
			code := ev.Error.Code
			if code == "" {
				code = ev.Error.Type
			}
			iv.sink.Error(ErrorEvent{VoiceSessionID: id, Code: code, Message: ev.Error.Message})
		}
	}
}

func (iv *Interviewer) partialLine(role Role, itemID, delta string) {
	if delta == "" {
		return
	}
	iv.mu.Lock()
	text := iv.partial[itemID] + delta
	iv.partial[itemID] = text
	id := iv.doc.VoiceSessionID
	iv.mu.Unlock()
	iv.sink.Transcript(Transcript{VoiceSessionID: id, Role: role, Text: text, Final: false, TurnID: itemID})
}

// keptRecent is how many final lines the [RECONNECT] note repeats.
const keptRecent = 6

func (iv *Interviewer) finalLine(role Role, itemID, text string) {
	iv.mu.Lock()
	delete(iv.partial, itemID)
	id := iv.doc.VoiceSessionID
	if t := strings.TrimSpace(text); t != "" && role == RoleRiffer {
		iv.unitSt.lastRiffer = t
	}
	if t := strings.TrimSpace(text); t != "" {
		iv.recent = append(iv.recent, string(role)+": "+clip(oneLine(t), 200))
		if len(iv.recent) > keptRecent {
			iv.recent = iv.recent[len(iv.recent)-keptRecent:]
		}
	}
	iv.mu.Unlock()
	iv.sink.Transcript(Transcript{VoiceSessionID: id, Role: role, Text: text, Final: true, TurnID: itemID})
}

func (iv *Interviewer) recentLines() []string {
	iv.mu.Lock()
	defer iv.mu.Unlock()
	return append([]string(nil), iv.recent...)
}

// responseDone sends what waited for the response to end: the held [PAGE] notes in
// order, then a deferred response.create.
func (iv *Interviewer) responseDone() {
	iv.mu.Lock()
	iv.responding = false
	held, create := iv.held, iv.createNext
	iv.held, iv.createNext = nil, false
	iv.mu.Unlock()
	for _, msg := range held {
		iv.write(msg)
	}
	if create {
		iv.write([]byte(`{"type":"response.create"}`))
	}
}

// sendItem sends a conversation item now, or holds it while a response is active.
func (iv *Interviewer) sendItem(msg []byte) bool {
	iv.mu.Lock()
	if iv.ws == nil {
		iv.mu.Unlock()
		return false
	}
	if iv.responding {
		iv.held = append(iv.held, msg)
		iv.mu.Unlock()
		return true
	}
	iv.mu.Unlock()
	return iv.write(msg)
}

// systemItem is a conversation.item.create of a system note.
func systemItem(text string) []byte {
	msg, _ := json.Marshal(map[string]any{"type": "conversation.item.create", "item": map[string]any{
		"type": "message", "role": "system",
		"content": []any{map[string]any{"type": "input_text", "text": text}},
	}})
	return msg
}

// reconnectItem re-seeds a replacement connection.
func reconnectItem(recent []string) []byte {
	note := "[RECONNECT] Your connection was replaced mid-session. The conversation before this note is gone from this connection: anchor ids start again at anchor_0001, and ids from before mean nothing now. Keep listening; if you need something the riffer said before, ask them to repeat it."
	if len(recent) > 0 {
		note += " The last lines before the break were:\n" + strings.Join(recent, "\n")
	}
	return systemItem(note)
}

// Announce tells the interviewer about a click, drag or screen note, and returns
// its anchor. The same thing again within a second refreshes the anchor silently.
func (iv *Interviewer) Announce(p Pointing) (Anchor, error) {
	now := time.Now()
	iv.mu.Lock()
	iv.touched = now
	if iv.ws == nil {
		iv.mu.Unlock()
		return Anchor{}, errcode.New(errcode.VoiceReconnecting, "the interviewer is reconnecting; the click was not announced, try again in a moment")
	}
	a, announce := iv.anchors.add(p, now)
	iv.mu.Unlock()
	if announce && !iv.sendItem(systemItem(a.Note)) {
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

// ToolCalls returns the interviewer's tool calls, oldest first.
func (iv *Interviewer) ToolCalls() []ToolCall {
	iv.mu.Lock()
	defer iv.mu.Unlock()
	return append([]ToolCall(nil), iv.calls...)
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
		iv.sendItem(systemItem(note))
	}
	if note != "" || spokenChanged || modeChanged {
		iv.sink.State(doc)
	}
	if modeChanged && doc.Mode == ModeInstant {
		iv.checkpoint("mode") // switching to instant hands off what waited
	}
	return doc, nil
}
