package device

import "time"

// LiveFrame is the newest live preview frame, for code that needs to know what the
// console shows right now (the voice interviewer's anchors and screenshots).
type LiveFrame struct {
	ID         string
	Serial     string
	Width      int
	Height     int
	JPEG       []byte
	Perceptual uint64
	CapturedAt time.Time
}

// LatestFrame returns the newest live frame of serial.
func (p *Preview) LatestFrame(serial string) (LiveFrame, bool) {
	f, ok := p.frames.Latest()
	if !ok || f.Serial != serial {
		return LiveFrame{}, false
	}
	return LiveFrame{ID: f.ID, Serial: f.Serial, Width: f.Width, Height: f.Height, JPEG: f.JPEG,
		Perceptual: f.Perceptual, CapturedAt: f.CapturedAt}, true
}

// Frozen reports whether the console shows a frozen frame (Annotate).
func (p *Preview) Frozen() bool { return p.isFrozen() }

// LatestFrozen returns the newest kept freeze, if it is of serial.
func (s *Service) LatestFrozen(serial string) (*KeptScreen, bool) {
	fr, ok := s.frozen.Latest()
	if !ok || fr.Serial != serial {
		return nil, false
	}
	return fr, true
}

// Stillness is the preview's count of screen changes (changed raw frames and video
// pictures alike) and how long the screen has shown none.
func (p *Preview) Stillness() (changes uint64, still time.Duration) { return p.stillSince() }

// HasSidekick reports whether serial's app answers through its sidekick, so a
// capture reads the tree in milliseconds.
func (s *Service) HasSidekick(serial string) bool { return s.Capturer.sidekicks.known(serial) }

// WarmReady reports whether the warm tree of serial is current: a capture now needs
// no uiautomator dump.
func (s *Service) WarmReady(serial string) bool {
	return s.warm.current(serial, s.Preview.changes.Load()) != nil
}
