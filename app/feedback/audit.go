package feedback

import (
	"context"

	"fixthis/app/audit"
	"fixthis/app/device"
	"fixthis/app/errcode"
	"fixthis/app/store"
)

// AuditResult is the audit of a frozen screen: its findings minus those the user
// dismissed on this screen before.
type AuditResult struct {
	FrozenID   string `json:"frozenId"`
	DensityDPI int    `json:"densityDpi"`
	// ContrastChecked is false for a FLAG_SECURE screen, whose pixels are black:
	// the tree checks ran, the contrast checks did not.
	ContrastChecked bool            `json:"contrastChecked"`
	Findings        []audit.Finding `json:"findings"`
	// Dismissed counts the findings left out because the user dismissed them.
	Dismissed int `json:"dismissed"`
	// Dynamic is the pass at font scale 2, dark and right to left (the console's
	// "with font, dark and RTL"); its findings are in Findings too.
	Dynamic *DynamicAudit `json:"dynamic,omitempty"`
}

// AuditFrozen runs the accessibility and layout checks on a frozen screen: its
// tree, its pixels and the density the phone reported when it was captured.
func (s *Service) AuditFrozen(ctx context.Context, frozenID string) (*AuditResult, error) {
	fr, _, res, found, err := s.frozenAudit(frozenID)
	if err != nil {
		return nil, err
	}
	return res, s.keepUndismissed(ctx, fr, res, found)
}

// frozenAudit runs the static checks on a frozen screen: what they read of it, the
// result to fill and their findings (dismissed ones not yet left out).
func (s *Service) frozenAudit(frozenID string) (*device.KeptScreen, audit.Input, *AuditResult, []audit.Finding, error) {
	fr, err := s.frozenForAudit(frozenID)
	if err != nil {
		return nil, audit.Input{}, nil, nil, err
	}
	snap := fr.Snapshot
	density := snap.State.Density
	if density == 0 && fr.Conditions != nil {
		density = fr.Conditions.Density
	}
	if density == 0 {
		return nil, audit.Input{}, nil, nil, errcode.New(errcode.InvalidInput, "the density of frozen screen %s is unknown; freeze again", errcode.Quote(frozenID))
	}
	if len(snap.Nodes) == 0 {
		return nil, audit.Input{}, nil, nil, errcode.New(errcode.InvalidInput, "frozen screen %s has no UI tree to audit", errcode.Quote(frozenID))
	}
	in := audit.Input{Nodes: snap.Nodes, DensityDPI: density, Width: snap.Width, Height: snap.Height,
		Covered: audit.CoveringWindows(snap.State.Windows)}
	res := &AuditResult{FrozenID: frozenID, DensityDPI: density}
	if !snap.State.Secure && snap.Frame != nil {
		in.Pixels, res.ContrastChecked = snap.Frame, true
	}
	found, err := audit.Run(in)
	if err != nil {
		return nil, audit.Input{}, nil, nil, errcode.New(errcode.InvalidInput, "frozen screen %s cannot be audited: %v", errcode.Quote(frozenID), err)
	}
	return fr, in, res, found, nil
}

// keepUndismissed adds to res the findings the user has not dismissed on fr's screen.
func (s *Service) keepUndismissed(ctx context.Context, fr *device.KeptScreen, res *AuditResult, found []audit.Finding) error {
	dismissed, err := s.store.DismissedFindings(ctx, auditScreenKey(fr))
	if err != nil {
		return err
	}
	if res.Findings == nil {
		res.Findings = []audit.Finding{}
	}
	for _, f := range found {
		if dismissed[f.Key] {
			res.Dismissed++
			continue
		}
		res.Findings = append(res.Findings, f)
	}
	return nil
}

// DismissFinding keeps a finding of a frozen screen dismissed on that screen (the
// same app and activity) in every later audit.
func (s *Service) DismissFinding(ctx context.Context, frozenID, findingKey string) error {
	fr, err := s.frozenForAudit(frozenID)
	if err != nil {
		return err
	}
	return s.store.DismissFinding(ctx, auditScreenKey(fr), findingKey)
}

func (s *Service) frozenForAudit(frozenID string) (*device.KeptScreen, error) {
	if frozenID == "" {
		return nil, errcode.New(errcode.InvalidInput, "frozenId is required: the frozen screen to audit")
	}
	fr, ok := s.device.Frozen(frozenID)
	if !ok {
		return nil, errcode.New(errcode.PreviewNotFound, "frozen screen %s is gone; freeze again", errcode.Quote(frozenID))
	}
	return fr, nil
}

// auditScreenKey names the screen a dismissal holds for: its app and activity.
// A finding's own key already names the node, so a dismissal outlives the pixels
// and the freeze it was made on.
func auditScreenKey(fr *device.KeptScreen) string {
	st := fr.Snapshot.State
	return st.Package + "/" + st.Activity
}

// checkAuditChecks refuses an item that names a check the audit does not have.
func checkAuditChecks(items []store.BatchItem) error {
	for _, it := range items {
		if it.Check != "" && !audit.KnownCheck(it.Check) {
			return errcode.New(errcode.InvalidInput, "item %s: %s is not an audit check", errcode.Quote(it.DraftItemID), errcode.Quote(it.Check))
		}
	}
	return nil
}
