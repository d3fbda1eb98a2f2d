package store

import (
	"context"
	"encoding/json"
	"fmt"

	"fixthis/app/errcode"
)

// MarkCopied records a Copy Prompt of itemIDs: each gets lastHandedOffAt and
// the session gets a "copy" handoff. Delivery does not change: a copied item
// is not sent.
func (s *Store) MarkCopied(ctx context.Context, sessionID string, itemIDs []string) (*Session, error) {
	if len(itemIDs) == 0 {
		return nil, invalid("itemIds is required")
	}
	return s.writeSession(ctx, "recording copied prompt", sessionID, func(t *tx) error {
		items, err := itemsForWrite(ctx, t, sessionID, itemIDs, "copy a prompt")
		if err != nil {
			return err
		}
		ids := make([]string, 0, len(items))
		for _, it := range items {
			if _, err := t.ExecContext(ctx, `UPDATE items SET last_handed_off_at = ? WHERE id = ?`, millis(t.now), it.ItemID); err != nil {
				return fmt.Errorf("mark copied: %w", err)
			}
			ids = append(ids, it.ItemID)
		}
		if _, err := t.insertHandoff(ctx, sessionID, HandoffKindCopy, ids, ""); err != nil {
			return err
		}
		return t.record(ctx, sessionID, "", ActorUser, "prompt-copied", map[string]any{"itemIds": ids}, false)
	})
}

// ReleaseResult is what Save to MCP produced.
type ReleaseResult struct {
	Session *Session `json:"session"`
	Handoff Handoff  `json:"handoff"`
	BatchID string   `json:"batchId"`
	// Items are the released items, in sequence order.
	Items []Item `json:"items"`
}

// releasable: drafts and sent items edited since release, which the agent is
// not working on and has not finished.
func releasable(it Item) bool {
	switch it.Status {
	case StatusInProgress, StatusResolved, StatusWontFix:
		return false
	}
	return it.Delivery == DeliveryDraft || it.ModifiedAfterSend
}

// ReleaseToAgent is Save to MCP: the releasable items among itemIDs (all of
// the session's when empty) become sent/ready, a handoff batch records the
// release, and an agent batch wakes the agent's wait. Nothing releasable →
// NO_DRAFT_FEEDBACK.
func (s *Store) ReleaseToAgent(ctx context.Context, sessionID string, itemIDs []string) (*ReleaseResult, error) {
	return s.ReleaseWithEvidence(ctx, sessionID, itemIDs, nil)
}

// ReleaseWithEvidence is ReleaseToAgent recording Save to MCP's runtime
// evidence decision in the agent batch, so the prompt the agent is served
// carries the runtimeEvidenceAttempt block.
func (s *Store) ReleaseWithEvidence(ctx context.Context, sessionID string, itemIDs []string, decision *EvidenceDecision) (*ReleaseResult, error) {
	res := &ReleaseResult{}
	err := s.write(ctx, "saving to MCP", func(t *tx) error {
		items, err := itemsForWrite(ctx, t, sessionID, itemIDs, "save to MCP")
		if err != nil {
			return err
		}
		ids, handoff, batchID, err := t.release(ctx, sessionID, items, decision)
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			return errorf(errcode.NoDraftFeedback, "no draft or changed feedback to save to MCP")
		}
		res.Handoff = handoff
		if err := t.touchSession(ctx, sessionID, true); err != nil {
			return err
		}
		res.BatchID = batchID
		if res.Session, err = loadSession(ctx, t, sessionID); err != nil {
			return err
		}
		res.Items, err = loadItemsByID(ctx, t, sessionID, ids)
		return err
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// release hands the releasable ones among items to the agent: they become
// sent/ready, one handoff records it, and one agent batch wakes the agent's
// wait. ids is empty (and nothing is written) when none is releasable.
func (t *tx) release(ctx context.Context, sessionID string, items []Item, decision *EvidenceDecision) (ids []string, h Handoff, batchID string, err error) {
	for _, it := range items {
		if !releasable(it) {
			continue
		}
		status := it.Status
		if status == StatusOpen {
			status = StatusReady
		}
		if _, err := t.ExecContext(ctx, `UPDATE items SET delivery = 'sent', status = ?, modified_after_send = 0,
			last_handed_off_at = ?, updated_at = ? WHERE id = ?`, status, millis(t.now), millis(t.now), it.ItemID); err != nil {
			return nil, h, "", fmt.Errorf("release item: %w", err)
		}
		ids = append(ids, it.ItemID)
	}
	if len(ids) == 0 {
		return nil, h, "", nil
	}
	handoffID := newID()
	if batchID, err = t.queueBatch(ctx, sessionID, BatchKindRelease, batchPayload{ItemIDs: ids, HandoffID: handoffID, Evidence: decision}); err != nil {
		return nil, h, "", err
	}
	if h, err = t.insertHandoffWithID(ctx, handoffID, sessionID, HandoffKindMCP, ids, batchID); err != nil {
		return nil, h, "", err
	}
	err = t.event(ctx, sessionID, "", ActorUser, "released-to-agent", map[string]any{
		"itemIds": ids, "batchId": batchID, "handoffId": handoffID})
	return ids, h, batchID, err
}

func (t *tx) insertHandoff(ctx context.Context, sessionID, kind string, itemIDs []string, batchID string) (Handoff, error) {
	return t.insertHandoffWithID(ctx, newID(), sessionID, kind, itemIDs, batchID)
}

func (t *tx) insertHandoffWithID(ctx context.Context, id, sessionID, kind string, itemIDs []string, batchID string) (Handoff, error) {
	b, err := json.Marshal(itemIDs)
	if err != nil {
		return Handoff{}, err
	}
	if _, err := t.ExecContext(ctx, `INSERT INTO handoffs(id, session_id, kind, item_ids_json, agent_batch_id, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, id, sessionID, kind, string(b), batchID, millis(t.now)); err != nil {
		return Handoff{}, fmt.Errorf("insert handoff: %w", err)
	}
	return Handoff{HandoffID: id, SessionID: sessionID, Kind: kind, ItemIDs: itemIDs, BatchID: batchID, CreatedAt: t.now}, nil
}
