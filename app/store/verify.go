package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Verification is what an agent's capture after its fix shows for an item: the
// "after" screen beside the "before" screen the user annotated, and what changed in
// the item's region.
type Verification struct {
	CaptureID     string `json:"captureId"`
	AfterImageURL string `json:"afterImageUrl"`
	Fingerprint   string `json:"fingerprint"`
	// RegionChange is how much the target's region differs, 0 (same) to 1 (all
	// different), from the perceptual hashes of the before and after crops.
	RegionChange float64 `json:"regionChange"`
	// Node says what became of a node target in the new UI tree.
	Node *NodeChange `json:"node,omitempty"`
	// Summary is one line a person or an agent reads.
	Summary    string    `json:"summary"`
	VerifiedAt time.Time `json:"verifiedAt"`
	// Conditions are the display settings the after capture was taken under.
	Conditions *DisplayConditions `json:"conditions,omitempty"`
	// Check is the item's audit check re-run on the after capture (items added
	// from an audit finding only).
	Check *CheckResult `json:"check,omitempty"`
}

// CheckResult is an audit check re-run on the screen after a fix: whether the flaw
// is gone from the item's node, and what was measured there.
type CheckResult struct {
	Check  string `json:"check"`
	Passed bool   `json:"passed"`
	// Measured and Required are the finding's values when it still fails; Measured
	// is empty when it passes.
	Measured string `json:"measured,omitempty"`
	Required string `json:"required,omitempty"`
	// Skipped says why the check could not run ("" when it ran).
	Skipped string `json:"skipped,omitempty"`
}

// NodeChange describes a node target in the after capture.
type NodeChange struct {
	Found     bool    `json:"found"`
	MatchedBy string  `json:"matchedBy,omitempty"` // testTag | resourceId | contentDescription | text
	Before    string  `json:"before"`              // the node's text when annotated
	After     string  `json:"after,omitempty"`     // its text now
	Moved     bool    `json:"moved"`
	Bounds    *Bounds `json:"bounds,omitempty"` // where it is now
	Visible   bool    `json:"visible"`
}

// Reopen is the user's "this is not fixed", delivered through the agent's wait.
type Reopen struct {
	ItemID         string `json:"itemId"`
	SequenceNumber int    `json:"sequenceNumber"`
	Comment        string `json:"comment"`
	Note           string `json:"note"`
}

// setVerification stores v on an item inside the agent's resolve transaction.
func (t *tx) setVerification(ctx context.Context, itemID string, v *Verification) error {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode verification: %w", err)
	}
	_, err = t.ExecContext(ctx, `UPDATE items SET verification_json = ?, verdict = '', verdict_note = '' WHERE id = ?`,
		string(b), itemID)
	return err
}

// ConfirmFix is the user's "Looks right": the item stays resolved and is marked
// verified by the user.
func (s *Store) ConfirmFix(ctx context.Context, sessionID, itemID string) (*Item, error) {
	return s.userUpdate(ctx, "confirming fix", "confirm a fix", sessionID, itemID, false, func(t *tx, it Item) (string, any, error) {
		if it.Status != StatusResolved {
			return "", nil, invalid("item %d is %s; only a resolved item can be confirmed", it.SequenceNumber, it.Status)
		}
		if _, err := t.ExecContext(ctx, `UPDATE items SET verdict = ?, verdict_note = '', updated_at = ? WHERE id = ?`,
			VerdictVerified, millis(t.now), itemID); err != nil {
			return "", nil, err
		}
		return "fix-verified", nil, nil
	})
}

// Reopen is the user's "Reopen": a resolved item goes back to open, still the
// agent's, and the agent's next wait carries the note.
func (s *Store) Reopen(ctx context.Context, sessionID, itemID, note string) (*Item, error) {
	note, err := cleanAgentText("note", note, true)
	if err != nil {
		return nil, err
	}
	return s.userUpdate(ctx, "reopening item", "reopen feedback", sessionID, itemID, true, func(t *tx, it Item) (string, any, error) {
		if it.IsOpen() {
			return "", nil, invalid("item %d is %s; only a resolved or won't-fix item can be reopened", it.SequenceNumber, it.Status)
		}
		if _, err := t.ExecContext(ctx, `UPDATE items SET status = 'open', delivery = 'sent', resolved_by = '', resolved_at = NULL,
			verdict = ?, verdict_note = ?, updated_at = ? WHERE id = ?`, VerdictReopened, note, millis(t.now), itemID); err != nil {
			return "", nil, err
		}
		r := Reopen{ItemID: it.ItemID, SequenceNumber: it.SequenceNumber, Comment: it.Comment, Note: note}
		if _, err := t.queueBatch(ctx, sessionID, BatchKindReopen, batchPayload{Reopened: []Reopen{r}}); err != nil {
			return "", nil, err
		}
		return "item-reopened", map[string]string{"note": note}, nil
	})
}
