package feedback

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"fixthis/app/store"
	"fixthis/app/voice"
)

// pendingFile is the list, in .fixthis, of spoken units recorded under the instant
// mode and not yet handed off. The voice session hands off one unit at a time, and
// runtime evidence may take seconds each, so units wait; a FixThis killed meanwhile
// hands the waiting ones off on its next start, as the mode promised.
const pendingFile = "voice-handoffs.json"

// maxPendingBytes bounds the file read on start: thousands of units, far more than
// one session's talk.
const maxPendingBytes = 4 << 20

// pendingUnit names a unit by its draft key, known before its item is saved.
type pendingUnit struct {
	SessionID      string `json:"sessionId"`
	VoiceSessionID string `json:"voiceSessionId"`
	UnitID         string `json:"unitId"`
}

// pendingHandoffs keeps pendingFile; path "" keeps nothing (a store without a
// project directory).
type pendingHandoffs struct {
	mu   sync.Mutex
	path string
}

func (p *pendingHandoffs) load() ([]pendingUnit, error) {
	f, err := os.Open(p.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var units []pendingUnit
	dec := json.NewDecoder(&limitedReader{f: f, left: maxPendingBytes})
	if err := dec.Decode(&units); err != nil {
		return nil, fmt.Errorf("%s is not a list of units: %w", pendingFile, err)
	}
	return units, nil
}

// limitedReader fails a read past its bound, so an oversized file is an error
// rather than a truncated list.
type limitedReader struct {
	f    *os.File
	left int64
}

func (r *limitedReader) Read(b []byte) (int, error) {
	if r.left <= 0 {
		return 0, fmt.Errorf("%s is larger than %d MiB", pendingFile, maxPendingBytes>>20)
	}
	if int64(len(b)) > r.left {
		b = b[:r.left]
	}
	n, err := r.f.Read(b)
	r.left -= int64(n)
	return n, err
}

// write replaces the file atomically (0600, like everything in .fixthis); an empty
// list removes it.
func (p *pendingHandoffs) write(units []pendingUnit) error {
	if len(units) == 0 {
		if err := os.Remove(p.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	data, err := json.Marshal(units)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p.path), pendingFile+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // gone after the rename; removes a failed write's leftover
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p.path)
}

// change rewrites the list through edit under the lock; with replaceUnreadable an
// unreadable list is replaced (its error was logged on start) instead of failing.
func (p *pendingHandoffs) change(replaceUnreadable bool, edit func([]pendingUnit) []pendingUnit) error {
	if p.path == "" {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	units, err := p.load()
	if err != nil && !replaceUnreadable {
		return err
	}
	left := edit(units)
	if err == nil && len(left) == len(units) {
		return nil // nothing changed
	}
	return p.write(left)
}

// add notes u before its item is saved.
func (p *pendingHandoffs) add(u pendingUnit) error {
	return p.change(true, func(units []pendingUnit) []pendingUnit { return append(units, u) })
}

// keepOnly drops the units keep refuses.
func (p *pendingHandoffs) keepOnly(keep func(pendingUnit) bool) error {
	return p.change(false, func(units []pendingUnit) []pendingUnit {
		var left []pendingUnit
		for _, u := range units {
			if keep(u) {
				left = append(left, u)
			}
		}
		return left
	})
}

// notePending notes a unit the instant mode will hand off (other modes hand off
// at a checkpoint or on Save to MCP, which the user sees).
func (u *VoiceUnits) notePending(rec voice.UnitRecord) {
	if u.s.voiceMode == nil || u.s.voiceMode(rec.VoiceSessionID) != voice.ModeInstant {
		return
	}
	if err := u.s.pending.add(pendingUnit{SessionID: rec.SessionID, VoiceSessionID: rec.VoiceSessionID, UnitID: rec.UnitID}); err != nil {
		u.s.log.Warn("note a unit waiting for its handoff", "err", err)
	}
}

// stillDraft reports whether u's item exists and waits for its handoff.
func (s *Service) stillDraft(ctx context.Context, u pendingUnit) (*store.Item, bool) {
	it, err := s.store.VoiceItem(ctx, u.SessionID, u.VoiceSessionID, u.UnitID)
	if err != nil || it.Delivery != store.DeliveryDraft || it.LastHandedOffAt != nil {
		return nil, false
	}
	return it, true
}

// forgetHandedOff drops the noted units whose items no longer wait.
func (s *Service) forgetHandedOff(ctx context.Context) {
	if err := s.pending.keepOnly(func(u pendingUnit) bool { _, ok := s.stillDraft(ctx, u); return ok }); err != nil {
		s.log.Warn("update the units waiting for their handoff", "err", err)
	}
}

// ResumeHandoffs hands off the units an instant-mode voice session recorded but a
// FixThis that was killed did not hand off. Each is tried once: a unit the store
// refuses (its session closed meanwhile) stays a draft the user sees.
func (s *Service) ResumeHandoffs(ctx context.Context) {
	units, err := s.pending.load()
	if err != nil {
		s.log.Warn("units waiting for their handoff", "err", err)
	}
	bySession := map[string][]string{}
	var order []string
	for _, u := range units {
		it, ok := s.stillDraft(ctx, u)
		if !ok {
			continue
		}
		if bySession[u.SessionID] == nil {
			order = append(order, u.SessionID)
		}
		bySession[u.SessionID] = append(bySession[u.SessionID], it.ItemID)
	}
	for _, sessionID := range order {
		if _, _, err := s.handOff(ctx, sessionID, bySession[sessionID]); err != nil {
			s.log.Warn("hand off units left waiting by the last run", "session", sessionID, "err", err)
			continue
		}
		s.log.Info("handed off units left waiting by the last run", "session", sessionID, "items", len(bySession[sessionID]))
	}
	if err := s.pending.write(nil); err != nil && s.pending.path != "" {
		s.log.Warn("clear the units waiting for their handoff", "err", err)
	}
}
