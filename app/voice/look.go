package voice

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"
)

// Frame is a screenshot for the interviewer: a JPEG at most MaxFrameWidth wide.
type Frame struct {
	JPEG       []byte
	Width      int
	Height     int
	Activity   string
	CapturedAt time.Time
	// Fresh is false when a recent buffered frame stood in for a new grab.
	Fresh bool
}

// MaxFrameWidth is the widest screenshot sent; narrower screens go at their width.
const MaxFrameWidth = 1280

// Screen gives the interviewer the phone's screen.
type Screen interface {
	// Look returns the frame on screen now (or one under 500 ms old) for serial.
	Look(ctx context.Context, serial string) (Frame, error)
}

// lookEvery is the shortest time between two screenshots sent to the interviewer.
const lookEvery = 5 * time.Second

// lookState is the screenshots of one connection.
type lookState struct {
	next int // frame ids count per connection
	last *sentFrame
}

type sentFrame struct {
	ID string
	Frame
	SentAt time.Time
}

func (l *lookState) newConnection() { l.next, l.last = 0, nil }

// lookResult is look_at_screen's function_call_output.
type lookResult struct {
	OK      bool   `json:"ok"`
	FrameID string `json:"frame_id,omitempty"`
	AgeMs   *int64 `json:"age_ms,omitempty"`
	Fresh   *bool  `json:"fresh,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Detail  string `json:"detail,omitempty"`
}

// toolCall answers a finished function call. look_at_screen attaches the screen;
// the unit tools go to unitCalls, which stores their items before answering.
func (iv *Interviewer) toolCall(ev serverEvent) {
	iv.mu.Lock()
	iv.calls = append(iv.calls, ToolCall{Conn: iv.conn, CallID: ev.CallID, Name: ev.Name,
		Arguments: json.RawMessage(validJSON(ev.Arguments)), At: time.Now()})
	iv.mu.Unlock()
	if ev.Name == "look_at_screen" {
		go iv.lookAtScreen(ev.CallID)
		return
	}
	switch ev.Name {
	case "record_unit", "update_unit", "withdraw_unit", "relay_answer":
		select {
		case iv.unitq <- ev:
		case <-iv.ctx.Done():
		}
	default:
		iv.write(callOutput(ev.CallID, unitResult{Reason: "unknown_tool", Detail: "FixThis has no tool " + ev.Name}))
	}
}

func validJSON(s string) string {
	if json.Valid([]byte(s)) {
		return s
	}
	b, _ := json.Marshal(s)
	return string(b)
}

func callOutput(callID string, result any) []byte {
	out, _ := json.Marshal(result)
	msg, _ := json.Marshal(map[string]any{"type": "conversation.item.create", "item": map[string]any{
		"type": "function_call_output", "call_id": callID, "output": string(out)}})
	return msg
}

// lookAtScreen sends the screen as a user image item with its caption, then the
// function_call_output, then response.create once the calling response is done.
func (iv *Interviewer) lookAtScreen(callID string) {
	res := iv.attachScreen()
	iv.write(callOutput(callID, res))
	iv.requestResponse()
}

// requestResponse asks the interviewer to respond: now when it is not responding,
// else once its response is done (responseDone sends the deferred request).
func (iv *Interviewer) requestResponse() {
	iv.mu.Lock()
	if iv.responding {
		iv.createNext = true
		iv.mu.Unlock()
		return
	}
	iv.mu.Unlock()
	iv.write([]byte(`{"type":"response.create"}`))
}

func (iv *Interviewer) attachScreen() lookResult {
	now := time.Now()
	iv.mu.Lock()
	last := iv.looks.last
	serial := iv.doc.Serial
	iv.mu.Unlock()
	if last != nil && now.Sub(last.SentAt) < lookEvery {
		// At most one screenshot per 5 s: the last one is already in the conversation.
		age, fresh := now.Sub(last.CapturedAt).Milliseconds(), false
		return lookResult{OK: true, FrameID: last.ID, AgeMs: &age, Fresh: &fresh}
	}
	if iv.screen == nil {
		return lookResult{Reason: "no_frame", Detail: "no screen is available"}
	}
	ctx, cancel := context.WithTimeout(iv.ctx, 3*time.Second)
	defer cancel()
	f, err := iv.screen.Look(ctx, serial)
	if err != nil || len(f.JPEG) == 0 {
		detail := "the phone gave no frame"
		if err != nil {
			detail = err.Error()
		}
		return lookResult{Reason: "no_frame", Detail: detail}
	}
	iv.mu.Lock()
	iv.looks.next++
	sent := &sentFrame{ID: fmt.Sprintf("frame_%04d", iv.looks.next), Frame: f, SentAt: time.Now()}
	iv.mu.Unlock()
	age := time.Since(f.CapturedAt).Milliseconds()
	msg, _ := json.Marshal(map[string]any{"type": "conversation.item.create", "item": map[string]any{
		"type": "message", "role": "user", "content": []any{
			map[string]any{"type": "input_image", "image_url": "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(f.JPEG)},
			map[string]any{"type": "input_text", "text": screenshotCaption(sent.ID, f.Activity, age)},
		}}})
	if !iv.write(msg) {
		return lookResult{Reason: "send_failed", Detail: "the image could not be sent to the interviewer"}
	}
	iv.mu.Lock()
	iv.looks.last = sent
	iv.mu.Unlock()
	fresh := f.Fresh
	return lookResult{OK: true, FrameID: sent.ID, AgeMs: &age, Fresh: &fresh}
}

// screenshotCaption is the text beside a screenshot the interviewer asked for.
func screenshotCaption(frameID, activity string, ageMs int64) string {
	on := "the phone's screen"
	if activity != "" {
		on += " on " + activity
	}
	when := "captured just now"
	if ageMs >= 1000 {
		when = fmt.Sprintf("captured %d s ago", (ageMs+500)/1000)
	}
	return fmt.Sprintf("[PAGE] Screenshot of %s, %s (frame id: %s). The status bar and the navigation bar belong to Android, not to the app.", on, when, frameID)
}
