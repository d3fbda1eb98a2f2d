package device

import (
	"context"
	"time"
)

// SetFrozen pauses the live loop (Annotate) or resumes it.
func (p *Preview) SetFrozen(frozen bool) {
	p.mu.Lock()
	if frozen && !p.frozen {
		p.frozenAt = time.Now()
	}
	p.frozen = frozen
	if frozen && p.stopFetch != nil {
		// A raw frame on its way takes the cable for ~300 ms over USB 2, and the
		// freeze's own reads would wait behind it; the freeze does not need it.
		p.stopFetch()
	}
	p.mu.Unlock()
	if frozen {
		p.setStatus("", PreviewStatus{State: StateFrozen})
	} else {
		p.mu.Lock()
		p.lastCRC = 0 // announce the next frame even if unchanged: the console left the frozen image
		p.mu.Unlock()
		p.Poke()
	}
}

func (p *Preview) isFrozen() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.frozen
}

// frozenSince is when the preview froze, while it is frozen.
func (p *Preview) frozenSince() (time.Time, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.frozenAt, p.frozen
}

// fetching records the cancel of the raw frame the loop starts fetching (nil when
// it is done). It reports false, recording nothing, when the preview is frozen.
func (p *Preview) fetching(cancel context.CancelFunc) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if cancel != nil && p.frozen {
		return false
	}
	p.stopFetch = cancel
	return true
}
