package eventually

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// stopped stands in for the testing.TB a wait runs under and keeps the failure it
// gives, so this test can read the message instead of failing itself.
type stopped struct {
	testing.TB
	message string
}

func (s *stopped) Helper() {}

func (s *stopped) Fatalf(format string, args ...any) {
	s.message = fmt.Sprintf(format, args...)
	runtime.Goexit() // as the real Fatalf does: nothing after it runs
}

// failure runs wait the way a test goroutine would and returns how it failed, "" when it did not.
func failure(t *testing.T, wait func(testing.TB)) string {
	s := &stopped{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		wait(s)
	}()
	<-done
	return s.message
}

func TestTrue(t *testing.T) {
	calls := 0
	if f := failure(t, func(tb testing.TB) {
		True(tb, 5*time.Second, "the third look", func() bool { calls++; return calls == 3 })
	}); f != "" || calls != 3 {
		t.Fatalf("a condition that comes true on the third look: failure %q after %d looks", f, calls)
	}
	start := time.Now()
	f := failure(t, func(tb testing.TB) {
		True(tb, 50*time.Millisecond, "the phone", func() bool { return false })
	})
	if want := "timed out after 50ms waiting for the phone"; f != want {
		t.Errorf("failure %q, want %q", f, want)
	}
	if d := time.Since(start); d < 50*time.Millisecond || d > 2*time.Second {
		t.Errorf("gave up after %v, want just after 50ms", d)
	}
	calls = 0
	if f := failure(t, func(tb testing.TB) {
		True(tb, 0, "one look", func() bool { calls++; return true })
	}); f != "" || calls != 1 {
		t.Errorf("a zero timeout: failure %q after %d looks, want one passing look", f, calls)
	}
}

func TestGet(t *testing.T) {
	n := 0
	next := func() int { n++; return n }
	var got int
	if f := failure(t, func(tb testing.TB) {
		got = Get(tb, 5*time.Second, "four", next, func(v int) bool { return v == 4 }, strconv.Itoa)
	}); f != "" || got != 4 {
		t.Fatalf("Get returned %d (failure %q), want the value that passed, 4", got, f)
	}
	f := failure(t, func(tb testing.TB) {
		Get(tb, 30*time.Millisecond, "a negative number", next, func(v int) bool { return v < 0 }, strconv.Itoa)
	})
	if !strings.HasPrefix(f, "timed out after 30ms waiting for a negative number; last: ") || !strings.HasSuffix(f, strconv.Itoa(n)) {
		t.Errorf("failure %q, want it to show the last value, %d", f, n)
	}
}
