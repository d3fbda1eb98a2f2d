// Package eventually waits in tests for something another goroutine, a simulated
// phone or a fake server will do: it polls a condition until it holds, and fails
// the test once a deadline passes, naming what it waited for. Only tests import it.
package eventually

import (
	"testing"
	"time"
)

// pause is how long a wait sleeps between two looks: short next to every timeout the
// tests use, long enough not to keep a shared CPU busy.
const pause = 10 * time.Millisecond

// True waits until cond holds, and fails t after timeout:
// "timed out after 5s waiting for <what>".
func True(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	if !poll(timeout, cond) {
		t.Fatalf("timed out after %s waiting for %s", timeout, what)
	}
}

// Get waits until ok holds for what get returns, and returns that value. After timeout
// it fails t, showing the last value as show renders it: what the test was waiting on
// is usually the best clue to why it never came.
func Get[T any](t testing.TB, timeout time.Duration, what string, get func() T, ok func(T) bool, show func(T) string) T {
	t.Helper()
	var last T
	if !poll(timeout, func() bool { last = get(); return ok(last) }) {
		t.Fatalf("timed out after %s waiting for %s; last: %s", timeout, what, show(last))
	}
	return last
}

// poll reports whether cond held before timeout passed; cond is asked at least once,
// so a zero timeout is one look.
func poll(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(pause)
	}
}
