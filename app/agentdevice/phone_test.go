package agentdevice

import (
	"context"
	"errors"
	"testing"
	"time"

	"fixthis/app/errcode"
)

// An agent drives the simulated phone through the same Phone the app and the sidecar
// use: it must be allowed first, then taps by node, keys, swipes, types, launches and
// waits, and everything it does is in the store's activity log.
func TestPhoneDrivesTheSimulatedPhone(t *testing.T) {
	e := newSimEnv(t)
	ctx := context.Background()
	st, serial := e.st, e.dev.Serial()
	o := e.options()
	o.Pick = func(context.Context, string) (Target, error) { return Target{Serial: serial, Model: "Pixel 7a"}, nil }
	p := New(o)

	// Not decided yet: the agent is refused, and the console is asked.
	_, err := p.Act(ctx, "", Action{Kind: "tap", Target: &NodeSelector{ContentDescription: "Account"}})
	if errcode.Of(err) != errcode.ControlRefused {
		t.Fatalf("undecided control: %v", err)
	}
	if c, _ := Control(ctx, st, serial, false); !c.Pending || c.Decided {
		t.Fatalf("the ask is not pending: %+v", c)
	}
	e.allowControl(t)

	steps := []struct {
		name string
		a    Action
		want string // text the screen shows afterwards
	}{
		{"tap by content description", Action{Kind: "tap", Target: &NodeSelector{ContentDescription: "Account"}}, "Welcome back"},
		{"tap a field by test tag", Action{Kind: "tap", Target: &NodeSelector{ResourceID: "email_field"}}, "Welcome back"},
		{"type", Action{Kind: "type", Text: "sam@example.com"}, "Welcome back"},
		{"back hides the keyboard", Action{Kind: "key", Key: "back"}, "Welcome back"},
		{"back again leaves the screen", Action{Kind: "key", Key: "KEYCODE_BACK"}, "Find your next trail"},
		{"swipe", Action{Kind: "swipe", Direction: "up", DurationMillis: 100}, ""},
		{"launch", Action{Kind: "launch", Package: "com.fixthis.demo"}, ""},
	}
	for _, s := range steps {
		res, err := p.Act(ctx, "", s.a)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if res.Serial != serial || res.Detail == "" {
			t.Fatalf("%s: %+v", s.name, res)
		}
		if s.want != "" {
			w, err := p.WaitForScreen(ctx, "", ScreenCondition{Text: s.want, TimeoutMillis: 5000})
			if err != nil || !w.Met {
				t.Fatalf("%s: the screen never showed %q: %+v %v", s.name, s.want, w, err)
			}
		}
	}

	for _, bad := range []struct {
		name string
		a    Action
		code errcode.Code
	}{
		{"unknown node", Action{Kind: "tap", Target: &NodeSelector{Text: "No such button"}}, errcode.NodeNotFound},
		{"uid without capture", Action{Kind: "tap", Target: &NodeSelector{UID: "n0"}}, errcode.InvalidInput},
		{"bad key", Action{Kind: "key", Key: "BACK; reboot"}, errcode.InvalidInput},
		{"app not installed", Action{Kind: "launch", Package: "com.example.absent"}, errcode.InputFailed},
	} {
		if _, err := p.Act(ctx, "", bad.a); errcode.Of(err) != bad.code {
			t.Errorf("%s: got %v, want %s", bad.name, err, bad.code)
		}
	}

	c, err := p.Capture(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	kept, err := st.GetCapture(ctx, c.CaptureID)
	if err != nil || kept.Width != c.Width || c.Tree == "" || len(c.PNG) == 0 {
		t.Fatalf("capture %+v kept as %+v (%v)", c, kept, err)
	}
	w, err := p.WaitForScreen(ctx, "", ScreenCondition{FingerprintNot: c.Fingerprint, TimeoutMillis: 400})
	if err != nil || w.Met || w.Reason == "" {
		t.Fatalf("an unchanged screen met the wait: %+v %v", w, err)
	}

	// Denied: refused at once, without waiting.
	if err := SetControl(ctx, st, serial, false); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := p.Act(ctx, "", Action{Kind: "key", Key: "HOME"}); !errors.Is(err, &errcode.Error{Code: errcode.ControlRefused}) || time.Since(start) > time.Second {
		t.Fatalf("denied control: %v after %s", err, time.Since(start))
	}
	acts, err := st.DeviceActions(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	outcomes := map[string]int{}
	for _, a := range acts {
		outcomes[a.Outcome]++
	}
	if outcomes["refused"] != 2 || outcomes["ok"] != len(steps)+1 || outcomes["failed"] != 4 {
		t.Fatalf("activity %v", outcomes)
	}
}
