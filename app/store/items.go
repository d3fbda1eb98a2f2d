package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"fixthis/app/errcode"
)

// ItemUpdate edits a saved item; nil fields stay as they are.
type ItemUpdate struct {
	Comment  *string   `json:"comment,omitempty"`
	Severity *Severity `json:"severity,omitempty"`
	Target   *Target   `json:"target,omitempty"`
}

// editable refuses items the agent is working on or has finished.
// needs_clarification stays editable (the contract says so).
func editable(it Item) error {
	switch it.Status {
	case StatusInProgress:
		return errorf(errcode.ItemNotEditable, "item %d is in progress by the agent", it.SequenceNumber)
	case StatusResolved, StatusWontFix:
		return errorf(errcode.ItemNotEditable, "item %d is %s", it.SequenceNumber, it.Status)
	}
	return nil
}

// UpdateItem edits an item's comment, severity or target. Editing a sent item
// marks it sent_modified until it is released again.
func (s *Store) UpdateItem(ctx context.Context, sessionID, itemID string, u ItemUpdate) (*Item, error) {
	if u.Comment != nil {
		c, err := cleanComment(*u.Comment)
		if err != nil {
			return nil, err
		}
		u.Comment = &c
	}
	if u.Severity != nil {
		sev, err := cleanSeverity(*u.Severity)
		if err != nil {
			return nil, err
		}
		u.Severity = &sev
	}
	if u.Target != nil {
		if err := validateTarget(u.Target); err != nil {
			return nil, err
		}
	}
	return s.userUpdate(ctx, "updating item", "edit feedback", sessionID, itemID, true, func(t *tx, it Item) (string, any, error) {
		if err := editable(it); err != nil {
			return "", nil, err
		}
		if u.Target != nil {
			if err := onItsScreen(ctx, t, it.ScreenID, u.Target.Bounds); err != nil {
				return "", nil, err
			}
		}
		sets, args := []string{"updated_at = ?"}, []any{millis(t.now)}
		if u.Comment != nil {
			sets, args = append(sets, "comment = ?"), append(args, *u.Comment)
		}
		if u.Severity != nil {
			sets, args = append(sets, "severity = ?"), append(args, *u.Severity)
		}
		if u.Target != nil {
			b, err := json.Marshal(u.Target)
			if err != nil {
				return "", nil, err
			}
			sets, args = append(sets, "target_json = ?"), append(args, string(b))
		}
		if it.Delivery == DeliverySent {
			sets = append(sets, "modified_after_send = 1")
		}
		args = append(args, itemID)
		if _, err := t.ExecContext(ctx, `UPDATE items SET `+strings.Join(sets, ", ")+` WHERE id = ?`, args...); err != nil {
			return "", nil, fmt.Errorf("update item: %w", err)
		}
		return "item-updated", u, nil
	})
}

// userUpdate runs one of the user's edits of an item (updateItem): the item's
// session must take writes. bumpRevision moves the session's ETag, as every
// edit of what the user wrote must.
func (s *Store) userUpdate(ctx context.Context, op, action, sessionID, itemID string, bumpRevision bool,
	apply func(*tx, Item) (kind string, payload any, err error)) (*Item, error) {
	return s.updateItem(ctx, op, sessionID, itemID, ActorUser, bumpRevision, func(t *tx) (Item, error) {
		return itemForWrite(ctx, t, sessionID, itemID, action)
	}, apply)
}

// updateItem runs one change of an item by actor in a write transaction: read
// gets the item (or refuses the change), apply changes it and names the event
// to log, and the item is returned as it now reads.
func (s *Store) updateItem(ctx context.Context, op, sessionID, itemID, actor string, bumpRevision bool,
	read func(*tx) (Item, error), apply func(*tx, Item) (kind string, payload any, err error)) (*Item, error) {
	var out Item
	err := s.write(ctx, op, func(t *tx) error {
		it, err := read(t)
		if err != nil {
			return err
		}
		kind, payload, err := apply(t, it)
		if err != nil {
			return err
		}
		out, err = t.itemChanged(ctx, sessionID, itemID, actor, kind, payload, bumpRevision)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// onItsScreen refuses an edited target's bounds that leave the item's saved
// screen, the rule a save applies; an item without a screen size (a clip's
// note) is held to maxCoordinate.
func onItsScreen(ctx context.Context, t *tx, screenID string, b *Bounds) error {
	if b == nil {
		return nil
	}
	w, h := maxCoordinate, maxCoordinate
	if screenID != "" {
		var sw, sh int
		err := t.QueryRowContext(ctx, `SELECT width, height FROM screens WHERE id = ?`, screenID).Scan(&sw, &sh)
		switch {
		case err == nil && sw > 0 && sh > 0:
			w, h = sw, sh
		case err != nil && !errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("read screen size: %w", err)
		}
	}
	return boundsOnScreen(b, w, h)
}

// agentHasItem says whether the agent knows about an item and must be told
// when it goes away: released to it, or picked up from a copied prompt.
func agentHasItem(it Item) bool {
	if isTerminal(it.Status) {
		return false
	}
	return it.Delivery == DeliverySent || it.Status == StatusInProgress || it.Status == StatusNeedsClarification
}

// withdrawFromAgent queues a withdrawal of it, for the reason given, when the
// agent has it; an item the agent was never given needs none.
func (t *tx) withdrawFromAgent(ctx context.Context, it Item, reason string) error {
	if !agentHasItem(it) {
		return nil
	}
	w := Withdrawal{ItemID: it.ItemID, SequenceNumber: it.SequenceNumber, Comment: it.Comment, Reason: reason}
	_, err := t.queueBatch(ctx, it.SessionID, BatchKindWithdrawn, batchPayload{Withdrawals: []Withdrawal{w}})
	return err
}

// DeleteItem removes an item. Its sequence number is never reused. Deleting
// an item the agent has queues a withdrawal for the agent's next wait.
func (s *Store) DeleteItem(ctx context.Context, sessionID, itemID string) error {
	return s.write(ctx, "deleting item", func(t *tx) error {
		it, err := itemForWrite(ctx, t, sessionID, itemID, "delete feedback")
		if err != nil {
			return err
		}
		if _, err := t.ExecContext(ctx, `DELETE FROM items WHERE id = ?`, itemID); err != nil {
			return fmt.Errorf("delete item: %w", err)
		}
		if err := t.withdrawFromAgent(ctx, it, "deleted"); err != nil {
			return err
		}
		return t.record(ctx, sessionID, itemID, ActorUser, "item-deleted", map[string]any{
			"sequenceNumber": it.SequenceNumber, "comment": it.Comment, "phase": it.Phase}, true)
	})
}

// DeleteDraftItems is Clear Draft: it deletes the session's unsent, untouched
// draft items and returns how many.
func (s *Store) DeleteDraftItems(ctx context.Context, sessionID string) (int, error) {
	var n int64
	err := s.write(ctx, "clearing draft", func(t *tx) error {
		if _, err := openSessionForWrite(ctx, t, sessionID, "clear the draft"); err != nil {
			return err
		}
		res, err := t.ExecContext(ctx, `DELETE FROM items WHERE session_id = ? AND delivery = 'draft' AND status = 'open'`, sessionID)
		if err != nil {
			return fmt.Errorf("delete drafts: %w", err)
		}
		if n, _ = res.RowsAffected(); n == 0 {
			return nil
		}
		return t.record(ctx, sessionID, "", ActorUser, "drafts-cleared", map[string]int64{"deleted": n}, true)
	})
	return int(n), err
}

// AnswerQuestion records the user's answer to the agent's question, puts the
// item back in the queue (ready, or open for a draft) and queues the answer
// for the agent's next wait.
func (s *Store) AnswerQuestion(ctx context.Context, sessionID, itemID, answer string) (*Item, error) {
	answer, err := cleanAgentText("answer", answer, true)
	if err != nil {
		return nil, err
	}
	return s.userUpdate(ctx, "answering question", "answer a question", sessionID, itemID, true, func(t *tx, it Item) (string, any, error) {
		if it.Status != StatusNeedsClarification {
			return "", nil, errorf(errcode.ItemNotEditable, "item %d has no open question (it is %s)", it.SequenceNumber, it.Phase)
		}
		next := StatusOpen
		if it.Delivery == DeliverySent {
			next = StatusReady
		}
		if _, err := t.ExecContext(ctx, `UPDATE items SET user_answer = ?, status = ?, updated_at = ? WHERE id = ?`,
			answer, next, millis(t.now), itemID); err != nil {
			return "", nil, fmt.Errorf("record answer: %w", err)
		}
		a := Answer{ItemID: itemID, SequenceNumber: it.SequenceNumber, Question: it.AgentQuestion, Answer: answer}
		if _, err := t.queueBatch(ctx, sessionID, BatchKindAnswer, batchPayload{Answers: []Answer{a}, ItemIDs: []string{itemID}}); err != nil {
			return "", nil, err
		}
		return "question-answered", a, nil
	})
}

// ResolveByUser closes an item from the console (resolved or wont_fix,
// resolvedBy user). An agent holding the item is told through a withdrawal.
func (s *Store) ResolveByUser(ctx context.Context, sessionID, itemID string, status ItemStatus) (*Item, error) {
	if status != StatusResolved && status != StatusWontFix {
		return nil, invalid("status must be resolved or wont_fix, not %s", echo(status))
	}
	return s.userUpdate(ctx, "resolving item", "resolve feedback", sessionID, itemID, true, func(t *tx, it Item) (string, any, error) {
		if _, err := t.ExecContext(ctx, `UPDATE items SET status = ?, resolved_by = 'user', resolved_at = ?,
			claimed_by = '', claimed_at = NULL, updated_at = ? WHERE id = ?`,
			status, millis(t.now), millis(t.now), itemID); err != nil {
			return "", nil, fmt.Errorf("resolve item: %w", err)
		}
		if err := t.withdrawFromAgent(ctx, it, string(status)+"_by_user"); err != nil {
			return "", nil, err
		}
		return "item-resolved", map[string]string{"status": string(status)}, nil
	})
}

// loadItemsByID returns the named items of a session in sequence order, or
// ITEM_NOT_FOUND naming the first unknown id.
func loadItemsByID(ctx context.Context, q querier, sessionID string, ids []string) ([]Item, error) {
	all, err := queryItems(ctx, q, `WHERE session_id = ? ORDER BY sequence_number`, sessionID)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return all, nil
	}
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	var out []Item
	for _, it := range all {
		if want[it.ItemID] {
			out = append(out, it)
			delete(want, it.ItemID)
		}
	}
	for _, id := range ids {
		if want[id] {
			return nil, errorf(errcode.ItemNotFound, "no item %s in session %s", echo(id), echo(sessionID))
		}
	}
	return out, nil
}
