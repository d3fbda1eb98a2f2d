package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"fixthis/app/errcode"
	"fixthis/app/evidence"
)

// MaxEvidencePerItem bounds how many attempts a read returns for one item.
const MaxEvidencePerItem = 10

// EvidenceRecord is one stored runtime evidence attempt for one item.
type EvidenceRecord struct {
	evidence.Attempt
	SessionID string          `json:"sessionId"`
	ItemID    string          `json:"itemId"`
	Trigger   EvidenceTrigger `json:"trigger"`
	CreatedAt time.Time       `json:"createdAt"`
}

// EvidenceDecision is what Save to MCP decided about automatic collection:
// the prompt's runtimeEvidenceAttempt block. It carries no ids or paths.
type EvidenceDecision struct {
	Attempted bool            `json:"attempted"`
	Status    evidence.Status `json:"status"`
	Failure   string          `json:"failure,omitempty"`
	Reason    SkipReason      `json:"reason,omitempty"`
	Warnings  []string        `json:"warnings,omitempty"`
}

// AddEvidence stores one attempt for each of itemIDs (all of sessionID) and
// tells watchers the session changed. An attempt with no attachments, or a
// skipped one, is refused: only real results are stored.
func (s *Store) AddEvidence(ctx context.Context, sessionID string, itemIDs []string, trigger EvidenceTrigger, a evidence.Attempt) ([]EvidenceRecord, error) {
	switch trigger {
	case EvidenceTriggerAuto, EvidenceTriggerManual, EvidenceTriggerAgent:
	default:
		return nil, invalid("runtime evidence trigger %s is not auto, manual or agent", echo(trigger))
	}
	switch a.Status {
	case evidence.StatusComplete, evidence.StatusPartial, evidence.StatusFailed, evidence.StatusUnsupported:
	default:
		return nil, invalid("runtime evidence status %s cannot be stored", echo(string(a.Status)))
	}
	if a.ID == "" || len(itemIDs) == 0 {
		return nil, invalid("a runtime evidence attempt needs a capture id and items")
	}
	body, err := json.Marshal(a)
	if err != nil {
		return nil, fmt.Errorf("encode runtime evidence: %w", err)
	}
	var out []EvidenceRecord
	err = s.write(ctx, "storing runtime evidence", func(t *tx) error {
		if _, err := getSessionRow(ctx, t, sessionID); err != nil {
			return err
		}
		for _, id := range itemIDs {
			if _, err := getItem(ctx, t, sessionID, id); err != nil {
				return err
			}
			if _, err := t.ExecContext(ctx, `INSERT INTO evidence_attempts(capture_id, item_id, session_id, trigger, status, attempt_json, created_at)
				VALUES (?, ?, ?, ?, ?, ?, ?)`, a.ID, id, sessionID, trigger, string(a.Status), string(body), millis(t.now)); err != nil {
				return fmt.Errorf("insert runtime evidence: %w", err)
			}
			if err := t.event(ctx, sessionID, id, actorFor(trigger), "runtime-evidence-collected",
				map[string]any{"captureId": a.ID, "status": a.Status, "trigger": trigger}); err != nil {
				return err
			}
			out = append(out, EvidenceRecord{Attempt: a, SessionID: sessionID, ItemID: id, Trigger: trigger, CreatedAt: t.now})
		}
		return t.touchSession(ctx, sessionID, false)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func actorFor(trigger EvidenceTrigger) string {
	if trigger == EvidenceTriggerAgent {
		return ActorAgent
	}
	return ActorUser
}

// ItemEvidence returns an item's attempts, newest first (at most
// MaxEvidencePerItem). sessionID may be empty: item ids are unique.
func (s *Store) ItemEvidence(ctx context.Context, sessionID, itemID string) ([]EvidenceRecord, error) {
	if err := checkKey("itemId", itemID); err != nil {
		return nil, err
	}
	var out []EvidenceRecord
	err := s.read(ctx, "reading runtime evidence", func(t *sql.Tx) error {
		var owner string
		err := t.QueryRowContext(ctx, `SELECT session_id FROM items WHERE id = ?`, itemID).Scan(&owner)
		if err == sql.ErrNoRows || err == nil && sessionID != "" && owner != sessionID {
			return errorf(errcode.ItemNotFound, "no item %s", echo(itemID))
		}
		if err != nil {
			return err
		}
		out, err = queryEvidence(ctx, t, `WHERE item_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?`, itemID, MaxEvidencePerItem)
		return err
	})
	return out, err
}

// SessionEvidence returns each item's newest attempt, by item id.
func (s *Store) SessionEvidence(ctx context.Context, sessionID string) (map[string]EvidenceRecord, error) {
	out := map[string]EvidenceRecord{}
	err := s.read(ctx, "reading runtime evidence", func(t *sql.Tx) error {
		recs, err := queryEvidence(ctx, t, `WHERE session_id = ? ORDER BY created_at, rowid`, sessionID)
		for _, r := range recs {
			out[r.ItemID] = r // later rows are newer
		}
		return err
	})
	return out, err
}

func queryEvidence(ctx context.Context, q querier, where string, args ...any) ([]EvidenceRecord, error) {
	rows, err := q.QueryContext(ctx, `SELECT session_id, item_id, trigger, attempt_json, created_at FROM evidence_attempts `+where, args...)
	if err != nil {
		return nil, err
	}
	return appendRows([]EvidenceRecord{}, rows, scanEvidence)
}

func scanEvidence(sc interface{ Scan(...any) error }) (EvidenceRecord, error) {
	var r EvidenceRecord
	var body string
	var created int64
	if err := sc.Scan(&r.SessionID, &r.ItemID, &r.Trigger, &body, &created); err != nil {
		return r, err
	}
	if err := json.Unmarshal([]byte(body), &r.Attempt); err != nil {
		return r, fmt.Errorf("decode runtime evidence of %s: %w", r.ItemID, err)
	}
	r.CreatedAt = fromMillis(created)
	return r, nil
}

// DecisionOf turns a finished attempt into Save to MCP's decision record.
func DecisionOf(a evidence.Attempt) EvidenceDecision {
	return EvidenceDecision{Attempted: true, Status: a.Status, Failure: string(a.Failure), Warnings: a.Warnings}
}

// SkippedDecision is Save to MCP's record when the policy did not collect:
// reason is the policy (manual, off) or "skipped" when nothing could start.
func SkippedDecision(reason SkipReason) EvidenceDecision {
	return EvidenceDecision{Status: evidence.StatusSkipped, Reason: reason}
}

// Releasable returns the items Save to MCP would release now among itemIDs
// (all of the session's when empty), so the app can collect runtime evidence
// for exactly them before it releases them.
func (s *Store) Releasable(ctx context.Context, sessionID string, itemIDs []string) ([]Item, error) {
	var out []Item
	err := s.read(ctx, "reading releasable items", func(t *sql.Tx) error {
		items, err := loadItemsByID(ctx, t, sessionID, itemIDs)
		for _, it := range items {
			if releasable(it) {
				out = append(out, it)
			}
		}
		return err
	})
	return out, err
}
