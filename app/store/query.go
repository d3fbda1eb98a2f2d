package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"

	"fixthis/app/errcode"
)

// querier is satisfied by *sql.Tx and *tx, so every reader below works inside
// a read snapshot and inside a write transaction alike.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// appendRows scans every row with scan, appends it to out and closes rows.
// Callers start from an empty slice where JSON must show [] for none.
func appendRows[T any](out []T, rows *sql.Rows, scan func(interface{ Scan(...any) error }) (T, error)) ([]T, error) {
	defer rows.Close()
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// scanString reads a row of one text column.
func scanString(sc interface{ Scan(...any) error }) (string, error) {
	var v string
	err := sc.Scan(&v)
	return v, err
}

const itemColumns = `id, session_id, COALESCE(screen_id, ''), sequence_number, client_workspace_id,
	client_draft_item_id, target_json, severity, comment, delivery, status, modified_after_send,
	resolved_by, agent_note, agent_summary, agent_question, user_answer, crop_artifact,
	created_at, updated_at, last_handed_off_at, verification_json, verdict, verdict_note, claimed_by, claimed_at, resolved_at, forced_save, voice_json,
	COALESCE(audit_check, ''), COALESCE((SELECT clip_id FROM item_clips WHERE item_id = items.id), '')`

func scanItem(sc interface{ Scan(...any) error }) (Item, error) {
	var it Item
	var target string
	var created, updated int64
	var handed, claimed, resolved sql.NullInt64
	var verification, voice string
	err := sc.Scan(&it.ItemID, &it.SessionID, &it.ScreenID, &it.SequenceNumber, &it.ClientWorkspaceID,
		&it.ClientDraftItemID, &target, &it.Severity, &it.Comment, &it.Delivery, &it.Status,
		&it.ModifiedAfterSend, &it.ResolvedBy, &it.AgentNote, &it.AgentSummary, &it.AgentQuestion,
		&it.UserAnswer, &it.CropArtifact, &created, &updated, &handed, &verification, &it.Verdict, &it.VerdictNote,
		&it.ClaimedBy, &claimed, &resolved, &it.ForcedSave, &voice, &it.Check, &it.ClipID)
	if err != nil {
		return it, err
	}
	if err := json.Unmarshal([]byte(target), &it.Target); err != nil {
		return it, fmt.Errorf("decode target of item %s: %w", it.ItemID, err)
	}
	it.CreatedAt, it.UpdatedAt, it.LastHandedOffAt = fromMillis(created), fromMillis(updated), fromNullMillis(handed)
	it.ClaimedAt, it.ResolvedAt = fromNullMillis(claimed), fromNullMillis(resolved)
	it.Phase = derivePhase(it.Delivery, it.Status, it.ModifiedAfterSend)
	if verification != "" {
		it.Verification = &Verification{}
		if err := json.Unmarshal([]byte(verification), it.Verification); err != nil {
			return it, fmt.Errorf("decode verification of item %s: %w", it.ItemID, err)
		}
	}
	if voice != "" {
		it.Voice = &VoiceOrigin{}
		if err := json.Unmarshal([]byte(voice), it.Voice); err != nil {
			return it, fmt.Errorf("decode voice origin of item %s: %w", it.ItemID, err)
		}
	}
	if it.CropArtifact != "" {
		it.CropURL = "/api/items/" + url.PathEscape(it.ItemID) + "/crop?sessionId=" + url.QueryEscape(it.SessionID)
	}
	return it, nil
}

func queryItems(ctx context.Context, q querier, where string, args ...any) ([]Item, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+itemColumns+` FROM items `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("query items: %w", err)
	}
	items, err := appendRows([]Item{}, rows, scanItem)
	if err != nil {
		return nil, err
	}
	if err := attachClips(ctx, q, items); err != nil {
		return nil, err
	}
	return items, attachSizeChecks(ctx, q, items)
}

// getItem loads one item of a session, or ITEM_NOT_FOUND.
func getItem(ctx context.Context, q querier, sessionID, itemID string) (Item, error) {
	it, err := scanItem(q.QueryRowContext(ctx,
		`SELECT `+itemColumns+` FROM items WHERE id = ? AND session_id = ?`, itemID, sessionID))
	if errors.Is(err, sql.ErrNoRows) {
		return it, errorf(errcode.ItemNotFound, "no item %s in session %s", echo(itemID), echo(sessionID))
	}
	if err != nil {
		return it, err
	}
	one := []Item{it}
	if err = attachClips(ctx, q, one); err == nil {
		err = attachSizeChecks(ctx, q, one)
	}
	return one[0], err
}

const screenColumns = `id, session_id, preview_id, fingerprint, package, activity, width, height,
	image_artifact, nodes_artifact, display_json, COALESCE(serial, ''), created_at`

func scanScreen(sc interface{ Scan(...any) error }) (Screen, error) {
	var s Screen
	var created int64
	var display string
	err := sc.Scan(&s.ScreenID, &s.SessionID, &s.FrozenID, &s.Fingerprint, &s.Package, &s.Activity,
		&s.Width, &s.Height, &s.ImageArtifact, &s.NodesArtifact, &display, &s.Serial, &created)
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal([]byte(display), &s.Display); err != nil {
		return s, fmt.Errorf("screen %s: display_json: %w", s.ScreenID, err)
	}
	s.CreatedAt = fromMillis(created)
	if s.ImageArtifact != "" {
		s.ImageURL = "/api/screens/" + url.PathEscape(s.ScreenID) + "/image?sessionId=" + url.QueryEscape(s.SessionID)
	}
	return s, nil
}

func getScreen(ctx context.Context, q querier, sessionID, screenID string) (Screen, error) {
	s, err := scanScreen(q.QueryRowContext(ctx,
		`SELECT `+screenColumns+` FROM screens WHERE id = ? AND session_id = ?`, screenID, sessionID))
	if errors.Is(err, sql.ErrNoRows) {
		return s, errorf(errcode.ScreenNotFound, "no screen %s in session %s", echo(screenID), echo(sessionID))
	}
	return s, err
}

// sessionRow is the sessions table row plus the derived counts.
type sessionRow struct {
	SessionSummary
	revision     int64
	nextSequence int64
}

func (r sessionRow) etag() string { return fmt.Sprintf(`"%d"`, r.revision) }

const summarySelect = `SELECT s.id, s.title, s.status, s.runtime_evidence_policy, s.agent_pickup, s.revision, s.next_sequence,
	s.created_at, s.updated_at FROM sessions s`

func scanSession(sc interface{ Scan(...any) error }) (sessionRow, error) {
	var r sessionRow
	var created, updated int64
	err := sc.Scan(&r.SessionID, &r.Title, &r.Status, &r.RuntimeEvidencePolicy, &r.AgentPickup, &r.revision, &r.nextSequence,
		&created, &updated)
	r.CreatedAt, r.UpdatedAt = fromMillis(created), fromMillis(updated)
	return r, err
}

// getSessionRow loads a session with its phase counts, or SESSION_NOT_FOUND.
func getSessionRow(ctx context.Context, q querier, sessionID string) (sessionRow, error) {
	r, err := scanSession(q.QueryRowContext(ctx, summarySelect+` WHERE s.id = ?`, sessionID))
	if errors.Is(err, sql.ErrNoRows) {
		return r, errorf(errcode.SessionNotFound, "no session %s", echo(sessionID))
	}
	if err != nil {
		return r, err
	}
	counts, err := phaseCounts(ctx, q, sessionID)
	if err != nil {
		return r, err
	}
	r.applyCounts(counts[sessionID])
	return r, nil
}

func (r *sessionRow) applyCounts(c PhaseCounts) {
	r.PhaseCounts = c
	r.ItemCount = c.Draft + c.Sent + c.SentModified + c.InProgress + c.NeedsClarification + c.WontFix + c.Resolved
}

// phaseCounts counts items per phase for one session, or all when sessionID
// is empty.
func phaseCounts(ctx context.Context, q querier, sessionID string) (map[string]PhaseCounts, error) {
	query := `SELECT session_id, ` + phaseSQL + ` AS phase, COUNT(*) FROM items`
	var args []any
	if sessionID != "" {
		query += ` WHERE session_id = ?`
		args = append(args, sessionID)
	}
	query += ` GROUP BY session_id, phase`
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("count phases: %w", err)
	}
	defer rows.Close()
	out := map[string]PhaseCounts{}
	for rows.Next() {
		var sid string
		var phase Phase
		var n int
		if err := rows.Scan(&sid, &phase, &n); err != nil {
			return nil, err
		}
		c := out[sid]
		c.add(phase, n)
		out[sid] = c
	}
	return out, rows.Err()
}

// openSessionForWrite loads a session inside a write transaction and refuses
// closed ones with SESSION_CLOSED (one helper, so the wording never drifts).
// itemForWrite is the first step of every change to one item: the session
// must take writes (openSessionForWrite) and the item must be in it.
func itemForWrite(ctx context.Context, t *tx, sessionID, itemID, action string) (Item, error) {
	if _, err := openSessionForWrite(ctx, t, sessionID, action); err != nil {
		return Item{}, err
	}
	return getItem(ctx, t, sessionID, itemID)
}

// itemsForWrite is itemForWrite for a handoff of several items: each must be
// in the session, which must take writes.
func itemsForWrite(ctx context.Context, t *tx, sessionID string, itemIDs []string, action string) ([]Item, error) {
	if _, err := openSessionForWrite(ctx, t, sessionID, action); err != nil {
		return nil, err
	}
	return loadItemsByID(ctx, t, sessionID, itemIDs)
}

func openSessionForWrite(ctx context.Context, t *tx, sessionID, action string) (sessionRow, error) {
	if sessionID == "" {
		return sessionRow{}, invalid("sessionId is required")
	}
	var r sessionRow
	var created, updated int64
	err := t.QueryRowContext(ctx, `SELECT id, title, status, runtime_evidence_policy, agent_pickup, revision, next_sequence,
		created_at, updated_at FROM sessions WHERE id = ?`, sessionID).Scan(
		&r.SessionID, &r.Title, &r.Status, &r.RuntimeEvidencePolicy, &r.AgentPickup, &r.revision, &r.nextSequence, &created, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return r, errorf(errcode.SessionNotFound, "no session %s", echo(sessionID))
	}
	if err != nil {
		return r, err
	}
	if r.Status == SessionClosed {
		return r, errorf(errcode.SessionClosed, "cannot %s on a closed feedback session", action)
	}
	r.CreatedAt, r.UpdatedAt = fromMillis(created), fromMillis(updated)
	return r, nil
}
