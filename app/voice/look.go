package voice

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"

	"fixthis/app/errcode"
	"fixthis/app/voice/realtime"
	"fixthis/internal/jsontext"
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
	// flight is the look under way: calls meanwhile wait for it and share its
	// answer, so a burst makes one capture and sends at most one image.
	flight *lookFlight
}

type sentFrame struct {
	ID string
	Frame
	SentAt time.Time
}

type lookFlight struct {
	done chan struct{}
	res  lookResult
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

// toolCall answers a finished function call. Every call spends the session's call
// budget and is checked before anything is done for it: size, strict text.
// look_at_screen attaches the screen; the unit tools go to unitCalls, which
// stores their items before answering.
func (iv *Interviewer) toolCall(ev realtime.Event) {
	if len(ev.CallID) > maxCallID {
		iv.log.Warn("voice: tool call with an oversized call id dropped", "bytes", len(ev.CallID))
		return
	}
	now := time.Now()
	iv.mu.Lock()
	allowed := iv.budget.take(now)
	iv.calls.add(ToolCall{Conn: iv.connN, CallID: ev.CallID, Name: clipID(ev.Name), Arguments: keptArguments(ev.Arguments), At: now})
	iv.mu.Unlock()
	refuse := func(reason, detail string) {
		iv.write(callOutput(ev.CallID, unitResult{Reason: reason, Detail: detail}))
	}
	switch {
	case !allowed:
		refuse("rate_limited", fmt.Sprintf("too many tool calls: at most %d at once, then one a second; wait, then call again", callBurst))
		return
	case len(ev.Arguments) > maxArguments:
		refuse("too_large", fmt.Sprintf("the arguments are %d bytes; at most %d", len(ev.Arguments), maxArguments))
		return
	case ev.BadText || jsontext.Check([]byte(ev.Arguments)) != nil:
		refuse("invalid_text", "the arguments are not valid UTF-8 text (a lone surrogate or a broken byte sequence)")
		return
	}
	switch ev.Name {
	case "look_at_screen":
		go iv.lookAtScreen(ev.CallID)
	case "record_unit", "update_unit", "withdraw_unit", "relay_answer":
		select {
		case iv.unitq <- ev:
		case <-iv.ctx.Done():
		}
	default:
		refuse("unknown_tool", "FixThis has no tool "+errcode.Quote(ev.Name))
	}
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
	iv.conn.RequestResponse()
}

// attachScreen answers one look: with the frame sent less than lookEvery ago, with
// the answer of the look under way, or by capturing and sending the screen.
func (iv *Interviewer) attachScreen() lookResult {
	now := time.Now()
	iv.mu.Lock()
	if last := iv.looks.last; last != nil && now.Sub(last.SentAt) < lookEvery {
		iv.mu.Unlock()
		// At most one screenshot per 5 s: the last one is already in the conversation.
		return reused(last, now)
	}
	if fl := iv.looks.flight; fl != nil {
		iv.mu.Unlock()
		<-fl.done
		iv.mu.Lock()
		last := iv.looks.last
		iv.mu.Unlock()
		if fl.res.OK && last != nil && last.ID == fl.res.FrameID {
			return reused(last, time.Now())
		}
		return fl.res
	}
	fl := &lookFlight{done: make(chan struct{})}
	iv.looks.flight = fl
	serial := iv.doc.Serial
	iv.mu.Unlock()
	fl.res = iv.captureAndSend(serial)
	iv.mu.Lock()
	iv.looks.flight = nil
	iv.mu.Unlock()
	close(fl.done)
	return fl.res
}

func reused(last *sentFrame, now time.Time) lookResult {
	age, fresh := now.Sub(last.CapturedAt).Milliseconds(), false
	return lookResult{OK: true, FrameID: last.ID, AgeMs: &age, Fresh: &fresh}
}

// captureAndSend grabs the screen and sends it as an image item. What goes
// upstream on a failure names nothing of the machine or the phone: the error,
// which may carry an adb serial or a path, stays in the log.
func (iv *Interviewer) captureAndSend(serial string) lookResult {
	if iv.screen == nil {
		return lookResult{Reason: "no_frame", Detail: "no screen is available"}
	}
	ctx, cancel := context.WithTimeout(iv.ctx, 3*time.Second)
	defer cancel()
	f, err := iv.screen.Look(ctx, serial)
	if err != nil || len(f.JPEG) == 0 {
		if err != nil {
			iv.log.Warn("voice: look_at_screen found no frame", "err", err)
		}
		return lookResult{Reason: "no_frame", Detail: "the phone's screen could not be captured just now; ask the riffer to point at what they mean instead"}
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
