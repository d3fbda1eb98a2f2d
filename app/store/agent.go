package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"fixthis/app/errcode"
)

// FeedbackQuery selects items for the agent.
type FeedbackQuery struct {
	// SessionID limits the list to one session; empty means every open one.
	SessionID string
	// IncludeAll adds drafts never handed off and finished items.
	IncludeAll bool
	// Limit caps the items returned (default 100, at most 1000): an agent
	// reads a page it can act on, and the call stays fast on large stores.
	Limit int
}

// FeedbackPage is a list of items and how many matched in all.
type FeedbackPage struct {
	Items []Item `json:"items"`
	Total int    `json:"total"`
}

const (
	defaultFeedbackLimit = 100
	maxFeedbackLimit     = 1000
)

// ListFeedback lists the items an agent should see: by default those handed
// to it (Save to MCP, a copied prompt, or already being worked) and not yet
// finished; with IncludeAll every item. Oldest sessions and lowest sequence
// numbers come first.
func (s *Store) ListFeedback(ctx context.Context, q FeedbackQuery) (*FeedbackPage, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = defaultFeedbackLimit
	}
	limit = min(limit, maxFeedbackLimit)
	page := &FeedbackPage{}
	err := s.read(ctx, "listing feedback", func(t *sql.Tx) error {
		where := `WHERE session_id IN (SELECT id FROM sessions WHERE status = 'open')`
		var args []any
		if q.SessionID != "" {
			if _, err := getSessionRow(ctx, t, q.SessionID); err != nil {
				return err
			}
			where, args = `WHERE session_id = ?`, append(args, q.SessionID)
		}
		if !q.IncludeAll {
			where += ` AND status NOT IN ('resolved', 'wont_fix')
				AND (delivery = 'sent' OR last_handed_off_at IS NOT NULL OR status IN ('in_progress', 'needs_clarification'))`
		}
		if err := t.QueryRowContext(ctx, `SELECT COUNT(*) FROM items `+where, args...).Scan(&page.Total); err != nil {
			return err
		}
		var err error
		page.Items, err = queryItems(ctx, t, where+` ORDER BY created_at, session_id, sequence_number LIMIT ?`, append(args, limit)...)
		return err
	})
	if err != nil {
		return nil, err
	}
	return page, nil
}

// ItemDetail is an item with the screen it was written on.
type ItemDetail struct {
	Item   Item    `json:"item"`
	Screen *Screen `json:"screen,omitempty"`
}

// ReadItem returns one item and its screen. sessionID may be empty: item ids
// are unique across sessions.
func (s *Store) ReadItem(ctx context.Context, sessionID, itemID string) (*ItemDetail, error) {
	if err := checkKey("itemId", itemID); err != nil {
		return nil, err
	}
	var out ItemDetail
	err := s.read(ctx, "reading item", func(t *sql.Tx) error {
		if sessionID == "" {
			err := t.QueryRowContext(ctx, `SELECT session_id FROM items WHERE id = ?`, itemID).Scan(&sessionID)
			if errors.Is(err, sql.ErrNoRows) {
				return errorf(errcode.ItemNotFound, "no item %s", echo(itemID))
			}
			if err != nil {
				return err
			}
		} else if _, err := getSessionRow(ctx, t, sessionID); err != nil {
			return err
		}
		var err error
		if out.Item, err = getItem(ctx, t, sessionID, itemID); err != nil {
			return err
		}
		if out.Item.ScreenID != "" {
			sc, err := getScreen(ctx, t, sessionID, out.Item.ScreenID)
			if err != nil {
				return err
			}
			out.Screen = &sc
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// GetScreen returns one saved screen of a session.
func (s *Store) GetScreen(ctx context.Context, sessionID, screenID string) (*Screen, error) {
	var out Screen
	err := s.read(ctx, "reading screen", func(t *sql.Tx) error {
		var err error
		out, err = getScreen(ctx, t, sessionID, screenID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// agentUpdate runs one agent-side item change: the session must be open, the
// item must exist and not be closed by the user, check may refuse it, and
// apply writes the new state.
func (s *Store) agentUpdate(ctx context.Context, op, action, sessionID, itemID string,
	check func(*tx, Item) error, apply func(*tx, Item) (kind string, payload any, err error)) (*Item, error) {
	if err := checkKey("itemId", itemID); err != nil {
		return nil, err
	}
	return s.updateItem(ctx, op, sessionID, itemID, ActorAgent, false, func(t *tx) (Item, error) {
		it, err := itemForWrite(ctx, t, sessionID, itemID, action)
		if errcode.Of(err) == errcode.ItemNotFound {
			return Item{}, deletedByUser(ctx, t, sessionID, itemID, err)
		}
		if err != nil {
			return Item{}, err
		}
		if it.ResolvedBy == ResolvedByUser && isTerminal(it.Status) {
			return Item{}, errorf(errcode.ItemClosedByUser, "the developer marked item %d %s; that decision is final, leave the item as it is",
				it.SequenceNumber, it.Status)
		}
		return it, check(t, it)
	}, apply)
}

// deletedByUser turns ITEM_NOT_FOUND into ITEM_CLOSED_BY_USER for an item
// the developer deleted: the event log keeps its deletion.
func deletedByUser(ctx context.Context, t *tx, sessionID, itemID string, notFound error) error {
	var n int
	if err := t.QueryRowContext(ctx, `SELECT COUNT(*) FROM events WHERE session_id = ? AND item_id = ? AND kind = 'item-deleted'`,
		sessionID, itemID).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return errorf(errcode.ItemClosedByUser, "the developer deleted item %s; stop working on it", echo(itemID))
	}
	return notFound
}

func notTerminal(_ *tx, it Item) error {
	if isTerminal(it.Status) {
		return errorf(errcode.ItemAlreadyResolved, "item %d is already %s (by %s)", it.SequenceNumber, it.Status, it.ResolvedBy)
	}
	return nil
}

// openAndFree is the check of claim: the item is not finished, and
// no other live agent holds it.
func openAndFree(ctx context.Context, agent string) func(*tx, Item) error {
	return func(t *tx, it Item) error {
		if err := notTerminal(t, it); err != nil {
			return err
		}
		return claimFree(ctx, t, it, agent)
	}
}

// claimFree refuses a claim while another agent whose connection is alive
// holds the item. A claim of a connection that is gone can be taken over.
// The asker of an open question keeps its claim until the item is resolved.
func claimFree(ctx context.Context, t *tx, it Item, agent string) error {
	if it.ClaimedBy == "" || it.ClaimedBy == agent {
		return nil
	}
	alive, err := connectionAlive(ctx, t, it.ClaimedBy, t.now)
	if err != nil || !alive {
		return err
	}
	since := "earlier"
	if it.ClaimedAt != nil {
		since = it.ClaimedAt.UTC().Format(time.RFC3339)
	}
	return errorf(errcode.ItemClaimed, "item %d is claimed by another agent since %s; pick another item", it.SequenceNumber, since)
}

// heldBy is the check of resolve and ask: the item is not finished and the
// calling agent holds its claim. Another live agent's claim is ITEM_CLAIMED;
// no claim, or a claim of a connection that is gone, is ITEM_NOT_CLAIMED.
func heldBy(ctx context.Context, agent string) func(*tx, Item) error {
	return func(t *tx, it Item) error {
		if err := notTerminal(t, it); err != nil {
			return err
		}
		if agent != "" && it.ClaimedBy == agent {
			return nil
		}
		if err := claimFree(ctx, t, it, agent); err != nil {
			return err
		}
		return errorf(errcode.ItemNotClaimed, "item %d is not claimed by this connection; claim it with fixthis_claim_feedback first",
			it.SequenceNumber)
	}
}

// updateHeld runs an UPDATE of an item (set is the SET list, args its values)
// that takes effect only while agent holds the item's claim and the item is
// not finished: the check and the write are one statement, so no racing
// writer can slip between them.
func (t *tx) updateHeld(ctx context.Context, agent, itemID, set string, args ...any) error {
	res, err := t.ExecContext(ctx, `UPDATE items SET `+set+` WHERE id = ? AND claimed_by = ? AND claimed_by != ''
		AND status NOT IN ('resolved', 'wont_fix')`, append(args, itemID, agent)...)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n != 1 {
		return errorf(errcode.ItemNotClaimed, "item %s is no longer claimed by this connection; claim it again", echo(itemID))
	}
	return nil
}

// Claim marks an item in_progress before the agent edits code. The claim
// belongs to the agent connection of ctx (WithAgent): another live agent is
// refused with ITEM_CLAIMED, and the same agent claiming again changes
// nothing. Claiming a resolved or wont_fix item is ITEM_ALREADY_RESOLVED, or
// ITEM_CLOSED_BY_USER when the developer closed it.
func (s *Store) Claim(ctx context.Context, sessionID, itemID, agentNote string) (*Item, error) {
	note, err := cleanAgentText("agentNote", agentNote, false)
	if err != nil {
		return nil, err
	}
	agent := AgentFrom(ctx)
	return s.agentUpdate(ctx, "claiming item", "run claim", sessionID, itemID,
		openAndFree(ctx, agent),
		func(t *tx, it Item) (string, any, error) {
			if note == "" {
				note = it.AgentNote
			}
			claimedAt := millis(t.now)
			if it.Status == StatusInProgress && it.ClaimedBy == agent && it.ClaimedAt != nil {
				claimedAt = millis(*it.ClaimedAt) // a repeated claim keeps its start
			}
			_, err := t.ExecContext(ctx, `UPDATE items SET status = 'in_progress', agent_note = ?, claimed_by = ?, claimed_at = ?,
				updated_at = ? WHERE id = ?`, note, agent, claimedAt, millis(t.now), itemID)
			if err != nil {
				return "", nil, err
			}
			return "item-claimed", map[string]string{"agentNote": note}, t.change(ctx, sessionID, ChangePresence)
		})
}

// ResolveInput is the agent's outcome for an item.
type ResolveInput struct {
	SessionID string
	ItemID    string
	Status    ItemStatus // resolved | wont_fix | needs_clarification
	Summary   string
	// Verification, with a resolved status, is what the agent's capture after the
	// fix shows; the app computes it from the capture.
	Verification *Verification
}

// Resolve records the agent's outcome. Only the agent holding the item's
// claim may (ITEM_NOT_CLAIMED, ITEM_CLAIMED otherwise), and a resolved or
// wont_fix item keeps its outcome until the user reopens it
// (ITEM_ALREADY_RESOLVED). needs_clarification keeps the item open, and
// claimed by the asker, with the summary as the question shown to the user.
func (s *Store) Resolve(ctx context.Context, in ResolveInput) (*Item, error) {
	switch in.Status {
	case StatusResolved, StatusWontFix, StatusNeedsClarification:
	default:
		return nil, invalid("status must be resolved, wont_fix or needs_clarification, not %s", echo(in.Status))
	}
	summary, err := cleanAgentText("summary", in.Summary, true)
	if err != nil {
		return nil, err
	}
	agent := AgentFrom(ctx)
	return s.agentUpdate(ctx, "resolving item", "run resolve", in.SessionID, in.ItemID,
		heldBy(ctx, agent),
		func(t *tx, it Item) (string, any, error) {
			var err error
			if in.Status == StatusNeedsClarification {
				err = t.updateHeld(ctx, agent, in.ItemID, `status = ?, agent_summary = ?, agent_question = ?, user_answer = '',
					resolved_by = '', resolved_at = NULL, updated_at = ?`, in.Status, summary, summary, millis(t.now))
			} else {
				err = t.updateHeld(ctx, agent, in.ItemID, `status = ?, agent_summary = ?, resolved_by = 'agent',
					resolved_at = ?, claimed_by = '', claimed_at = NULL, updated_at = ?`,
					in.Status, summary, millis(t.now), millis(t.now))
			}
			if err != nil {
				return "", nil, fmt.Errorf("resolve item: %w", err)
			}
			if in.Status == StatusResolved {
				if err := t.setVerification(ctx, in.ItemID, in.Verification); err != nil {
					return "", nil, fmt.Errorf("resolve item: %w", err)
				}
			}
			return "item-resolved", map[string]string{"status": string(in.Status), "summary": summary}, t.change(ctx, in.SessionID, ChangePresence)
		})
}

// Ask puts a question to the user: the item becomes needs_clarification and
// the user's answer comes back through the agent's wait. Like Resolve it
// needs the caller's claim, which the asker keeps so it can resolve the item
// once the answer arrives.
func (s *Store) Ask(ctx context.Context, sessionID, itemID, question string) (*Item, error) {
	question, err := cleanAgentText("question", question, true)
	if err != nil {
		return nil, err
	}
	agent := AgentFrom(ctx)
	return s.agentUpdate(ctx, "asking question", "run ask", sessionID, itemID,
		heldBy(ctx, agent),
		func(t *tx, it Item) (string, any, error) {
			err := t.updateHeld(ctx, agent, itemID, `status = 'needs_clarification', agent_question = ?, user_answer = '',
				updated_at = ?`, question, millis(t.now))
			if err != nil {
				return "", nil, err
			}
			return "question-asked", map[string]string{"question": question}, t.change(ctx, sessionID, ChangePresence)
		})
}
