package mcp

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// TestWaitEndsWithSession: closing or deleting a session wakes a wait parked
// on it within a second with session_ended, and later waits get the same
// answer at once.
func TestWaitEndsWithSession(t *testing.T) {
	for _, how := range []string{"closed", "deleted"} {
		t.Run(how, func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			console := openStore(t, dir)
			c := newClient(t, Deps{Store: openStore(t, dir)})
			sess, _ := seed(t, console, 1)
			sid := sess.SessionID
			parked, cancel := parkWait(t, c, map[string]any{"sessionId": sid, "timeoutSeconds": 30})
			defer cancel()
			time.Sleep(300 * time.Millisecond)
			start := time.Now()
			var err error
			if how == "closed" {
				_, err = console.CloseSession(ctx, sid)
			} else {
				err = console.DeleteSession(ctx, sid)
			}
			if err != nil {
				t.Fatal(err)
			}
			var out waitOut
			select {
			case res := <-parked:
				if res == nil || res.IsError {
					t.Fatalf("parked wait: %+v", res)
				}
				if err := json.Unmarshal([]byte(text(res)), &out); err != nil {
					t.Fatal(err)
				}
			case <-time.After(3 * time.Second):
				t.Fatal("parked wait not woken by the session's end")
			}
			if took := time.Since(start); out.Status != "session_ended" || out.Reason != how || took > time.Second {
				t.Fatalf("after %s: %+v in %s, want session_ended within 1 s", how, out, took)
			}
			start = time.Now()
			call(t, c, "fixthis_wait_for_feedback", map[string]any{"sessionId": sid, "timeoutSeconds": 10}, &out)
			if out.Status != "session_ended" || time.Since(start) > time.Second {
				t.Fatalf("later wait on a %s session: %+v after %s", how, out, time.Since(start))
			}
		})
	}
}

// TestWaitConsoleGone: once the console has had no stream open for a while, a
// wait answers console_gone instead of waiting for feedback nobody can send.
func TestWaitConsoleGone(t *testing.T) {
	old := consoleGoneAfter
	consoleGoneAfter = 300 * time.Millisecond
	defer func() { consoleGoneAfter = old }()
	ctx := context.Background()
	dir := t.TempDir()
	console := openStore(t, dir)
	c := newClient(t, Deps{Store: openStore(t, dir)})
	var out waitOut
	call(t, c, "fixthis_wait_for_feedback", map[string]any{"timeoutSeconds": 1}, &out)
	if out.Status != "timeout" {
		t.Fatalf("no console ever open: %+v, want timeout", out)
	}
	if err := console.TouchConsole(ctx); err != nil {
		t.Fatal(err)
	}
	call(t, c, "fixthis_wait_for_feedback", map[string]any{"timeoutSeconds": 1}, &out)
	if out.Status != "timeout" {
		t.Fatalf("console just seen: %+v, want timeout", out)
	}
	time.Sleep(400 * time.Millisecond)
	start := time.Now()
	call(t, c, "fixthis_wait_for_feedback", map[string]any{"timeoutSeconds": 10}, &out)
	if out.Status != "console_gone" || time.Since(start) > time.Second {
		t.Fatalf("console gone: %+v after %s", out, time.Since(start))
	}
}
