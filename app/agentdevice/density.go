package agentdevice

import (
	"context"
	"time"
)

// DisplayDensity is the density apps on the device render at, in dpi (the `wm
// density` override when one is set, else the panel's): what an accessibility audit
// converts pixels to dp with. 0 without a display manager, so the caller asks for it.
func (p *Phone) DisplayDensity(ctx context.Context, serial string) (int, error) {
	if p.o.Display == nil {
		return 0, nil
	}
	t, err := p.o.Pick(ctx, serial)
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	st, err := p.o.Display.Read(ctx, p.displayTarget(ctx, t.Serial))
	if err != nil {
		return 0, err
	}
	return st.Density, nil
}
