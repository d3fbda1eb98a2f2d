package tick

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// Every keeps calling f until ctx ends, then returns.
func TestEveryRunsUntilTheContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int32
	done := make(chan struct{})
	go func() {
		defer close(done)
		Every(ctx, time.Millisecond, func() {
			if calls.Add(1) == 3 {
				cancel()
			}
		})
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Every did not return after its context ended")
	}
	if n := calls.Load(); n < 3 {
		t.Errorf("f ran %d times before Every returned, want the 3 that ended it", n)
	}
}

// A context that has already ended returns at once, without a single call.
func TestEveryWithAnEndedContextNeverCalls(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	called := false
	Every(ctx, time.Hour, func() { called = true })
	if called {
		t.Error("f ran although the context had ended before the first tick")
	}
}

// A slow call delays the next one: two calls never overlap.
func TestEveryNeverOverlapsCalls(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var running, overlaps, calls atomic.Int32
	done := make(chan struct{})
	go func() {
		defer close(done)
		Every(ctx, time.Millisecond, func() {
			if running.Add(1) > 1 {
				overlaps.Add(1)
			}
			time.Sleep(5 * time.Millisecond) // five ticks' worth
			running.Add(-1)
			if calls.Add(1) == 4 {
				cancel()
			}
		})
	}()
	<-done
	if n := overlaps.Load(); n != 0 {
		t.Errorf("%d calls overlapped a running one", n)
	}
}
