package device

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"

	"fixthis/app/errcode"
)

// clipHolds are recordings a console started (a long press on the clip button):
// each keeps the histories whole from its start until it is cut or expires.
type clipHolds struct {
	mu    sync.Mutex
	holds map[string]clipHold
}

type clipHold struct {
	serial  string
	started time.Time
	release func()
}

// StartRecording keeps serial's live screen from now on and returns the id that
// StopRecording takes. It ends by itself after the longest clip (30 s) and 5 s more.
func (s *Service) StartRecording(serial string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	id := "rec-" + hex.EncodeToString(b[:])
	h := clipHold{serial: serial, started: time.Now(), release: s.Hold(serial)}
	s.clipHolds.mu.Lock()
	if s.clipHolds.holds == nil {
		s.clipHolds.holds = map[string]clipHold{}
	}
	s.clipHolds.holds[id] = h
	s.clipHolds.mu.Unlock()
	time.AfterFunc(holdLimit, func() { s.endRecording(id) })
	return id
}

// RecordingRan is how long the running recording id of serial has run. The
// recording keeps running: a cut that fails (an unknown or closed session, no
// pictures) leaves it to be cut again, and StopRecording ends it once a clip is saved.
func (s *Service) RecordingRan(id, serial string) (time.Duration, error) {
	s.clipHolds.mu.Lock()
	h, ok := s.clipHolds.holds[id]
	s.clipHolds.mu.Unlock()
	if !ok || h.serial != serial {
		return 0, errcode.New(errcode.ClipNotFound, "no recording %s of %s is running (a recording ends after %v)",
			errcode.Quote(id), serial, holdLimit)
	}
	return time.Since(h.started), nil
}

// StopRecording ends a recording; an unknown or already ended id is nothing to do.
func (s *Service) StopRecording(id string) {
	s.endRecording(id)
}

func (s *Service) endRecording(id string) {
	s.clipHolds.mu.Lock()
	h, ok := s.clipHolds.holds[id]
	delete(s.clipHolds.holds, id)
	s.clipHolds.mu.Unlock()
	if ok {
		// Released a moment later, so the cut that follows still finds the pictures.
		time.AfterFunc(2*time.Second, h.release)
	}
}
