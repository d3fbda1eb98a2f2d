package app

import (
	"context"
	"net/http"
	"path"
	"strings"
	"time"

	"fixthis/app/errcode"
	"fixthis/app/evidence"
	"fixthis/app/store"
)

// Runtime evidence: the baseline preset (logcat, frames, memory) run for saved
// items, by Capture diagnostics, by Save to MCP under Auto, and by the agent.

// EvidenceDoc is an item's runtime evidence captures, newest first.
type EvidenceDoc struct {
	ItemID   string                 `json:"itemId"`
	Attempts []store.EvidenceRecord `json:"attempts"`
}

// HandoffEvidence is what Save to MCP did about runtime evidence: its decision
// (the prompt's runtimeEvidenceAttempt block) and, when it collected, the
// capture it attached to the released items.
type HandoffEvidence struct {
	Decision store.EvidenceDecision `json:"decision"`
	Attempt  *evidence.Attempt      `json:"attempt,omitempty"`
}

// evidenceLookback is how far before the freeze the log window starts.
const evidenceLookback = 30 * time.Second

// collectFor runs the preset for items of one session and stores the result
// for each of them. The package is the app on the items' newest screen (the
// package in front when it was frozen); the log window starts shortly before
// the oldest of those screens was frozen. The device is the selected one; with
// none the attempt is a typed unsupported result, stored like any other.
func (a *App) collectFor(ctx context.Context, sess *store.Session, items []store.Item, trigger string) (evidence.Attempt, error) {
	screens := map[string]store.Screen{}
	for _, sc := range sess.Screens {
		screens[sc.ScreenID] = sc
	}
	var pkg string
	var newest, oldest time.Time
	ids := make([]string, 0, len(items))
	for _, it := range items {
		ids = append(ids, it.ItemID)
		sc, ok := screens[it.ScreenID]
		if !ok {
			continue
		}
		if sc.CreatedAt.After(newest) || pkg == "" {
			newest, pkg = sc.CreatedAt, sc.Package
		}
		if oldest.IsZero() || sc.CreatedAt.Before(oldest) {
			oldest = sc.CreatedAt
		}
	}
	since := time.Now().Add(-evidenceLookback)
	if !oldest.IsZero() {
		since = oldest.Add(-evidenceLookback)
	}
	serial := ""
	if dev, err := a.device.Registry.Selected(); err == nil {
		serial = dev.Serial
	}
	loc := a.store.Locations()
	att := evidence.Collect(ctx, a.adb.Device(serial), evidence.Request{
		Serial: serial, Package: pkg, Since: since,
		Store:     &evidence.Store{Root: loc.RuntimeEvidenceDir(), Display: path.Join(store.DataDirName, "runtime-evidence")},
		SessionID: sess.SessionID,
	})
	if _, err := a.store.AddEvidence(ctx, sess.SessionID, ids, trigger, att); err != nil {
		return att, err
	}
	return att, nil
}

// collectItem is Capture diagnostics and the agent's capture: a fresh capture
// for one item of any session, refused when the session's policy is Off.
func (a *App) collectItem(ctx context.Context, sessionID, itemID, trigger string) (*store.EvidenceRecord, error) {
	d, err := a.store.ReadItem(ctx, sessionID, itemID)
	if err != nil {
		return nil, err
	}
	sess, err := a.store.GetSession(ctx, d.Item.SessionID)
	if err != nil {
		return nil, err
	}
	if sess.RuntimeEvidencePolicy == store.PolicyOff {
		return nil, errcode.New(errcode.RuntimeEvidenceOff, "runtime diagnostics are off for session %s; set them to Manual or Auto to capture", sess.SessionID)
	}
	if _, err := a.collectFor(ctx, sess, []store.Item{d.Item}, trigger); err != nil {
		return nil, err
	}
	recs, err := a.store.ItemEvidence(ctx, sess.SessionID, itemID)
	if err != nil {
		return nil, err
	}
	return &recs[0], nil
}

// postItemEvidenceCollect is Capture diagnostics on a saved item's detail.
func (a *App) postItemEvidenceCollect(w http.ResponseWriter, r *http.Request) {
	// The body is optional; a sessionId in it must be the item's session.
	var req struct {
		SessionID string `json:"sessionId"`
	}
	if err := decodeOptionalJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	rec, err := a.collectItem(r.Context(), req.SessionID, r.PathValue("id"), store.EvidenceTriggerManual)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, rec)
}

// getItemEvidence lists an item's captures, newest first.
func (a *App) getItemEvidence(w http.ResponseWriter, r *http.Request) {
	id, sid := r.PathValue("id"), strings.TrimSpace(r.URL.Query().Get("sessionId"))
	if sid == "" {
		writeError(w, errcode.New(errcode.InvalidQuery, "sessionId is required: the session of the item whose captures to list"))
		return
	}
	recs, err := a.store.ItemEvidence(r.Context(), sid, id)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, EvidenceDoc{ItemID: id, Attempts: recs})
}

// handoffEvidence is Save to MCP's runtime evidence step, run before the
// release: under Auto it collects for the items about to be released (bounded
// by the preset's budget), under Manual and Off it records the skip. Nothing
// here can stop the release: a failed capture is a typed result, and a
// capture that could not be stored is logged and reported as failed.
func (a *App) handoffEvidence(ctx context.Context, sessionID string, itemIDs []string) HandoffEvidence {
	sess, err := a.store.GetSession(ctx, sessionID)
	if err != nil {
		return HandoffEvidence{Decision: store.SkippedDecision("skipped")}
	}
	switch sess.RuntimeEvidencePolicy {
	case store.PolicyOff, store.PolicyManual:
		return HandoffEvidence{Decision: store.SkippedDecision(sess.RuntimeEvidencePolicy)}
	}
	items, err := a.store.Releasable(ctx, sessionID, itemIDs)
	if err != nil || len(items) == 0 {
		return HandoffEvidence{Decision: store.SkippedDecision("skipped")}
	}
	att, err := a.collectFor(ctx, sess, items, store.EvidenceTriggerAuto)
	if err != nil {
		a.log.Warn("runtime evidence not stored", "session", sessionID, "err", err)
		d := store.DecisionOf(att)
		d.Status, d.Failure = string(evidence.StatusFailed), string(evidence.ReasonStorageFailed)
		return HandoffEvidence{Decision: d}
	}
	return HandoffEvidence{Decision: store.DecisionOf(att), Attempt: &att}
}

// mcpEvidence serves fixthis_capture_runtime_evidence from the app's device layer.
type mcpEvidence struct{ a *App }

func (m mcpEvidence) CollectEvidence(ctx context.Context, itemID, trigger string) (*store.EvidenceRecord, error) {
	return m.a.collectItem(ctx, "", itemID, trigger)
}
