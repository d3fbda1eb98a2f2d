// Package tick holds the one background loop FixThis's watchers share: run a check on
// every tick of a clock until the work it serves ends.
package tick

import (
	"context"
	"time"
)

// Every calls f every d until ctx ends; a call that runs long delays the next tick
// rather than overlapping it (time.Ticker drops the ticks a slow reader misses).
func Every(ctx context.Context, d time.Duration, f func()) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			f()
		}
	}
}
