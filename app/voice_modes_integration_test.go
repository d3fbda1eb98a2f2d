package app

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"fixthis/adb/adbtest"
	"fixthis/app/store"
	"fixthis/app/voice"
	"fixthis/internal/childtest"
	"fixthis/internal/eventually"
	"fixthis/internal/realtimefake"
)

// phases are the phases of the session's items, in sequence order.
func (e *voiceEnv) phases(sid string) []string {
	var out []string
	for _, it := range e.session(sid).Items {
		out = append(out, string(it.Phase))
	}
	return out
}

// Instant hands off each unit as it is recorded; smart at the silence checkpoint;
// collect never by itself, until Save to MCP (or a switch to instant).
func TestVoiceModesHandOff(t *testing.T) {
	const silence = 1500 * time.Millisecond
	script := realtimefake.Script{Turns: []realtimefake.Turn{
		turn("make this card blue", call("record_unit", `{"statement":"Make the card blue","anchors":["this"],"transcript_excerpt":"make this card blue"}`)),
		turn("and bigger", call("record_unit", `{"statement":"Make the card bigger","anchors":["anchor_0001"],"transcript_excerpt":"and bigger"}`)),
	}}
	for _, tc := range []struct{ mode string }{{"instant"}, {"smart"}, {"collect"}} {
		t.Run(tc.mode, func(t *testing.T) {
			e := newVoiceEnv(t, script, func(o *Options) { o.VoiceSilence = silence })
			events := e.subscribe()
			sid, vid, _ := e.startVoice(tc.mode)
			e.speak(vid)
			// The unit's event comes after its item is stored and before the hand-off
			// a checkpoint makes; instant hands off right after.
			events.next(10*time.Second, "voice-unit", nil)
			recorded := time.Now()
			switch tc.mode {
			case "instant":
				eventually.True(t, 5*time.Second, "the unit sent", func() bool { return fmt.Sprint(e.phases(sid)) == "[sent]" })
				// The note that kept the unit for a restart goes once it is handed off.
				eventually.True(t, 5*time.Second, "the waiting list cleared", func() bool {
					_, err := os.Stat(filepath.Join(e.projectDir, store.DataDirName, "voice-handoffs.json"))
					return os.IsNotExist(err)
				})
			case "smart":
				if p := e.phases(sid); fmt.Sprint(p) != "[draft]" {
					t.Fatalf("smart handed off before the checkpoint: %v", p)
				}
				eventually.True(t, 10*time.Second, "the unit sent at the silence checkpoint", func() bool { return fmt.Sprint(e.phases(sid)) == "[sent]" })
				if d := time.Since(recorded); d > silence+2*time.Second {
					t.Fatalf("the checkpoint came %v after the unit", d)
				}
			case "collect":
				// An absence can only be seen by waiting: past the smart checkpoint.
				time.Sleep(silence + 500*time.Millisecond)
				if p := e.phases(sid); fmt.Sprint(p) != "[draft]" {
					t.Fatalf("collect handed off by itself: %v", p)
				}
				e.speak(vid)
				events.next(10*time.Second, "voice-unit", func(ev sseEvent) bool { return decodeEvent[voice.Unit](t, ev).UnitID == "unit_0002" })
				items := e.session(sid).Items
				e.mustJSON("POST", "/api/agent-handoffs", map[string]any{"sessionId": sid, "itemIds": []string{items[0].ItemID}}, nil)
				if p := fmt.Sprint(e.phases(sid)); p != "[sent draft]" {
					t.Fatalf("after Save to MCP of the first: %s", p)
				}
				var vs voice.Session
				e.mustJSON("PUT", "/api/voice/sessions/"+vid, map[string]string{"mode": "instant"}, &vs)
				if vs.Mode != voice.ModeInstant {
					t.Fatalf("mode after PUT: %+v", vs)
				}
				eventually.True(t, 5*time.Second, "the waiting draft sent on the switch to instant", func() bool { return fmt.Sprint(e.phases(sid)) == "[sent sent]" })
				if r := e.do("PUT", "/api/voice/sessions/"+vid, map[string]string{"mode": "loud"}, nil); r.Status != 422 {
					t.Fatalf("an unknown mode: %d %s", r.Status, r.Body)
				}
			}
		})
	}
}

const unitCrashEnv = "FIXTHIS_VOICE_UNIT_CRASH_DIR"

// A unit is a stored draft before its tool result is sent: a FixThis killed with
// SIGKILL right after the interviewer got the result has the item on restart.
func TestVoiceUnitSurvivesKill(t *testing.T) {
	script := realtimefake.Script{Turns: []realtimefake.Turn{
		turn("make this card blue", call("record_unit", `{"statement":"Make the card blue","anchors":["this"],"transcript_excerpt":"make this card blue"}`)),
	}}
	if dir := os.Getenv(unitCrashEnv); dir != "" {
		e := newVoiceEnvIn(t, dir, script)
		// The kill skips this process's cleanups: its adb server is the parent's to end.
		fmt.Printf("ADB %d\n", e.adbServer.Port)
		sid, vid, _ := e.startVoice("collect")
		e.speak(vid)
		outs := e.waitOutputs(1)
		fmt.Printf("RESULT %s %s %v\n", sid, outs[0].UnitID, outs[0].OK)
		select {} // wait for the kill
	}
	dir := t.TempDir()
	// The child waits to be killed: Start ends it also when this test fails first.
	cmd, lines := childtest.Start(t, "TestVoiceUnitSurvivesKill", unitCrashEnv, dir)
	line, adbPort := make(chan string, 1), make(chan int, 1)
	go func() {
		for l := range lines {
			var port int
			if _, err := fmt.Sscanf(l, "ADB %d", &port); err == nil {
				adbPort <- port
			}
			if strings.HasPrefix(l, "RESULT ") {
				line <- l
				break
			}
		}
		close(line)
		for range lines { // drain, so the reader ends with the child
		}
	}()
	var result string
	timeout := time.After(60 * time.Second)
wait:
	for {
		select {
		case port := <-adbPort:
			adbtest.Adopt(t, port)
		case result = <-line:
			break wait
		case <-timeout:
			break wait
		}
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	f := strings.Fields(result)
	if len(f) != 4 || f[3] != "true" {
		t.Fatalf("the child reported %q", result)
	}
	st, err := store.Open(context.Background(), dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sess, err := st.GetSession(context.Background(), f[1])
	if err != nil {
		t.Fatal(err)
	}
	if len(sess.Items) != 1 || sess.Items[0].Voice == nil || sess.Items[0].Voice.UnitID != f[2] || sess.Items[0].Comment != "Make the card blue" {
		t.Fatalf("after the kill: %+v", sess.Items)
	}
}

// Smart mode's third checkpoint: the target app moved to another activity (seen by
// the tree kept for the live screen).
func TestVoiceSmartHandsOffOnActivityChange(t *testing.T) {
	script := realtimefake.Script{Turns: []realtimefake.Turn{
		turn("make this card blue", call("record_unit", `{"statement":"Make the card blue","anchors":["this"],"transcript_excerpt":"make this card blue"}`)),
	}}
	// A silence checkpoint that never comes within the test.
	e := newVoiceEnv(t, script, func(o *Options) { o.VoiceSilence = time.Hour })
	events := e.subscribe()
	sid, vid, _ := e.startVoice("smart")
	e.speak(vid)
	events.next(10*time.Second, "voice-unit", nil)
	e.mustJSON("POST", "/api/preview/resume", nil, nil)
	tapTag := func(tag, activity string) {
		t.Helper()
		var x, y int
		eventually.True(t, 10*time.Second, "the kept tree of "+activity, func() bool {
			kept := e.app.device.CurrentScreen(e.sim.Serial())
			if kept == nil || !strings.HasSuffix(kept.Snapshot.State.Activity, activity) {
				return false
			}
			for _, n := range kept.Snapshot.Nodes {
				if n.TestTag == tag {
					x, y = (n.Bounds.Left+n.Bounds.Right)/2, (n.Bounds.Top+n.Bounds.Bottom)/2
					return true
				}
			}
			return false
		})
		if tag == "settings_button" {
			// The sign-in screen is kept: a new screen of the same activity is no checkpoint.
			if p := fmt.Sprint(e.phases(sid)); p != "[draft]" {
				t.Fatalf("handed off on a screen of the same activity: %s", p)
			}
		}
		e.mustJSON("POST", "/api/preview/tap", map[string]int{"x": x, "y": y}, nil)
	}
	tapTag("account_avatar", ".MainActivity") // sign-in: the same activity
	tapTag("settings_button", ".MainActivity")
	eventually.True(t, 10*time.Second, "the tree of the settings activity", func() bool {
		kept := e.app.device.CurrentScreen(e.sim.Serial())
		return kept != nil && strings.HasSuffix(kept.Snapshot.State.Activity, ".SettingsActivity")
	})
	eventually.True(t, 5*time.Second, "the unit sent at the activity checkpoint", func() bool { return fmt.Sprint(e.phases(sid)) == "[sent]" })
}

// TestTalkEndsWithItsSession: Talk is refused on a closed or deleted session, and a
// running voice session stops when its session is closed or deleted, whoever did it.
func TestTalkEndsWithItsSession(t *testing.T) {
	e := newVoiceEnv(t, realtimefake.Script{})
	e.keys.key = fakeKey
	for _, end := range []struct{ name, method, path string }{
		{"closed", "POST", "/api/sessions/%s/close"},
		{"deleted", "DELETE", "/api/sessions/%s"},
	} {
		t.Run(end.name, func(t *testing.T) {
			sid := e.newSession()
			var vs voice.Session
			e.do("POST", "/api/voice/sessions", map[string]any{"sessionId": sid}, nil).decode(t, &vs)
			if r := e.do(end.method, fmt.Sprintf(end.path, sid), nil, nil); r.Status != http.StatusOK {
				t.Fatalf("%s: %d %s", end.name, r.Status, r.Body)
			}
			eventually.True(t, 5*time.Second, "Talk stopped with its session", func() bool {
				var st voice.Status
				e.mustJSON("GET", "/api/voice", nil, &st)
				return st.Active == nil
			})
			r := e.do("POST", "/api/voice/sessions", map[string]any{"sessionId": sid}, nil)
			want := map[string]int{"closed": http.StatusConflict, "deleted": http.StatusNotFound}[end.name]
			if r.Status != want {
				t.Fatalf("Talk on a %s session: %d %s", end.name, r.Status, r.Body)
			}
			var st voice.Status
			if e.mustJSON("GET", "/api/voice", nil, &st); st.Active != nil {
				t.Fatalf("a refused start left a session: %+v", st.Active)
			}
		})
	}
}
