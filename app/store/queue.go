package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"fixthis/app/errcode"
)

// Answer is the user's answer to an agent question, delivered through wait.
type Answer struct {
	ItemID         string `json:"itemId"`
	SequenceNumber int    `json:"sequenceNumber"`
	Question       string `json:"question"`
	Answer         string `json:"answer"`
}

// Withdrawal tells the agent an item it had is gone (deleted, or closed by
// the user); the item may no longer exist, so it carries a snapshot.
type Withdrawal struct {
	ItemID         string `json:"itemId"`
	SequenceNumber int    `json:"sequenceNumber"`
	Comment        string `json:"comment"`
	Reason         string `json:"reason"`
}

// batchPayload is what an agent batch stores. Released items are stored by
// id and read fresh when served, so the agent sees their current state.
type batchPayload struct {
	ItemIDs     []string     `json:"itemIds,omitempty"`
	Answers     []Answer     `json:"answers,omitempty"`
	Withdrawals []Withdrawal `json:"withdrawals,omitempty"`
	Reopened    []Reopen     `json:"reopened,omitempty"`
	HandoffID   string       `json:"handoffId,omitempty"`
	// Evidence is Save to MCP's runtime evidence decision (release batches).
	Evidence *EvidenceDecision `json:"evidence,omitempty"`
}

// AgentBatch is one unit of work served to the agent's wait. It is served
// again, oldest first, until acknowledged.
type AgentBatch struct {
	BatchID    string    `json:"batchId"`
	SessionID  string    `json:"sessionId"`
	Kind       string    `json:"kind"` // release | answer | withdrawal | reopen
	CreatedAt  time.Time `json:"createdAt"`
	ServeCount int       `json:"serveCount"`
	HandoffID  string    `json:"handoffId,omitempty"`
	// Evidence is Save to MCP's runtime evidence decision, for the prompt's
	// runtimeEvidenceAttempt block (release batches; nil before it existed).
	Evidence    *EvidenceDecision `json:"evidence,omitempty"`
	Items       []Item            `json:"items"`
	Answers     []Answer          `json:"answers"`
	Withdrawals []Withdrawal      `json:"withdrawals"`
	Reopened    []Reopen          `json:"reopened"`
}

// queueBatch appends a batch for the agent and wakes waiters.
func (t *tx) queueBatch(ctx context.Context, sessionID, kind string, p batchPayload) (string, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return "", err
	}
	id := "b-" + newID()
	if _, err := t.ExecContext(ctx, `INSERT INTO agent_batches(id, session_id, kind, payload_json, created_at)
		VALUES (?, ?, ?, ?, ?)`, id, sessionID, kind, string(b), millis(t.now)); err != nil {
		return "", fmt.Errorf("queue %s batch: %w", kind, err)
	}
	return id, t.change(ctx, sessionID, ChangeAgentBatch)
}

// NextAgentBatch serves the oldest unacknowledged batch of sessionID (of any
// session when empty), or nil when there is none. Serving marks it served
// but keeps it queued: only AckBatch removes it from the queue.
//
// A served batch is reserved to the agent connection it was served to (ctx's
// WithAgent): until it is acknowledged, other agents skip it while that
// connection is alive, so two agents never start on the same feedback. Once
// the connection is gone, the batch is served to the next agent that waits.
func (s *Store) NextAgentBatch(ctx context.Context, sessionID string) (*AgentBatch, error) {
	agent := AgentFrom(ctx)
	var out *AgentBatch
	err := s.write(ctx, "serving agent batch", func(t *tx) error {
		q := `SELECT id, session_id, kind, payload_json, created_at, serve_count FROM agent_batches b WHERE acked_at IS NULL
			AND (served_to IN ('', ?) OR NOT EXISTS (SELECT 1 FROM agent_connections c WHERE c.id = b.served_to AND c.last_seen_at > ?))`
		args := []any{agent, liveCutoff(t.now)}
		if sessionID != "" {
			q += ` AND session_id = ?`
			args = append(args, sessionID)
		}
		q += ` ORDER BY seq LIMIT 1`
		var b AgentBatch
		var payload string
		var created int64
		err := t.QueryRowContext(ctx, q, args...).Scan(&b.BatchID, &b.SessionID, &b.Kind, &payload, &created, &b.ServeCount)
		if errors.Is(err, sql.ErrNoRows) {
			if sessionID != "" {
				if _, err := getSessionRow(ctx, t, sessionID); err != nil {
					return err
				}
			}
			return nil
		}
		if err != nil {
			return err
		}
		var p batchPayload
		if err := json.Unmarshal([]byte(payload), &p); err != nil {
			return fmt.Errorf("decode batch %s: %w", b.BatchID, err)
		}
		if _, err := t.ExecContext(ctx, `UPDATE agent_batches SET served_at = ?, serve_count = serve_count + 1, served_to = ? WHERE id = ?`,
			millis(t.now), agent, b.BatchID); err != nil {
			return err
		}
		b.ServeCount++
		b.CreatedAt, b.HandoffID, b.Evidence = fromMillis(created), p.HandoffID, p.Evidence
		b.Answers, b.Withdrawals, b.Reopened = nonNil(p.Answers), nonNil(p.Withdrawals), nonNil(p.Reopened)
		b.Items = []Item{}
		for _, id := range p.ItemIDs {
			it, err := getItem(ctx, t, b.SessionID, id)
			if errcode.Of(err) == errcode.ItemNotFound {
				continue // deleted since; its withdrawal is a batch of its own
			}
			if err != nil {
				return err
			}
			b.Items = append(b.Items, it)
		}
		if err := t.event(ctx, b.SessionID, "", ActorAgent, "batch-served", map[string]any{"batchId": b.BatchID, "serveCount": b.ServeCount}); err != nil {
			return err
		}
		out = &b
		return nil
	})
	return out, err
}

// UnreserveBatch frees a batch served to the agent of ctx that never reached
// it (the answer could not be built), so any agent may be served it again.
func (s *Store) UnreserveBatch(ctx context.Context, batchID string) error {
	agent := AgentFrom(ctx)
	return s.write(ctx, "freeing agent batch", func(t *tx) error {
		_, err := t.ExecContext(ctx, `UPDATE agent_batches SET served_to = '' WHERE id = ? AND served_to = ?`, batchID, agent)
		return err
	})
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// AckResult reports an acknowledgement; a repeated ack is not an error.
type AckResult struct {
	BatchID      string `json:"batchId"`
	SessionID    string `json:"sessionId"`
	AlreadyAcked bool   `json:"alreadyAcked"`
}

// AckBatch removes a batch from the queue. Acknowledging twice is fine; an
// unknown id is BATCH_NOT_FOUND.
func (s *Store) AckBatch(ctx context.Context, batchID string) (*AckResult, error) {
	if err := checkKey("batchId", batchID); err != nil {
		return nil, err
	}
	res := &AckResult{BatchID: batchID}
	err := s.write(ctx, "acknowledging batch", func(t *tx) error {
		var acked sql.NullInt64
		err := t.QueryRowContext(ctx, `SELECT session_id, acked_at FROM agent_batches WHERE id = ?`, batchID).Scan(&res.SessionID, &acked)
		if errors.Is(err, sql.ErrNoRows) {
			return errorf(errcode.BatchNotFound, "no agent batch %s", echo(batchID))
		}
		if err != nil {
			return err
		}
		if acked.Valid {
			res.AlreadyAcked = true
			return nil
		}
		if _, err := t.ExecContext(ctx, `UPDATE agent_batches SET acked_at = ? WHERE id = ?`, millis(t.now), batchID); err != nil {
			return err
		}
		return t.event(ctx, res.SessionID, "", ActorAgent, "batch-acked", map[string]string{"batchId": batchID})
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// PendingBatches counts unacknowledged batches of a session (all when empty).
func (s *Store) PendingBatches(ctx context.Context, sessionID string) (int, error) {
	q := `SELECT COUNT(*) FROM agent_batches WHERE acked_at IS NULL`
	var args []any
	if sessionID != "" {
		q += ` AND session_id = ?`
		args = append(args, sessionID)
	}
	var n int
	err := s.rdb.QueryRowContext(ctx, q, args...).Scan(&n)
	return n, storageErr("counting agent batches", err)
}
