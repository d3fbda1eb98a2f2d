package feedback

import (
	"context"

	"fixthis/app/errcode"
	"fixthis/app/store"
)

// Handoff is what a release to the agent did: the store's result, what was done
// about runtime evidence, and the compact prompt of the released items.
type Handoff struct {
	*store.ReleaseResult
	Evidence HandoffEvidence
	Prompt   string
}

// SaveToMCP releases the items (every releasable item when none is named) and
// answers with the prompt the agent's next wait returns for them.
func (s *Service) SaveToMCP(ctx context.Context, sessionID string, itemIDs []string) (*Handoff, error) {
	res, ev, err := s.handOff(ctx, sessionID, itemIDs)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(res.Items))
	for _, it := range res.Items {
		ids = append(ids, it.ItemID)
	}
	md, err := s.prompts.ReleaseMarkdown(ctx, sessionID, ids, &ev.Decision)
	if err != nil {
		return nil, err
	}
	return &Handoff{ReleaseResult: res, Evidence: ev, Prompt: md}, nil
}

// handOff is the one release path: runtime evidence under the Auto policy, then the
// release of itemIDs (every releasable item when empty) and the target app build it
// was made against. Save to MCP and the voice modes both use it.
func (s *Service) handOff(ctx context.Context, sessionID string, itemIDs []string) (*store.ReleaseResult, HandoffEvidence, error) {
	ev := s.handoffEvidence(ctx, sessionID, itemIDs)
	res, err := s.store.ReleaseWithEvidence(ctx, sessionID, itemIDs, &ev.Decision)
	if err != nil {
		return nil, ev, err
	}
	s.RecordTargetAppBuild(ctx, sessionID)
	return res, ev, nil
}

// CopyPrompt is Copy Prompt: the compact prompt for the chosen items (every item
// the agent still has work on when none is chosen). With markCopied the items
// record lastHandedOffAt (which never implies delivery) and the session is returned.
func (s *Service) CopyPrompt(ctx context.Context, sessionID string, itemIDs []string, markCopied bool) (string, *store.Session, error) {
	sess, err := s.store.GetSession(ctx, sessionID)
	if err != nil {
		return "", nil, err
	}
	if len(itemIDs) == 0 {
		itemIDs = sess.OpenItemIDs()
		if len(itemIDs) == 0 {
			return "", nil, errcode.New(errcode.NoDraftFeedback, "the session has no open feedback to hand off")
		}
	}
	// An unknown id is a 404 whether or not the copy is recorded: a prompt silently
	// missing an item would hand the agent less than the user chose.
	known := make(map[string]bool, len(sess.Items))
	for _, it := range sess.Items {
		known[it.ItemID] = true
	}
	for _, id := range itemIDs {
		if !known[id] {
			return "", nil, errcode.New(errcode.ItemNotFound, "no item %s in session %s", errcode.Quote(id), errcode.Quote(sessionID))
		}
	}
	if markCopied {
		s.RecordTargetAppBuild(ctx, sessionID) // a copy is a handoff: its prompt names the build
	}
	md, err := s.prompts.Markdown(ctx, sessionID, itemIDs)
	if err != nil || !markCopied {
		return md, nil, err
	}
	copied, err := s.store.MarkCopied(ctx, sessionID, itemIDs)
	if err != nil {
		return "", nil, err
	}
	return md, copied, nil
}

// RecordTargetAppBuild stores the target app's build on the selected phone (and the
// project's git state) with the session, so the handoff's prompt says which build
// the screenshots came from. Without an installed app nothing is recorded; a
// failure to record is logged, never a reason to fail the handoff.
func (s *Service) RecordTargetAppBuild(ctx context.Context, sessionID string) {
	if s.targetApp == nil {
		return
	}
	b, ok := s.targetApp.Build(ctx)
	if !ok {
		return
	}
	if err := s.store.RecordAppBuild(ctx, sessionID, b); err != nil {
		s.log.Warn("record app build", "session", sessionID, "err", err)
	}
}
