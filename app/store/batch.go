package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"fixthis/app/errcode"
)

// ScreenInput is the frozen screen a batch was annotated on.
type ScreenInput struct {
	Fingerprint string
	Package     string
	Activity    string
	Width       int
	Height      int
	// ImagePNG is the full-resolution frame; or ImageArtifact names one
	// already stored with PutArtifact.
	ImagePNG      []byte
	ImageArtifact string
	// NodesJSON is the UI tree at freeze time, stored as an artifact.
	NodesJSON []byte
	Display   ScreenDisplay
	// Serial is the phone the screen was frozen on ("" when none is known).
	Serial string
}

// BatchItem is one draft annotation of a batch save.
type BatchItem struct {
	DraftItemID string   `json:"draftItemId"`
	Target      Target   `json:"target"`
	Severity    Severity `json:"severity"`
	Comment     string   `json:"comment"`
	// ClipID attaches a clip of the same session (POST /api/preview/clip).
	ClipID string `json:"clipId,omitempty"`
	// CropPNG is the crop of the target on its saved screen, if the app made one.
	CropPNG []byte `json:"-"`
	// Voice marks an item made from speech (never sent by the console).
	Voice *VoiceOrigin `json:"-"`
	// Check is the audit check id of an item added from a finding ("" otherwise).
	Check string `json:"check,omitempty"`
}

// SaveBatchInput is POST /api/items/batch after decoding.
type SaveBatchInput struct {
	SessionID   string
	FrozenID    string
	WorkspaceID string
	// IfMatch is the request's If-Match header: "" (none), "*" (force), or an
	// ETag from an earlier response.
	IfMatch string
	Screen  ScreenInput
	Items   []BatchItem
	// Forced: the user saved although the device's screen no longer matched
	// the frozen one. Each new item records it.
	Forced bool
	// HoldPickup keeps the new items drafts under the session's instant pickup:
	// items from speech are handed off by their voice session's mode instead.
	HoldPickup bool
}

// SaveBatchResult is the 200 body (session, items, screenId) plus the ETag
// header and whether nothing had to be written.
type SaveBatchResult struct {
	Session  *Session `json:"session"`
	Items    []Item   `json:"items"`
	ScreenID string   `json:"screenId"`
	ETag     string   `json:"-"`
	NoOp     bool     `json:"-"`
}

// errPlanChanged means the rows seen while preparing artifacts changed before
// the transaction ran; SaveBatch prepares again.
var errPlanChanged = errors.New("batch plan changed")

// SaveBatch persists draft annotations in one transaction. It is idempotent on
// (WorkspaceID, DraftItemID): a full duplicate changes nothing and logs no
// event; a partial retry adds only the new items and reuses the screen the
// earlier items were saved with. After the session's first save, IfMatch must
// name the current ETag (or be "*"), else *StaleDraftError.
func (s *Store) SaveBatch(ctx context.Context, in SaveBatchInput) (*SaveBatchResult, error) {
	// Normalizing rewrites items; work on a copy so the caller's slice (which
	// a retrying caller may be sharing with another goroutine) stays as is.
	in.Items = append([]BatchItem(nil), in.Items...)
	if err := normalizeBatch(&in); err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		plan, err := s.planBatch(ctx, in)
		if err != nil {
			return nil, err
		}
		if err := s.storeBatchArtifacts(ctx, &in, plan); err != nil {
			return nil, err
		}
		res, err := s.commitBatch(ctx, in, plan)
		if errors.Is(err, errPlanChanged) && attempt < 3 {
			continue
		}
		return res, err
	}
}

func normalizeBatch(in *SaveBatchInput) error {
	if err := checkKey("sessionId", in.SessionID); err != nil {
		return err
	}
	if err := checkKey("workspaceId", in.WorkspaceID); err != nil {
		return err
	}
	if len(in.Items) == 0 {
		return invalid("batch has no items")
	}
	if len(in.Items) > maxBatchItems {
		return invalid("batch has %d items; at most %d per save", len(in.Items), maxBatchItems)
	}
	seen := map[string]bool{}
	for i := range in.Items {
		it := &in.Items[i]
		if err := checkKey("draftItemId", it.DraftItemID); err != nil {
			return err
		}
		if seen[it.DraftItemID] {
			return invalid("draftItemId %s appears twice in the batch", echo(it.DraftItemID))
		}
		seen[it.DraftItemID] = true
		var err error
		if it.Comment, err = cleanComment(it.Comment); err != nil {
			return inItem(it.DraftItemID, err)
		}
		if it.Severity, err = cleanSeverity(it.Severity); err != nil {
			return inItem(it.DraftItemID, err)
		}
		if err := validateTarget(&it.Target); err != nil {
			return inItem(it.DraftItemID, err)
		}
		if err := checkAuditCheck(it.Check); err != nil {
			return inItem(it.DraftItemID, err)
		}
		if it.ClipID != "" {
			if err := checkKey("clipId", it.ClipID); err != nil {
				return inItem(it.DraftItemID, err)
			}
		}
	}
	if in.Screen.Width < 0 || in.Screen.Height < 0 {
		return invalid("screen size must not be negative")
	}
	if in.Screen.Width > 0 && in.Screen.Height > 0 {
		for _, it := range in.Items {
			if err := boundsOnScreen(it.Target.Bounds, in.Screen.Width, in.Screen.Height); err != nil {
				return inItem(it.DraftItemID, err)
			}
		}
	}
	if err := checkText("screen serial", in.Screen.Serial, maxSerialLen, false); err != nil {
		return err
	}
	if len(in.Screen.NodesJSON) > 0 && !json.Valid(in.Screen.NodesJSON) {
		return invalid("screen nodes are not valid JSON")
	}
	return nil
}

// batchPlan is what a read before the write found: which draft items exist
// already and which screen the batch will use.
type batchPlan struct {
	existing map[string]Item // by draft item id
	screenID string          // "" when a new screen must be created
	// stored artifact keys, filled by storeBatchArtifacts
	imageKey, nodesKey string
	cropKeys           map[string]string
}

func (s *Store) planBatch(ctx context.Context, in SaveBatchInput) (*batchPlan, error) {
	p := &batchPlan{existing: map[string]Item{}, cropKeys: map[string]string{}}
	err := s.read(ctx, "saving batch", func(t *sql.Tx) error {
		var err error
		p.existing, p.screenID, err = findBatchRows(ctx, t, in)
		return err
	})
	if err == nil && p.screenID == "" && len(p.existing) < len(in.Items) && (in.Screen.Width <= 0 || in.Screen.Height <= 0) && !ClipNotes(in.Items) {
		// Items are written on a screen: without a frozen frame there is no
		// image, no crop and no size to check their bounds against.
		return nil, invalid("the batch has no screen to save its items on; freeze the screen and annotate it")
	}
	return p, err
}

// findBatchRows returns the already-saved items of the batch and the screen to
// reuse: the screen of a matching item first, else one saved from the same
// frozen preview.
func findBatchRows(ctx context.Context, q querier, in SaveBatchInput) (map[string]Item, string, error) {
	existing := map[string]Item{}
	if _, err := getSessionRow(ctx, q, in.SessionID); err != nil {
		return nil, "", err
	}
	items, err := queryItems(ctx, q, `WHERE session_id = ? AND client_workspace_id = ?`, in.SessionID, in.WorkspaceID)
	if err != nil {
		return nil, "", err
	}
	byKey := map[string]Item{}
	for _, it := range items {
		byKey[it.ClientDraftItemID] = it
	}
	screenID := ""
	for _, bi := range in.Items {
		if it, ok := byKey[bi.DraftItemID]; ok {
			existing[bi.DraftItemID] = it
			if screenID == "" {
				screenID = it.ScreenID
			}
		}
	}
	if screenID == "" && in.FrozenID != "" {
		err := q.QueryRowContext(ctx, `SELECT id FROM screens WHERE session_id = ? AND preview_id = ? ORDER BY created_at LIMIT 1`,
			in.SessionID, in.FrozenID).Scan(&screenID)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, "", err
		}
	}
	return existing, screenID, nil
}

// storeBatchArtifacts writes (and syncs) every file the transaction will
// reference, before the transaction starts.
func (s *Store) storeBatchArtifacts(ctx context.Context, in *SaveBatchInput, p *batchPlan) error {
	if len(p.existing) == len(in.Items) {
		return nil // full duplicate: nothing new to reference
	}
	if p.screenID == "" {
		switch {
		case len(in.Screen.ImagePNG) > 0:
			key, err := s.PutArtifact(ctx, in.Screen.ImagePNG, "png")
			if err != nil {
				return err
			}
			p.imageKey = key
		case in.Screen.ImageArtifact != "":
			path, err := s.ArtifactPath(in.Screen.ImageArtifact)
			if err != nil {
				return err
			}
			if _, err := os.Stat(path); err != nil {
				return errorf(errcode.ScreenNotFound, "screen image %s is not stored", echo(in.Screen.ImageArtifact))
			}
			p.imageKey = in.Screen.ImageArtifact
		}
		if len(in.Screen.NodesJSON) > 0 {
			key, err := s.PutArtifact(ctx, in.Screen.NodesJSON, "json")
			if err != nil {
				return err
			}
			p.nodesKey = key
		}
	}
	for _, it := range in.Items {
		if _, ok := p.existing[it.DraftItemID]; ok || len(it.CropPNG) == 0 {
			continue
		}
		key, err := s.PutArtifact(ctx, it.CropPNG, "png")
		if err != nil {
			return err
		}
		p.cropKeys[it.DraftItemID] = key
	}
	return nil
}

func (s *Store) commitBatch(ctx context.Context, in SaveBatchInput, plan *batchPlan) (*SaveBatchResult, error) {
	res := &SaveBatchResult{}
	err := s.write(ctx, "saving batch", func(t *tx) error {
		r, err := openSessionForWrite(ctx, t, in.SessionID, "save feedback")
		if err != nil {
			return err
		}
		existing, screenID, err := findBatchRows(ctx, t, in)
		if err != nil {
			return err
		}
		if len(existing) == len(in.Items) {
			// Full duplicate: answer as the first save did, write nothing.
			return fillBatchResult(ctx, t, in, res, screenID, true)
		}
		if err := checkIfMatch(ctx, t, r, in.IfMatch); err != nil {
			return err
		}
		if screenID != plan.screenID && screenID == "" {
			return errPlanChanged // the screen we meant to reuse is gone
		}
		if screenID != "" && (in.Screen.Width <= 0 || in.Screen.Height <= 0) {
			// A retry without its frame: check the new items against the saved screen.
			var w, h int
			if err := t.QueryRowContext(ctx, `SELECT width, height FROM screens WHERE id = ?`, screenID).Scan(&w, &h); err != nil {
				return fmt.Errorf("read screen size: %w", err)
			}
			for _, bi := range in.Items {
				if _, ok := existing[bi.DraftItemID]; !ok && w > 0 && h > 0 {
					if err := boundsOnScreen(bi.Target.Bounds, w, h); err != nil {
						return inItem(bi.DraftItemID, err)
					}
				}
			}
		}
		if screenID == "" && ClipNotes(in.Items) && (in.Screen.Width <= 0 || in.Screen.Height <= 0) {
			// Screen notes carried by their clips alone: no frozen screen.
		} else if screenID == "" {
			screenID = newID()
			display, err := json.Marshal(in.Screen.Display)
			if err != nil {
				return fmt.Errorf("encode screen display: %w", err)
			}
			if _, err := t.ExecContext(ctx, `INSERT INTO screens(id, session_id, preview_id, fingerprint, package,
				activity, width, height, image_artifact, nodes_artifact, display_json, serial, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`,
				screenID, in.SessionID, in.FrozenID, in.Screen.Fingerprint, in.Screen.Package, in.Screen.Activity,
				in.Screen.Width, in.Screen.Height, plan.imageKey, plan.nodesKey, string(display), nullable(in.Screen.Serial),
				millis(t.now)); err != nil {
				return fmt.Errorf("insert screen: %w", err)
			}
		}
		seq := r.nextSequence
		var added []string
		for _, bi := range in.Items {
			if _, ok := existing[bi.DraftItemID]; ok {
				continue
			}
			crop, ok := plan.cropKeys[bi.DraftItemID]
			if !ok && len(bi.CropPNG) > 0 {
				return errPlanChanged // became new after planning; its crop is not stored yet
			}
			target, err := json.Marshal(bi.Target)
			if err != nil {
				return err
			}
			voice, err := voiceJSON(bi.Voice)
			if err != nil {
				return err
			}
			if bi.ClipID != "" {
				if _, err := getClip(ctx, t, in.SessionID, bi.ClipID); err != nil {
					return inItem(bi.DraftItemID, err)
				}
			}
			var screen any
			if screenID != "" {
				screen = screenID
			}
			id := newID()
			if _, err := t.ExecContext(ctx, `INSERT INTO items(id, session_id, screen_id, sequence_number,
				client_workspace_id, client_draft_item_id, target_json, severity, comment, crop_artifact,
				forced_save, voice_json, audit_check, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
				id, in.SessionID, screen, seq, in.WorkspaceID, bi.DraftItemID, string(target), bi.Severity,
				bi.Comment, crop, in.Forced, voice, nullable(bi.Check), millis(t.now), millis(t.now)); err != nil {
				return fmt.Errorf("insert item %s: %w", bi.DraftItemID, err)
			}
			if bi.ClipID != "" {
				if _, err := t.ExecContext(ctx, `INSERT INTO item_clips(item_id, clip_id) VALUES (?, ?)`, id, bi.ClipID); err != nil {
					return fmt.Errorf("attach clip to item %s: %w", bi.DraftItemID, err)
				}
			}
			seq++
			added = append(added, id)
		}
		if _, err := t.ExecContext(ctx, `UPDATE sessions SET next_sequence = ? WHERE id = ?`, seq, in.SessionID); err != nil {
			return err
		}
		if err := t.event(ctx, in.SessionID, "", ActorUser, "items-saved", map[string]any{
			"workspaceId": in.WorkspaceID, "itemIds": added, "screenId": screenID, "frozenId": in.FrozenID,
		}); err != nil {
			return err
		}
		if r.AgentPickup == PickupInstant && !in.HoldPickup {
			// Instant pickup: each new item reaches the agent as its own batch,
			// so an agent working in a loop takes them one by one.
			for _, id := range added {
				it, err := getItem(ctx, t, in.SessionID, id)
				if err != nil {
					return err
				}
				if _, _, _, err := t.release(ctx, in.SessionID, []Item{it}, nil); err != nil {
					return err
				}
			}
		}
		if err := t.touchSession(ctx, in.SessionID, true); err != nil {
			return err
		}
		return fillBatchResult(ctx, t, in, res, screenID, false)
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// ClipNotes reports whether every item of a batch is a screen note carried by a
// clip: those need no frozen screen.
func ClipNotes(items []BatchItem) bool {
	for _, it := range items {
		if it.ClipID == "" || it.Target.Type != TargetScreen {
			return false
		}
	}
	return len(items) > 0
}

// PreviewScreenSaved says whether a screen of the session was saved from the
// frozen frame previewID (so a retry of that save needs no frame).
func (s *Store) PreviewScreenSaved(ctx context.Context, sessionID, previewID string) (bool, error) {
	var n int
	err := s.rdb.QueryRowContext(ctx, `SELECT COUNT(*) FROM screens WHERE session_id = ? AND preview_id = ?`,
		sessionID, previewID).Scan(&n)
	return n > 0, storageErr("reading screens", err)
}

func fillBatchResult(ctx context.Context, q querier, in SaveBatchInput, res *SaveBatchResult, screenID string, noop bool) error {
	sess, err := loadSession(ctx, q, in.SessionID)
	if err != nil {
		return err
	}
	byKey := map[string]Item{}
	for _, it := range sess.Items {
		if it.ClientWorkspaceID == in.WorkspaceID {
			byKey[it.ClientDraftItemID] = it
		}
	}
	res.Items = make([]Item, 0, len(in.Items))
	for _, bi := range in.Items {
		res.Items = append(res.Items, byKey[bi.DraftItemID])
	}
	res.Session, res.ScreenID, res.ETag, res.NoOp = sess, screenID, sess.ETag, noop
	return nil
}

// checkIfMatch enforces optimistic concurrency: the first save of a session
// needs no If-Match; later ones must name the current ETag, or "*" to force.
func checkIfMatch(ctx context.Context, q querier, r sessionRow, ifMatch string) error {
	ifMatch = strings.TrimSpace(ifMatch)
	if ifMatch == "*" {
		return nil
	}
	if ifMatch == "" && r.revision == 0 {
		return nil
	}
	current := r.etag()
	for _, tag := range strings.Split(ifMatch, ",") {
		tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
		if tag == current || `"`+tag+`"` == current {
			return nil
		}
	}
	draft, err := loadSession(ctx, q, r.SessionID)
	if err != nil {
		return err
	}
	return &StaleDraftError{IfMatch: ifMatch, ETag: current, ServerDraft: draft}
}
