package store

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"fixthis/app/errcode"
)

// testClock is a settable clock shared by store handles in a test.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func newTestClock() *testClock {
	return &testClock{now: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func openClocked(t testing.TB, dir string, clk *testClock) *Store {
	t.Helper()
	return openWith(t, dir, Options{PollInterval: 20 * time.Millisecond, Now: clk.Now})
}

const testTTL = 15 * time.Second

// leaseStep is one call; want is acquired (acquire) or held (renew), holder
// the owner an acquire names (its own lease or the one refusing it).
type leaseStep struct {
	advance    time.Duration
	op         string // acquire | renew | release
	key, owner string
	want       bool
	holder     string
}

func TestWaitLeases(t *testing.T) {
	acq := func(key, owner string, want bool, holder string) leaseStep {
		return leaseStep{op: "acquire", key: key, owner: owner, want: want, holder: holder}
	}
	later := func(d time.Duration, s leaseStep) leaseStep { s.advance = d; return s }
	renew := func(key, owner string, held bool) leaseStep {
		return leaseStep{op: "renew", key: key, owner: owner, want: held}
	}
	release := func(key, owner string) leaseStep { return leaseStep{op: "release", key: key, owner: owner} }

	for _, tc := range []struct {
		name  string
		steps []leaseStep
	}{
		{"same session conflicts", []leaseStep{acq("S", "a", true, "a"), acq("S", "b", false, "a")}},
		{"different sessions coexist", []leaseStep{acq("S", "a", true, "a"), acq("T", "b", true, "b"), acq("T", "c", false, "b")}},
		{"any session refused beside a session wait", []leaseStep{acq("S", "a", true, "a"), acq("", "b", false, "a")}},
		{"session wait refused beside an any-session wait", []leaseStep{acq("", "a", true, "a"), acq("S", "b", false, "a")}},
		{"any session conflicts with itself", []leaseStep{acq("", "a", true, "a"), acq("", "b", false, "a")}},
		{"any-session refusal names the oldest wait", []leaseStep{later(time.Second, acq("T", "a", true, "a")),
			later(time.Second, acq("S", "b", true, "b")), acq("", "c", false, "a")}},
		{"release frees the session", []leaseStep{acq("S", "a", true, "a"), release("S", "a"), acq("S", "b", true, "b")}},
		{"release by another owner changes nothing", []leaseStep{acq("S", "a", true, "a"), release("S", "b"), acq("S", "c", false, "a")}},
		{"same owner acquiring again extends", []leaseStep{acq("S", "a", true, "a"), later(10*time.Second, acq("S", "a", true, "a")),
			later(10*time.Second, acq("S", "b", false, "a"))}},
		{"live just before expiry", []leaseStep{acq("S", "a", true, "a"), later(testTTL-time.Millisecond, acq("S", "b", false, "a"))}},
		{"expired lease is taken over", []leaseStep{acq("S", "a", true, "a"), later(testTTL, acq("S", "b", true, "b")),
			renew("S", "a", false), release("S", "a"), acq("S", "c", false, "b")}},
		{"expired any-session lease blocks nothing", []leaseStep{acq("", "a", true, "a"), later(testTTL, acq("S", "b", true, "b"))}},
		{"renewal keeps a lease past its first TTL", []leaseStep{acq("S", "a", true, "a"), later(10*time.Second, renew("S", "a", true)),
			later(10*time.Second, acq("S", "b", false, "a"))}},
		{"expired but not taken over renews", []leaseStep{acq("S", "a", true, "a"), later(time.Minute, renew("S", "a", true)),
			acq("S", "b", false, "a")}},
		{"renewing a released lease fails", []leaseStep{acq("S", "a", true, "a"), release("S", "a"), renew("S", "a", false)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			clk := newTestClock()
			s := openClocked(t, t.TempDir(), clk)
			for i, st := range tc.steps {
				clk.advance(st.advance)
				where := fmt.Sprintf("step %d %s(%q, %q)", i, st.op, st.key, st.owner)
				switch st.op {
				case "acquire":
					ok, h, err := s.AcquireWaitLease(ctx, st.key, st.owner, testTTL)
					if err != nil {
						t.Fatalf("%s: %v", where, err)
					}
					if ok != st.want || h == nil || h.Owner != st.holder {
						t.Fatalf("%s: acquired %v holder %+v, want %v holder %s", where, ok, h, st.want, st.holder)
					}
					if ok && (h.SessionKey != st.key || !h.ExpiresAt.After(clk.Now())) {
						t.Fatalf("%s: lease %+v at %s", where, h, clk.Now())
					}
				case "renew":
					held, err := s.RenewWaitLease(ctx, st.key, st.owner, testTTL)
					if err != nil || held != st.want {
						t.Fatalf("%s: held %v, %v; want %v", where, held, err, st.want)
					}
				case "release":
					if err := s.ReleaseWaitLease(ctx, st.key, st.owner); err != nil {
						t.Fatalf("%s: %v", where, err)
					}
				}
			}
		})
	}
}

func TestWaitLeaseValidation(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(t)
	long := strings.Repeat("x", maxLeaseKeyLen+1)
	for _, tc := range []struct {
		name       string
		key, owner string
		ttl        time.Duration
	}{
		{"empty owner", "S", "", testTTL},
		{"long owner", "S", long, testTTL},
		{"long key", long, "a", testTTL},
		{"zero ttl", "S", "a", 0},
		{"negative ttl", "S", "a", -time.Second},
		{"ttl too long", "S", "a", maxLeaseTTL + time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := s.AcquireWaitLease(ctx, tc.key, tc.owner, tc.ttl); errcode.Of(err) != errcode.InvalidInput {
				t.Errorf("acquire: %v, want INVALID_INPUT", err)
			}
			if _, err := s.RenewWaitLease(ctx, tc.key, tc.owner, tc.ttl); errcode.Of(err) != errcode.InvalidInput {
				t.Errorf("renew: %v, want INVALID_INPUT", err)
			}
		})
	}
	if err := s.ReleaseWaitLease(ctx, "S", ""); errcode.Of(err) != errcode.InvalidInput {
		t.Errorf("release without owner: %v", err)
	}
}

// TestWaitLeaseAcrossHandles races acquires through two store handles (two
// processes) on the same session: exactly one wins, and every loser is told
// the winner.
func TestWaitLeaseAcrossHandles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	handles := []*Store{openTest(t, dir), openTest(t, dir)}
	const n = 8
	type result struct {
		owner  string
		ok     bool
		holder string
	}
	results := make(chan result, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			owner := fmt.Sprintf("proc%d-wait%d", i%2, i)
			ok, h, err := handles[i%2].AcquireWaitLease(ctx, "S", owner, testTTL)
			if err != nil {
				t.Error(err)
				return
			}
			results <- result{owner, ok, h.Owner}
		}()
	}
	wg.Wait()
	close(results)
	var winner string
	var refused []result
	for r := range results {
		if r.ok {
			if winner != "" {
				t.Fatalf("two waits hold the lease: %s and %s", winner, r.owner)
			}
			winner = r.owner
		} else {
			refused = append(refused, r)
		}
	}
	if winner == "" || len(refused) != n-1 {
		t.Fatalf("winner %q, %d refused", winner, len(refused))
	}
	for _, r := range refused {
		if r.holder != winner {
			t.Errorf("%s refused naming %s, winner is %s", r.owner, r.holder, winner)
		}
	}
}

// TestWaitLeaseMigration: a database made before wait leases (user_version
// 1) gains the table when a newer FixThis opens it.
func TestWaitLeaseMigration(t *testing.T) {
	s := newTestStore(t)
	// Undo every migration after 0001, as a database of that age has it.
	s = reopen(t, s, `ALTER TABLE items DROP COLUMN voice_json; ALTER TABLE items DROP COLUMN audit_check;
		ALTER TABLE sessions DROP COLUMN app_build_json; ALTER TABLE screens DROP COLUMN display_json;
		ALTER TABLE screens DROP COLUMN serial;
		DROP TABLE evidence_attempts; DROP TABLE captures; DROP TABLE settings; DROP TABLE device_actions;
		ALTER TABLE items DROP COLUMN verification_json; ALTER TABLE items DROP COLUMN verdict;
		ALTER TABLE items DROP COLUMN verdict_note;
		DROP TABLE agent_connections; DROP TABLE console_seen;
		ALTER TABLE items DROP COLUMN claimed_by; ALTER TABLE items DROP COLUMN claimed_at;
		ALTER TABLE items DROP COLUMN resolved_at; ALTER TABLE items DROP COLUMN forced_save;
		ALTER TABLE sessions DROP COLUMN agent_pickup; ALTER TABLE agent_batches DROP COLUMN served_to;
		DROP TABLE wait_leases; PRAGMA user_version = 1`)
	if ok, _, err := s.AcquireWaitLease(context.Background(), "", "a", testTTL); err != nil || !ok {
		t.Fatalf("acquire after upgrade: %v %v", ok, err)
	}
}
