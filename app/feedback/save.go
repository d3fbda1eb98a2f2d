package feedback

import (
	"context"
	"errors"
	"sync"

	"fixthis/app/errcode"
	"fixthis/app/store"
)

// SaveRequest is a batch of items drawn on one frozen screen (or screen notes
// carried by their clips alone), as the console sends it.
type SaveRequest struct {
	SessionID         string
	FrozenID          string
	WorkspaceID       string
	FrozenFingerprint string
	// ForceMismatchOverride saves although the phone has left the frozen screen.
	ForceMismatchOverride bool
	// IfMatch is the session revision the console's draft was made on: "" (none),
	// an ETag, or "*" (the user chose to overwrite).
	IfMatch string
	Items   []store.BatchItem
}

// SaveItems persists items drawn on a frozen screen: the kept screen becomes the
// saved one (with the display conditions read when it was frozen), each node or area
// target gets a crop, and the store applies idempotency and the revision rules in
// one transaction. One save per frozen frame runs at a time; a frame this process
// no longer has is refused unless a retry already stored its screen.
func (s *Service) SaveItems(ctx context.Context, req SaveRequest) (*store.SaveBatchResult, error) {
	if req.SessionID == "" {
		return nil, errcode.New(errcode.InvalidInput, "sessionId is required")
	}
	if err := checkAuditChecks(req.Items); err != nil {
		return nil, err
	}
	in := store.SaveBatchInput{SessionID: req.SessionID, FrozenID: req.FrozenID, WorkspaceID: req.WorkspaceID,
		IfMatch: req.IfMatch, Items: req.Items, Forced: req.ForceMismatchOverride}
	if req.FrozenID == "" && store.ClipNotes(req.Items) {
		// Screen notes carried by their clips alone ("the transition is janky").
		return s.save(ctx, in)
	}
	if req.FrozenID == "" {
		// Items are drawn on a frozen screen; without it they have no image, crop or size.
		return nil, errcode.New(errcode.InvalidInput, "frozenId is required: the frozen screen the items were drawn on")
	}
	// One save per frozen frame at a time: a second one (another tab, a double
	// click) is told to retry rather than racing the first.
	release, ok := s.HoldSave(req.SessionID, req.FrozenID)
	if !ok {
		return nil, errcode.New(errcode.SaveInProgress, "another save of this frozen screen is running; retry in a moment")
	}
	defer release()
	fr, ok := s.device.Frozen(req.FrozenID)
	if !ok {
		// A draft made on a frame this process no longer has (FixThis restarted, or
		// the frame expired) is never saved without its image; a retry of a save
		// that already stored the screen needs no frame.
		saved, err := s.store.PreviewScreenSaved(ctx, req.SessionID, req.FrozenID)
		if err != nil {
			return nil, err
		}
		if !saved {
			return nil, errcode.New(errcode.PreviewNotFound, "the frozen screen %s is gone (FixThis restarted or it expired); "+
				"recapture the screen and annotate again", errcode.Quote(req.FrozenID))
		}
		return s.save(ctx, in)
	}
	// A clip records a screen in motion: that the phone has moved on since is what
	// the note is about, not a sign it describes a screen left behind.
	if req.FrozenFingerprint != "" && !req.ForceMismatchOverride && !store.ClipNotes(req.Items) {
		if err := s.checkFingerprint(ctx, fr); err != nil {
			return nil, err
		}
	}
	screen, err := screenInputOf(fr)
	if err != nil {
		return nil, err
	}
	in.Screen, in.Items = screen, withCrops(fr, in.Items)
	return s.save(ctx, in)
}

// save is the one path from a use case to store.SaveBatch: typed and spoken items
// alike pass the store's revision check and carry their screen's conditions.
func (s *Service) save(ctx context.Context, in store.SaveBatchInput) (*store.SaveBatchResult, error) {
	return s.store.SaveBatch(ctx, in)
}

// staleRevisionRetries is how often a spoken unit's save follows a session that
// moved on between reading its revision and committing.
const staleRevisionRetries = 3

// saveSpoken saves items from speech under the rule that a spoken unit is never
// refused for a stale revision: the riffer has no draft of the session that a
// newer one could overwrite (units only add items), so the save names the
// revision it reads just before committing, and reads again when another commit
// got there first. Every other check of save applies.
func (s *Service) saveSpoken(ctx context.Context, in store.SaveBatchInput) (*store.SaveBatchResult, error) {
	sess, err := s.store.GetSession(ctx, in.SessionID)
	if err != nil {
		return nil, err
	}
	in.IfMatch = sess.ETag
	for attempt := 0; ; attempt++ {
		res, err := s.save(ctx, in)
		var stale *store.StaleDraftError
		if !errors.As(err, &stale) || attempt == staleRevisionRetries {
			return res, err
		}
		in.IfMatch = stale.ETag
	}
}

// inFlight tracks keys with a request running.
type inFlight struct {
	mu   sync.Mutex
	keys map[string]bool
}

// start marks key busy; ok is false when it already was. release frees it.
func (f *inFlight) start(key string) (release func(), ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.keys[key] {
		return nil, false
	}
	if f.keys == nil {
		f.keys = map[string]bool{}
	}
	f.keys[key] = true
	return func() {
		f.mu.Lock()
		delete(f.keys, key)
		f.mu.Unlock()
	}, true
}

// HoldSave marks the save of frozenID in sessionID as running until release is
// called, as a save in progress would (ok is false when one already runs).
func (s *Service) HoldSave(sessionID, frozenID string) (release func(), ok bool) {
	return s.savesInFlight.start(sessionID + "\x00" + frozenID)
}
