package mcp

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"fixthis/app/handoff"
	"fixthis/app/store"
)

// itemOut is an item as an agent needs it: no URLs, no client draft keys.
type itemOut struct {
	ItemID         string    `json:"itemId"`
	SessionID      string    `json:"sessionId"`
	ScreenID       string    `json:"screenId,omitempty"`
	SequenceNumber int       `json:"sequenceNumber"`
	Phase          string    `json:"phase"`
	Status         string    `json:"status"`
	Severity       string    `json:"severity"`
	Comment        string    `json:"comment"`
	Target         targetOut `json:"target"`
	ResolvedBy     string    `json:"resolvedBy,omitempty"`
	AgentNote      string    `json:"agentNote,omitempty"`
	AgentSummary   string    `json:"agentSummary,omitempty"`
	AgentQuestion  string    `json:"agentQuestion,omitempty"`
	UserAnswer     string    `json:"userAnswer,omitempty"`
	UpdatedAt      string    `json:"updatedAt"`
	// Verification is the after-fix capture's comparison; Verdict the user's word on
	// it (verified | reopened) and VerdictNote why it was reopened.
	Verification *store.Verification `json:"verification,omitempty"`
	Verdict      string              `json:"verdict,omitempty"`
	VerdictNote  string              `json:"verdictNote,omitempty"`
	// ResolvedAt is set on resolved and wont_fix items.
	ResolvedAt string `json:"resolvedAt,omitempty"`
	// Said is the user's own words for an item made from speech (the transcript
	// excerpt the interviewer recorded it from).
	Said string `json:"said,omitempty"`
	// Check is the audit check of an item added from a finding (touch_target, ...):
	// fixthis_audit_screen on the after-screen shows whether the flaw is gone.
	Check string `json:"check,omitempty"`
	// Orphaned: the item's node is no longer on the device's current screen.
	// The item stays open: the feedback may apply to the node's replacement.
	Orphaned bool `json:"orphaned,omitempty"`
	// Clip is the screen clip the user attached (paths relative to the project).
	Clip *clipOut `json:"clip,omitempty"`
	// Sizes is the item's latest check on window sizes (fixthis_check_sizes or the
	// console's Check sizes): per size, whether the node was found and how.
	Sizes *store.SizeCheck `json:"sizes,omitempty"`
}

// clipOut is the item's clip as the handoff gives it, with its id and paths
// relative to the project.
type clipOut struct {
	ClipID string `json:"clipId"`
	handoff.Clip
}

func toClipOut(c *store.Clip) *clipOut {
	if c == nil {
		return nil
	}
	return &clipOut{ClipID: c.ClipID, Clip: handoff.ClipOf(c, c.Path, c.FrameStripPath)}
}

type targetOut struct {
	Type     string              `json:"type"`
	NodeUID  string              `json:"nodeUid,omitempty"`
	Bounds   *store.Bounds       `json:"bounds,omitempty"`
	Snapshot *store.NodeSnapshot `json:"snapshot,omitempty"`
}

func toItemOut(it store.Item) itemOut {
	out := itemOut{
		ItemID: it.ItemID, SessionID: it.SessionID, ScreenID: it.ScreenID, SequenceNumber: it.SequenceNumber,
		Phase: string(it.Phase), Status: string(it.Status), Severity: string(it.Severity), Comment: it.Comment,
		Target:     targetOut{Type: string(it.Target.Type), NodeUID: it.Target.NodeUID, Bounds: it.Target.Bounds, Snapshot: it.Target.Snapshot},
		ResolvedBy: string(it.ResolvedBy), AgentNote: it.AgentNote, AgentSummary: it.AgentSummary,
		AgentQuestion: it.AgentQuestion, UserAnswer: it.UserAnswer, UpdatedAt: it.UpdatedAt.Format(time.RFC3339),
		Verification: it.Verification, Verdict: it.Verdict, VerdictNote: it.VerdictNote,
		Clip: toClipOut(it.Clip), Check: it.Check, Sizes: it.Sizes,
	}
	if it.ResolvedAt != nil {
		out.ResolvedAt = it.ResolvedAt.Format(time.RFC3339)
	}
	if it.Voice != nil {
		out.Said = it.Voice.Excerpt
	}
	return out
}

func toItemsOut(items []store.Item) []itemOut {
	out := make([]itemOut, 0, len(items))
	for _, it := range items {
		out = append(out, toItemOut(it))
	}
	return out
}

// itemIDs are the ids of items, in their order: the items a prompt is rendered for.
func itemIDs(items []store.Item) []string {
	ids := make([]string, 0, len(items))
	for _, it := range items {
		ids = append(ids, it.ItemID)
	}
	return ids
}

type screenOut struct {
	ScreenID    string `json:"screenId"`
	Fingerprint string `json:"fingerprint,omitempty"`
	Package     string `json:"package,omitempty"`
	Activity    string `json:"activity,omitempty"`
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	// Serial is the phone the screen was frozen on: the serial to name when
	// acting on it (absent for screens saved before FixThis recorded it).
	Serial string `json:"serial,omitempty"`
	// ImageAttached says the screenshot follows as image content.
	ImageAttached bool `json:"imageAttached"`
}

func toScreenOut(s store.Screen) screenOut {
	return screenOut{ScreenID: s.ScreenID, Fingerprint: s.Fingerprint, Package: s.Package, Activity: s.Activity,
		Width: s.Width, Height: s.Height, Serial: s.Serial}
}

type sessionsOut struct {
	Sessions []store.SessionSummary `json:"sessions"`
}

// listItemOut is one line of a feedback list: enough to choose what to read.
type listItemOut struct {
	ItemID         string `json:"itemId"`
	SessionID      string `json:"sessionId"`
	SequenceNumber int    `json:"sequenceNumber"`
	Phase          string `json:"phase"`
	Severity       string `json:"severity"`
	Comment        string `json:"comment"`
	Target         string `json:"target"`
}

// maxListComment bounds a comment in a list; read_feedback has it whole.
const maxListComment = 200

func toListItem(it store.Item) listItemOut {
	comment := it.Comment
	if r := []rune(comment); len(r) > maxListComment {
		comment = string(r[:maxListComment]) + "…"
	}
	return listItemOut{ItemID: it.ItemID, SessionID: it.SessionID, SequenceNumber: it.SequenceNumber, Phase: string(it.Phase),
		Severity: string(it.Severity), Comment: comment, Target: targetSummary(it.Target)}
}

// targetSummary names a target in a few words: `Button "Sign in" tag=sign_in`.
func targetSummary(t store.Target) string {
	switch t.Type {
	case store.TargetScreen:
		return "whole screen"
	case store.TargetArea:
		if b := t.Bounds; b != nil {
			return fmt.Sprintf("area (%d,%d)-(%d,%d)", b.Left, b.Top, b.Right, b.Bottom)
		}
		return "area"
	}
	var parts []string
	if sn := t.Snapshot; sn != nil {
		if sn.Role != "" {
			parts = append(parts, sn.Role)
		} else if sn.Class != "" {
			parts = append(parts, sn.Class[strings.LastIndex(sn.Class, ".")+1:])
		}
		if sn.Text != "" {
			parts = append(parts, strconv.Quote(sn.Text))
		} else if sn.ContentDescription != "" {
			parts = append(parts, strconv.Quote(sn.ContentDescription))
		}
		if sn.TestTag != "" {
			parts = append(parts, "tag="+sn.TestTag)
		}
	}
	if len(parts) == 0 {
		return "node " + t.NodeUID
	}
	return strings.Join(parts, " ")
}

type feedbackListOut struct {
	SessionID string        `json:"sessionId,omitempty"`
	Items     []listItemOut `json:"items"`
	Total     int           `json:"total"`
}

type readOut struct {
	SessionID string      `json:"sessionId"`
	Prompt    string      `json:"prompt"`
	Item      *itemOut    `json:"item,omitempty"`
	Items     []itemOut   `json:"items,omitempty"`
	Screens   []screenOut `json:"screens"`
	CropShown bool        `json:"cropAttached"`
	// RuntimeEvidence is each read item's newest runtime evidence capture.
	RuntimeEvidence []itemEvidenceOut `json:"runtimeEvidence"`
}

// itemEvidenceOut is an item's newest capture, in read results.
type itemEvidenceOut struct {
	ItemID string `json:"itemId"`
	attemptOut
}

// waitOut is either a batch or {"status":"timeout"}.
type waitOut struct {
	Status      string             `json:"status"`           // batch | timeout | session_ended | console_gone
	Reason      string             `json:"reason,omitempty"` // closed | deleted, with session_ended
	BatchID     string             `json:"batchId,omitempty"`
	SessionID   string             `json:"sessionId,omitempty"`
	Kind        string             `json:"kind,omitempty"`
	ServeCount  int                `json:"serveCount,omitempty"`
	Items       []itemOut          `json:"items,omitempty"`
	Answers     []store.Answer     `json:"answers,omitempty"`
	Withdrawals []store.Withdrawal `json:"withdrawals,omitempty"`
	Reopened    []store.Reopen     `json:"reopened,omitempty"`
	Prompt      string             `json:"prompt,omitempty"`
	Next        string             `json:"next"`
}

type itemResultOut struct {
	Item itemOut `json:"item"`
	Next string  `json:"next"`
}
