package device

import "time"

// SetFrozen pauses the live loop (Annotate) or resumes it.
func (p *Preview) SetFrozen(frozen bool) {
	p.mu.Lock()
	if frozen && !p.frozen {
		p.frozenAt = time.Now()
	}
	p.frozen = frozen
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
