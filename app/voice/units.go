package voice

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"fixthis/app/voice/realtime"
)

// Units turns the interviewer's unit tools into items. The app implements it on its
// store: a recorded unit is a stored draft item before Record returns.
type Units interface {
	// Record saves the unit as a draft item; a replay (the same voice session and
	// unit id) returns the item the first call made.
	Record(ctx context.Context, r UnitRecord) (UnitItem, error)
	// Update changes a draft's statement or adds anchors.
	Update(ctx context.Context, c UnitChange) (UnitItem, error)
	// Withdraw deletes a draft, or withdraws a handed-off item from the agent.
	Withdraw(ctx context.Context, ref UnitRef) (UnitItem, error)
	// Answer records the riffer's answer to the agent's question on the item.
	Answer(ctx context.Context, ref UnitRef, answer string) (UnitItem, error)
	// HandOff releases drafts to the agent the way Save to MCP does: the named
	// items, or with none named every draft the voice session's units became.
	HandOff(ctx context.Context, ref UnitRef, itemIDs []string) error
}

// UnitRef names a unit of a voice session and the FixThis session its items go to.
type UnitRef struct {
	SessionID      string
	VoiceSessionID string
	UnitID         string
	Serial         string
}

// UnitRecord is a record_unit call with its anchors resolved.
type UnitRecord struct {
	UnitRef
	Statement string
	Excerpt   string
	// SpanStartMs and SpanEndMs are the riffer's turn in ms since the voice
	// session started.
	SpanStartMs, SpanEndMs int64
	// Anchors are the anchors that resolved, in the order named: the first one's
	// frame and node make the item's screen and target. None: a screen note on the
	// current screen.
	Anchors []Anchor
}

// UnitChange is an update_unit call.
type UnitChange struct {
	UnitRef
	Statement *string
	Anchors   []Anchor
}

// UnitItem is the item a unit became.
type UnitItem struct {
	ItemID         string
	SequenceNumber int
	Statement      string
	Excerpt        string
}

// Refusal is a unit call answered {ok: false, reason}. The Units implementation
// returns one for what the interviewer can act on; any other error is "failed".
type Refusal struct {
	Reason string // unknown_anchor, session_closed, no_screen, invalid, unknown_unit, …
	Detail string
}

func (r *Refusal) Error() string { return r.Reason + ": " + r.Detail }

// Refuse returns a Refusal.
func Refuse(reason, format string, args ...any) *Refusal {
	return &Refusal{Reason: reason, Detail: fmt.Sprintf(format, args...)}
}

// Timing of the anchor and checkpoint rules.
const (
	// deicticWindow: "this", "here" and "that" mean the newest anchor this recent.
	deicticWindow = 8 * time.Second
	// silenceCheckpoint: in smart mode, this much silence after speech hands off.
	silenceCheckpoint = 4 * time.Second
)

var anchorIDPattern = regexp.MustCompile(`^anchor_\d+$`)

// unitState is the units of one voice session (ids count per session, not per
// connection) and its speech edges for spans and checkpoints.
type unitState struct {
	next     int
	byCall   map[string]string // call id → unit id: a replayed call is the same unit
	withdraw map[string]bool   // units withdrawn
	asked    map[string]string // item id → the question last sent as a note
	pending  [][]byte          // question notes waiting for the riffer to pause

	speaking          bool
	speechStart       time.Time
	speechStop        time.Time
	silence           *time.Timer
	checkpointReached bool // silence lasted silenceCheckpoint since the last speech
	lastRiffer        string
}

func (u *unitState) init() {
	if u.byCall == nil {
		u.byCall, u.withdraw, u.asked = map[string]string{}, map[string]bool{}, map[string]string{}
	}
}

// unitArgs is the union of the four unit tools' arguments.
type unitArgs struct {
	UnitID     string   `json:"unit_id"`
	Statement  *string  `json:"statement"`
	Anchors    []string `json:"anchors"`
	AnchorsAdd []string `json:"anchors_add"`
	Excerpt    string   `json:"transcript_excerpt"`
	Answer     string   `json:"answer_text"`
	Reason     string   `json:"reason"`
}

// Bounds of the unit tools' text, in characters (the store's own limits are
// larger or equal; these refuse before anything is stored).
const (
	maxStatement = 20000
	maxUnitText  = 4000 // excerpt, answer, reason
	maxRef       = 200  // a unit id or an anchor
)

// check applies the console's text rule to every string the tools pass on: valid
// UTF-8 (jsontext.Check refused lone surrogates before decoding), no NUL, ESC or other
// control character (new lines and tabs only in the free text), lengths counted
// in characters.
func (a unitArgs) check() error {
	type field struct {
		name, value string
		max         int
		multiline   bool
	}
	fields := []field{{"unit_id", a.UnitID, maxRef, false}, {"transcript_excerpt", a.Excerpt, maxUnitText, true},
		{"answer_text", a.Answer, maxUnitText, true}, {"reason", a.Reason, maxUnitText, true}}
	if a.Statement != nil {
		fields = append(fields, field{"statement", *a.Statement, maxStatement, true})
	}
	for _, ref := range append(append([]string(nil), a.Anchors...), a.AnchorsAdd...) {
		fields = append(fields, field{"an anchor", ref, maxRef, false})
	}
	for _, f := range fields {
		if err := checkText(f.name, f.value, f.max, f.multiline); err != nil {
			return err
		}
	}
	return nil
}

// unitResult is a unit tool's function_call_output.
type unitResult struct {
	OK     bool   `json:"ok"`
	UnitID string `json:"unit_id,omitempty"`
	Item   int    `json:"item,omitempty"`
	Reason string `json:"reason,omitempty"`
	Detail string `json:"detail,omitempty"`
}

// unitCalls handles the unit tool calls one at a time, in the order they came, so
// unit ids follow the conversation and two calls never race for one item.
// Calls queued when the session stops are still stored: the riffer said them while
// Talk was on (their results find no socket).
func (iv *Interviewer) unitCalls() {
	for {
		select {
		case <-iv.ctx.Done():
			for {
				select {
				case ev := <-iv.unitq:
					iv.unitCall(ev)
				default:
					return
				}
			}
		case ev := <-iv.unitq:
			iv.unitCall(ev)
		}
	}
}

// unitCall stores what a unit call asks for, publishes voice-unit, and only then
// answers the interviewer.
func (iv *Interviewer) unitCall(ev realtime.Event) {
	var args unitArgs
	res := unitResult{}
	if err := json.Unmarshal([]byte(ev.Arguments), &args); err != nil {
		res.Reason, res.Detail = "invalid", "the arguments are not a JSON object"
		iv.write(callOutput(ev.CallID, res))
		return
	}
	if err := args.check(); err != nil {
		res.Reason, res.Detail = "invalid_text", err.Error()
		iv.write(callOutput(ev.CallID, res))
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(iv.ctx), 30*time.Second)
	defer cancel()
	doc := iv.Doc()
	ref := UnitRef{SessionID: doc.SessionID, VoiceSessionID: doc.VoiceSessionID, Serial: doc.Serial}
	unit := Unit{VoiceSessionID: doc.VoiceSessionID}
	var item UnitItem
	var err error
	switch ev.Name {
	case "record_unit":
		ref.UnitID = iv.unitFor(ev.CallID)
		rec := UnitRecord{UnitRef: ref, Excerpt: strings.TrimSpace(args.Excerpt)}
		if args.Statement != nil {
			rec.Statement = strings.TrimSpace(*args.Statement)
		}
		if rec.Excerpt == "" {
			rec.Excerpt = iv.lastRifferLine()
		}
		rec.SpanStartMs, rec.SpanEndMs = iv.span()
		iv.mu.Lock()
		withdrawn := iv.unitSt.withdraw[ref.UnitID]
		iv.mu.Unlock()
		if withdrawn {
			err = Refuse("withdrawn", "%s was withdrawn", ref.UnitID) // a replay of a call whose unit was taken back
		} else if rec.Anchors, err = iv.resolve(args.Anchors); err == nil {
			item, err = iv.record(ctx, rec)
		}
		if item.ItemID == "" {
			item.Statement, item.Excerpt = rec.Statement, rec.Excerpt
		}
		unit.Action = UnitRecorded
	case "update_unit":
		ref.UnitID = args.UnitID
		ch := UnitChange{UnitRef: ref, Statement: args.Statement}
		if ch.Anchors, err = iv.resolve(args.AnchorsAdd); err == nil {
			err = iv.knownUnit(ref.UnitID)
		}
		if err == nil {
			item, err = iv.units.Update(ctx, ch)
		}
		unit.Action = UnitUpdated
	case "withdraw_unit":
		ref.UnitID = args.UnitID
		if err = iv.knownUnit(ref.UnitID); err == nil {
			item, err = iv.units.Withdraw(ctx, ref)
		}
		if err == nil {
			iv.mu.Lock()
			iv.unitSt.withdraw[ref.UnitID] = true
			iv.mu.Unlock()
		}
		unit.Action = UnitWithdrawn
	case "relay_answer":
		ref.UnitID = args.UnitID
		if err = iv.knownUnit(ref.UnitID); err == nil {
			item, err = iv.units.Answer(ctx, ref, args.Answer)
		}
		unit.Action = ""
	}
	unit.UnitID, unit.ItemID, unit.SequenceNumber = ref.UnitID, item.ItemID, item.SequenceNumber
	unit.Statement, unit.Excerpt = item.Statement, item.Excerpt
	res.UnitID, res.Item = ref.UnitID, item.SequenceNumber
	if err != nil {
		var refusal *Refusal
		if !errors.As(err, &refusal) {
			iv.log.Warn("voice: unit call failed", "tool", ev.Name, "err", err)
			// The error may name local paths: it stays in the log, not upstream.
			refusal = &Refusal{Reason: "failed", Detail: "FixThis could not save this; ask the riffer to add it as an annotation"}
		}
		res = unitResult{UnitID: ref.UnitID, Reason: clipID(refusal.Reason), Detail: clip(oneLine(refusal.Detail), maxDetail)}
		unit.Action, unit.Reason = UnitRefused, refusal.Reason
	} else {
		res.OK = true
	}
	if ev.Name == "withdraw_unit" || ev.Name == "relay_answer" {
		res.Item = 0
	}
	if unit.Action != "" {
		iv.sink.Unit(unit)
	}
	iv.write(callOutput(ev.CallID, res))
	if err == nil && ev.Name == "record_unit" {
		iv.afterRecord(item)
	}
}

// record checks the unit and saves it.
func (iv *Interviewer) record(ctx context.Context, rec UnitRecord) (UnitItem, error) {
	if iv.units == nil {
		return UnitItem{}, Refuse("no_store", "FixThis has no store for this voice session")
	}
	if rec.Statement == "" {
		return UnitItem{}, Refuse("invalid", "statement is empty; state the change as an instruction")
	}
	return iv.units.Record(ctx, rec)
}

// unitFor mints the unit id of a record_unit call: unit_NNNN per voice session, the
// same id again for a replayed call.
func (iv *Interviewer) unitFor(callID string) string {
	iv.mu.Lock()
	defer iv.mu.Unlock()
	if id, ok := iv.unitSt.byCall[callID]; ok && callID != "" {
		return id
	}
	iv.unitSt.next++
	id := fmt.Sprintf("unit_%04d", iv.unitSt.next)
	if callID != "" {
		iv.unitSt.byCall[callID] = id
	}
	return id
}

// knownUnit refuses a unit id this session never minted, or one withdrawn.
func (iv *Interviewer) knownUnit(id string) error {
	if iv.units == nil {
		return Refuse("no_store", "FixThis has no store for this voice session")
	}
	iv.mu.Lock()
	defer iv.mu.Unlock()
	if iv.unitSt.withdraw[id] {
		return Refuse("withdrawn", "%s was withdrawn", id)
	}
	var n int
	if _, err := fmt.Sscanf(id, "unit_%04d", &n); err == nil && n >= 1 && n <= iv.unitSt.next && id == fmt.Sprintf("unit_%04d", n) {
		return nil
	}
	return Refuse("unknown_unit", "no unit %q was recorded in this voice session", id)
}

// resolve turns record_unit's anchors into announced anchors: an anchor id of this
// connection, or "this", "here", "that" for the newest anchor within 8 s. Other
// words name an element in the riffer's own terms and resolve to nothing; an
// anchor id that was never announced on this connection is refused.
func (iv *Interviewer) resolve(refs []string) ([]Anchor, error) {
	now := time.Now()
	iv.mu.Lock()
	defer iv.mu.Unlock()
	var out []Anchor
	seen := map[string]bool{}
	add := func(a Anchor) {
		if !seen[a.ID] {
			seen[a.ID] = true
			out = append(out, a)
		}
	}
	all := iv.anchors.anchors
	for _, ref := range refs {
		ref = strings.TrimSpace(ref)
		switch strings.ToLower(strings.Trim(ref, ".!? ")) {
		case "this", "here", "that":
			if n := len(all); n > 0 && all[n-1].Conn == iv.connN && now.Sub(all[n-1].At) <= deicticWindow {
				add(all[n-1])
			}
			continue
		}
		if !anchorIDPattern.MatchString(ref) {
			continue
		}
		found := false
		for i := len(all) - 1; i >= 0; i-- {
			if all[i].Conn == iv.connN && all[i].ID == ref {
				add(all[i])
				found = true
				break
			}
		}
		if !found {
			return nil, Refuse("unknown_anchor", "%s was not announced on this connection; use an id from a [PAGE] note", ref)
		}
	}
	return out, nil
}

// span is the riffer's latest turn in ms since the session started.
func (iv *Interviewer) span() (start, end int64) {
	iv.mu.Lock()
	defer iv.mu.Unlock()
	began := iv.doc.StartedAt
	st, sp := iv.unitSt.speechStart, iv.unitSt.speechStop
	now := time.Now()
	if st.IsZero() {
		ms := now.Sub(began).Milliseconds()
		return ms, ms
	}
	if iv.unitSt.speaking || sp.Before(st) {
		sp = now
	}
	return st.Sub(began).Milliseconds(), sp.Sub(began).Milliseconds()
}

func (iv *Interviewer) lastRifferLine() string {
	iv.mu.Lock()
	defer iv.mu.Unlock()
	return iv.unitSt.lastRiffer
}

// afterRecord hands off by the mode: instant at once, smart when silence already
// reached the checkpoint, collect never.
func (iv *Interviewer) afterRecord(item UnitItem) {
	iv.mu.Lock()
	mode, reached := iv.doc.Mode, iv.unitSt.checkpointReached
	iv.mu.Unlock()
	switch {
	case mode == ModeInstant:
		iv.handOff([]string{item.ItemID})
	case mode == ModeSmart && reached:
		iv.handOff(nil)
	}
}

// speechEdge notes the riffer starting or stopping; in smart mode silence after
// speech arms the checkpoint, and a pause lets waiting question notes go.
func (iv *Interviewer) speechEdge(speaking bool) {
	now := time.Now()
	iv.mu.Lock()
	u := &iv.unitSt
	u.speaking = speaking
	if u.silence != nil {
		u.silence.Stop()
		u.silence = nil
	}
	var pending [][]byte
	if speaking {
		u.speechStart, u.checkpointReached = now, false
	} else {
		u.speechStop = now
		u.silence = time.AfterFunc(iv.silenceAfter(), func() {
			iv.mu.Lock()
			iv.unitSt.checkpointReached = true
			iv.mu.Unlock()
			iv.checkpoint("silence")
		})
		pending, u.pending = u.pending, nil
	}
	iv.mu.Unlock()
	for _, note := range pending {
		iv.sendQuestion(note)
	}
}

func (iv *Interviewer) silenceAfter() time.Duration {
	if iv.silence > 0 {
		return iv.silence
	}
	return silenceCheckpoint
}

// Checkpoint is a checkpoint from outside the conversation (the target app's
// activity changed): in smart mode the session's drafts are handed off.
func (iv *Interviewer) Checkpoint(reason string) { iv.checkpoint(reason) }

func (iv *Interviewer) checkpoint(reason string) {
	iv.mu.Lock()
	mode := iv.doc.Mode
	iv.mu.Unlock()
	if mode == ModeSmart || (reason == "mode" && mode == ModeInstant) {
		iv.handOff(nil)
	}
}

// handOff releases in the background, one hand-off at a time: runtime evidence
// under the Auto policy may take seconds and must not hold the conversation.
func (iv *Interviewer) handOff(itemIDs []string) {
	if iv.units == nil {
		return
	}
	doc := iv.Doc()
	ref := UnitRef{SessionID: doc.SessionID, VoiceSessionID: doc.VoiceSessionID, Serial: doc.Serial}
	go func() {
		iv.handoffMu.Lock()
		defer iv.handoffMu.Unlock()
		if err := iv.units.HandOff(context.WithoutCancel(iv.ctx), ref, itemIDs); err != nil {
			iv.log.Warn("voice: hand-off failed", "err", err)
		}
	}()
}
