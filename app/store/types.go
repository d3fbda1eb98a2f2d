package store

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// Batch kinds, handoff kinds and verdicts are stored, not sent to the console.
const (
	HandoffKindMCP     = "mcp"
	HandoffKindCopy    = "copy"
	BatchKindRelease   = "release"
	BatchKindAnswer    = "answer"
	BatchKindWithdrawn = "withdrawal"
	BatchKindReopen    = "reopen"
	VerdictVerified    = "verified"
	VerdictReopened    = "reopened"
)

// PhaseCounts counts a session's items per phase; every key is always present.
type PhaseCounts struct {
	Draft              int `json:"draft"`
	Sent               int `json:"sent"`
	SentModified       int `json:"sent_modified"`
	InProgress         int `json:"in_progress"`
	NeedsClarification int `json:"needs_clarification"`
	WontFix            int `json:"wont_fix"`
	Resolved           int `json:"resolved"`
}

func (p *PhaseCounts) add(phase Phase, n int) {
	switch phase {
	case PhaseDraft:
		p.Draft += n
	case PhaseSent:
		p.Sent += n
	case PhaseSentModified:
		p.SentModified += n
	case PhaseInProgress:
		p.InProgress += n
	case PhaseNeedsClarify:
		p.NeedsClarification += n
	case PhaseWontFix:
		p.WontFix += n
	case PhaseResolved:
		p.Resolved += n
	}
}

// SessionSummary is one row of the session list.
type SessionSummary struct {
	SessionID             string         `json:"sessionId"`
	Title                 string         `json:"title"`
	Status                SessionStatus  `json:"status"`
	CreatedAt             time.Time      `json:"createdAt"`
	UpdatedAt             time.Time      `json:"updatedAt"`
	ItemCount             int            `json:"itemCount"`
	PhaseCounts           PhaseCounts    `json:"phaseCounts"`
	RuntimeEvidencePolicy EvidencePolicy `json:"runtimeEvidencePolicy"`
	AgentPickup           Pickup         `json:"agentPickup"`
}

// Session is a summary plus everything the console renders for it.
type Session struct {
	SessionSummary
	Items    []Item    `json:"items"`
	Screens  []Screen  `json:"screens"`
	Handoffs []Handoff `json:"handoffs"`
	ETag     string    `json:"etag"`
	// AppBuild is the app build the last handoff was made against (nil before one).
	AppBuild *AppBuild `json:"appBuild,omitempty"`
}

// Screen is a saved screen: the kept capture items were drawn on (never a live preview frame).
type Screen struct {
	ScreenID    string    `json:"screenId"`
	SessionID   string    `json:"sessionId"`
	Fingerprint string    `json:"fingerprint"`
	Width       int       `json:"width"`
	Height      int       `json:"height"`
	Package     string    `json:"package"`
	Activity    string    `json:"activity"`
	ImageURL    string    `json:"imageUrl"`
	CreatedAt   time.Time `json:"createdAt"`
	// Serial is the phone the screen was frozen on; "" for screens saved before
	// FixThis recorded it.
	Serial string `json:"serial,omitempty"`

	// Display is what else was on screen at freeze time.
	Display ScreenDisplay `json:"display"`

	// FrozenID is the frozen frame the screen was saved from (column preview_id).
	FrozenID string `json:"-"`
	// ImageArtifact and NodesArtifact are artifact keys ("" when absent).
	ImageArtifact string `json:"-"`
	NodesArtifact string `json:"-"`
}

// ScreenDisplay is what the window list said about a frozen screen beyond its size.
type ScreenDisplay struct {
	Rotation int     `json:"rotation"`               // 0-3 quarter turns
	Dialog   string  `json:"dialogWindow,omitempty"` // title of the dialog window the tree came from
	Keyboard *Bounds `json:"keyboard,omitempty"`     // the on-screen keyboard's keys, when shown
	Secure   bool    `json:"secure"`                 // FLAG_SECURE: the image is black
	// Conditions are the phone's display settings the screen was drawn under
	// (nil when they could not be read).
	Conditions *DisplayConditions `json:"conditions,omitempty"`
}

// DisplayConditions are the display settings a screen was drawn under: only what
// differs from a phone's defaults is set.
type DisplayConditions struct {
	Night     bool    `json:"night,omitempty"`
	FontScale float64 `json:"fontScale,omitempty"` // set when not 1
	Density   int     `json:"density,omitempty"`   // the override, when there is one
	Locale    string  `json:"locale,omitempty"`    // the app's own locale
	// AnimationScale is set when not 1 (0 is "off"), hence the pointer.
	AnimationScale *float64 `json:"animationScale,omitempty"`
}

// Line writes c as the prompt's screen block does ("night, fontScale=1.3,
// locale=ar, density=360"); "" when nothing differs from the defaults.
func (c *DisplayConditions) Line() string {
	if c == nil {
		return ""
	}
	var parts []string
	if c.Night {
		parts = append(parts, "night")
	}
	if c.FontScale != 0 && c.FontScale != 1 {
		parts = append(parts, "fontScale="+strconv.FormatFloat(c.FontScale, 'f', -1, 64))
	}
	if c.Locale != "" {
		parts = append(parts, "locale="+c.Locale)
	}
	if c.Density != 0 {
		parts = append(parts, "density="+strconv.Itoa(c.Density))
	}
	if c.AnimationScale != nil && *c.AnimationScale != 1 {
		parts = append(parts, "animationScale="+strconv.FormatFloat(*c.AnimationScale, 'f', -1, 64))
	}
	return strings.Join(parts, ", ")
}

// Bounds are device pixels.
type Bounds struct {
	Left   int `json:"left"`
	Top    int `json:"top"`
	Right  int `json:"right"`
	Bottom int `json:"bottom"`
}

// NodeSnapshot is what the node looked like when the comment was written, so
// the agent can act even if the node is gone by the time it reads the item.
type NodeSnapshot struct {
	Class              string `json:"class"`
	Text               string `json:"text"`
	TestTag            string `json:"testTag"`
	ContentDescription string `json:"contentDescription"`
	Role               string `json:"role"`
	ResourceID         string `json:"resourceId"`
}

// Target anchors an item: a node (with its snapshot), an area, or the screen.
type Target struct {
	Type      TargetType      `json:"type"`
	NodeUID   string          `json:"nodeUid,omitempty"`
	Bounds    *Bounds         `json:"bounds,omitempty"`
	Snapshot  *NodeSnapshot   `json:"snapshot,omitempty"`
	Ancestors json.RawMessage `json:"ancestors,omitempty"`
}

// Item is one annotation.
type Item struct {
	ItemID            string     `json:"itemId"`
	SessionID         string     `json:"sessionId"`
	ScreenID          string     `json:"screenId"`
	SequenceNumber    int        `json:"sequenceNumber"`
	ClientWorkspaceID string     `json:"clientWorkspaceId"`
	ClientDraftItemID string     `json:"clientDraftItemId"`
	Target            Target     `json:"target"`
	Severity          Severity   `json:"severity"`
	Comment           string     `json:"comment"`
	Delivery          Delivery   `json:"delivery"`
	Status            ItemStatus `json:"status"`
	Phase             Phase      `json:"phase"`
	ResolvedBy        ResolvedBy `json:"resolvedBy"`
	AgentNote         string     `json:"agentNote"`
	AgentSummary      string     `json:"agentSummary"`
	AgentQuestion     string     `json:"agentQuestion"`
	UserAnswer        string     `json:"userAnswer"`
	CreatedAt         time.Time  `json:"createdAt"`
	UpdatedAt         time.Time  `json:"updatedAt"`
	LastHandedOffAt   *time.Time `json:"lastHandedOffAt"`
	// ResolvedAt is when the item became resolved or wont_fix (nil while open).
	ResolvedAt *time.Time `json:"resolvedAt"`
	// ForcedSave marks an item saved over a screen-fingerprint mismatch: its
	// screenshot may not show the screen the comment was written on.
	ForcedSave bool   `json:"forcedSave"`
	CropURL    string `json:"cropUrl"`
	// ClipID names the screen clip attached to the item ("" for none); Clip is it.
	ClipID string `json:"clipId,omitempty"`
	Clip   *Clip  `json:"clip,omitempty"`
	// Sizes is the item's latest check on window sizes (nil before one ran).
	Sizes *SizeCheck `json:"sizes,omitempty"`
	// Verification is what the agent's capture after its fix shows; Verdict is the
	// user's word on it ("" | verified | reopened) and VerdictNote the reopen note.
	Verification *Verification `json:"verification,omitempty"`
	Verdict      string        `json:"verdict,omitempty"`
	VerdictNote  string        `json:"verdictNote,omitempty"`
	// Voice is where an item made from speech came from (nil for a typed item).
	Voice *VoiceOrigin `json:"voice,omitempty"`
	// Check is the audit check the item was added from (touch_target, ...; "" for
	// an item the user wrote): the prompt names it and verification re-runs it.
	Check string `json:"check,omitempty"`

	// ClaimedBy names the agent connection holding the claim ("" when none);
	// ClaimedAt is when it claimed.
	ClaimedBy string     `json:"-"`
	ClaimedAt *time.Time `json:"-"`

	// CropArtifact is the crop's artifact key ("" when absent).
	CropArtifact string `json:"-"`
	// ModifiedAfterSend marks a sent item the user edited since its release.
	ModifiedAfterSend bool `json:"-"`
}

// VoiceOrigin is where an item made from speech came from: the voice session and
// the unit the interviewer recorded, the riffer's words (at most MaxExcerpt
// characters), their span in ms since the voice session started, and the ids of
// the anchors that resolved.
type VoiceOrigin struct {
	VoiceSessionID string   `json:"voiceSessionId"`
	UnitID         string   `json:"unitId"`
	Excerpt        string   `json:"excerpt"`
	SpanStartMs    int64    `json:"spanStartMs"`
	SpanEndMs      int64    `json:"spanEndMs"`
	Anchors        []string `json:"anchors"`
}

// MaxExcerpt is the most characters of a transcript excerpt kept on an item.
const MaxExcerpt = 2000

// Handoff records one Copy Prompt or Save to MCP of a set of items.
type Handoff struct {
	HandoffID string    `json:"handoffId"`
	SessionID string    `json:"sessionId"`
	Kind      string    `json:"kind"` // mcp | copy
	ItemIDs   []string  `json:"itemIds"`
	BatchID   string    `json:"batchId,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
}

// derivePhase is the single definition of an item's console phase. Agent
// outcomes win over delivery; an edit after release shows as sent_modified.
func derivePhase(delivery Delivery, status ItemStatus, modifiedAfterSend bool) Phase {
	switch status {
	case StatusResolved:
		return PhaseResolved
	case StatusWontFix:
		return PhaseWontFix
	case StatusNeedsClarification:
		return PhaseNeedsClarify
	case StatusInProgress:
		return PhaseInProgress
	}
	if delivery != DeliverySent {
		return PhaseDraft
	}
	if modifiedAfterSend {
		return PhaseSentModified
	}
	return PhaseSent
}

// phaseSQL computes the same phase inside SQLite for the summary counts; the
// test TestPhaseSQLMatchesGo keeps the two definitions in step.
const phaseSQL = `CASE
  WHEN status = 'resolved' THEN 'resolved'
  WHEN status = 'wont_fix' THEN 'wont_fix'
  WHEN status = 'needs_clarification' THEN 'needs_clarification'
  WHEN status = 'in_progress' THEN 'in_progress'
  WHEN delivery <> 'sent' THEN 'draft'
  WHEN modified_after_send <> 0 THEN 'sent_modified'
  ELSE 'sent' END`

func isTerminal(status ItemStatus) bool { return status == StatusResolved || status == StatusWontFix }

// IsOpen reports whether the item still counts as open: the agent has work on it
// (it is neither resolved nor won't fix).
func (it Item) IsOpen() bool { return !isTerminal(it.Status) }

// OpenItemIDs are the ids of the session's open items, in the session's order: what
// Copy Prompt and `fixthis prompt` hand off when no item is chosen.
func (s *Session) OpenItemIDs() []string {
	var ids []string
	for _, it := range s.Items {
		if it.IsOpen() {
			ids = append(ids, it.ItemID)
		}
	}
	return ids
}
