package handoff

import (
	"context"

	"fixthis/app/evidence"
	"fixthis/app/store"
)

// runtimeEvidence maps an item's newest attempt onto the handoff model: one
// line per collector that completed, with its stored artifact and one-line
// summary (the verifyBeforeEdit check tokens follow them). Collectors that
// did not complete are reported by the attempt's status and warnings instead.
// Raw output never goes into the prompt.
func runtimeEvidence(rec store.EvidenceRecord) []RuntimeEvidence {
	var out []RuntimeEvidence
	for _, at := range rec.Attachments {
		if len(out) == maxEvidence {
			break
		}
		// The network collector has a line of its own (networkCalls).
		if at.Status != evidence.StatusComplete || at.Summary == "" || at.Kind == evidence.KindNetwork {
			continue
		}
		out = append(out, RuntimeEvidence{Type: string(at.Kind), ArtifactPath: at.Artifact, Summary: at.Summary})
	}
	return out
}

// networkCalls maps a capture's network attachment onto the prompt's
// network line: nil when the capture read no calls.
func networkCalls(rec store.EvidenceRecord) *NetworkCalls {
	at := rec.Attachment(evidence.KindNetwork)
	n := at.Network
	if at.Status != evidence.StatusComplete || n == nil || n.Total == 0 {
		return nil
	}
	out := &NetworkCalls{Total: n.Total}
	for _, r := range n.Requests {
		switch {
		case r.Bad():
			out.Failed = append(out.Failed, evidence.ShortCall(r))
		case r.Slow():
			out.Slow = append(out.Slow, evidence.ShortCall(r))
		}
	}
	return out
}

// attachEvidence fills each item's RuntimeEvidence from the store.
func (b *Builder) attachEvidence(ctx context.Context, hs *Session) {
	latest, err := b.Store.SessionEvidence(ctx, hs.ID)
	if err != nil || len(latest) == 0 {
		return // a prompt without evidence lines is still a valid prompt
	}
	for i := range hs.Items {
		if rec, ok := latest[hs.Items[i].ID]; ok {
			hs.Items[i].RuntimeEvidence = runtimeEvidence(rec)
			hs.Items[i].Network = networkCalls(rec)
		}
	}
}

// attemptOption turns Save to MCP's stored decision into the prompt's
// runtimeEvidenceAttempt block (nil: no block, as for Copy Prompt).
func attemptOption(d *store.EvidenceDecision) *EvidenceAttempt {
	if d == nil {
		return nil
	}
	w := d.Warnings
	if len(w) > evidence.MaxWarnings {
		w = w[:evidence.MaxWarnings]
	}
	return &EvidenceAttempt{Attempted: d.Attempted, Status: string(d.Status), Failure: d.Failure, Reason: string(d.Reason), Warnings: w}
}

// ReleaseMarkdown renders the prompt of a Save to MCP release: the compact
// prompt of its items followed by the runtimeEvidenceAttempt block.
func (b *Builder) ReleaseMarkdown(ctx context.Context, sessionID string, itemIDs []string, d *store.EvidenceDecision) (string, error) {
	hs, _, err := b.Session(ctx, sessionID)
	if err != nil {
		return "", err
	}
	opts := b.renderOptions(itemIDs)
	opts.Attempt = attemptOption(d)
	return Render(hs, opts), nil
}
