package feedback

import (
	"context"
	"path"
	"time"

	"fixthis/app/errcode"
	"fixthis/app/evidence"
	"fixthis/app/store"
)

// Runtime evidence: the baseline preset (logcat, frames, memory) run for saved
// items, by Capture diagnostics, by Save to MCP under Auto, and by the agent.

// HandoffEvidence is what Save to MCP did about runtime evidence: its decision
// (the prompt's runtimeEvidenceAttempt block) and, when it collected, the
// capture it attached to the released items.
type HandoffEvidence struct {
	Decision store.EvidenceDecision `json:"decision"`
	Attempt  *evidence.Attempt      `json:"attempt,omitempty"`
}

// evidenceLookback is how far before the freeze the log window starts.
const evidenceLookback = 30 * time.Second

// collectFor runs the preset for items of one session and stores the result for
// each of them. The package is the app on the items' newest screen (the package in
// front when it was frozen); the log window starts shortly before the oldest of
// those screens was frozen. The phone is the selected one; with none the attempt
// is a typed unsupported result, stored like any other.
// bodies keeps the HTTP bodies the app logged (the user asked, for this capture).
func (s *Service) collectFor(ctx context.Context, sess *store.Session, items []store.Item, trigger store.EvidenceTrigger, bodies bool) (evidence.Attempt, error) {
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
	if dev, err := s.device.Registry.Selected(); err == nil {
		serial = dev.Serial
	}
	loc := s.store.Locations()
	web, webNote := s.takeWebView(serial, pkg)
	att := evidence.Collect(ctx, s.device.ADB().Device(serial), evidence.Request{
		Serial: serial, Package: pkg, Since: since, WebView: web, WebViewNote: webNote, Bodies: bodies,
		Store:     &evidence.Store{Root: loc.RuntimeEvidenceDir(), Display: path.Join(store.DataDirName, "runtime-evidence")},
		SessionID: sess.SessionID,
	})
	if _, err := s.store.AddEvidence(ctx, sess.SessionID, ids, trigger, att); err != nil {
		return att, err
	}
	return att, nil
}

// CaptureDiagnostics is Capture diagnostics and the agent's capture: a fresh capture
// for one item, refused when the session's policy is Off. sessionID may be "" (the
// agent names items alone); when set it must be the item's session. bodies keeps the
// HTTP bodies the app logged with its calls: only the user turns it on, in the console,
// for one capture (the agent's captures never keep them).
func (s *Service) CaptureDiagnostics(ctx context.Context, sessionID, itemID string, trigger store.EvidenceTrigger, bodies bool) (*store.EvidenceRecord, error) {
	d, err := s.store.ReadItem(ctx, sessionID, itemID)
	if err != nil {
		return nil, err
	}
	sess, err := s.store.GetSession(ctx, d.Item.SessionID)
	if err != nil {
		return nil, err
	}
	if sess.RuntimeEvidencePolicy == store.PolicyOff {
		return nil, errcode.New(errcode.RuntimeEvidenceOff, "runtime diagnostics are off for session %s; set them to Manual or Auto to capture", sess.SessionID)
	}
	if _, err := s.collectFor(ctx, sess, []store.Item{d.Item}, trigger, bodies); err != nil {
		return nil, err
	}
	recs, err := s.store.ItemEvidence(ctx, sess.SessionID, itemID)
	if err != nil {
		return nil, err
	}
	return &recs[0], nil
}

// handoffEvidence is a handoff's runtime evidence step, run before the release:
// under Auto it collects for the items about to be released (bounded by the
// preset's budget), under Manual and Off it records the skip. Nothing here can stop
// the release: a failed capture is a typed result, and a capture that could not be
// stored is logged and reported as failed.
func (s *Service) handoffEvidence(ctx context.Context, sessionID string, itemIDs []string) HandoffEvidence {
	sess, err := s.store.GetSession(ctx, sessionID)
	if err != nil {
		return HandoffEvidence{Decision: store.SkippedDecision(store.SkipSkipped)}
	}
	switch sess.RuntimeEvidencePolicy {
	case store.PolicyOff:
		return HandoffEvidence{Decision: store.SkippedDecision(store.SkipOff)}
	case store.PolicyManual:
		return HandoffEvidence{Decision: store.SkippedDecision(store.SkipManual)}
	}
	items, err := s.store.Releasable(ctx, sessionID, itemIDs)
	if err != nil || len(items) == 0 {
		return HandoffEvidence{Decision: store.SkippedDecision(store.SkipSkipped)}
	}
	att, err := s.collectFor(ctx, sess, items, store.EvidenceTriggerAuto, false)
	if err != nil {
		s.log.Warn("runtime evidence not stored", "session", sessionID, "err", err)
		d := store.DecisionOf(att)
		d.Status, d.Failure = evidence.StatusFailed, string(evidence.ReasonStorageFailed)
		return HandoffEvidence{Decision: d}
	}
	return HandoffEvidence{Decision: store.DecisionOf(att), Attempt: &att}
}
