package agentdevice

import (
	"context"
	"strings"
	"testing"
	"unicode"

	"fixthis/adb/adbtest"
	"fixthis/app/errcode"
)

// Hostile values in the launch, type and key tools never run anything on the phone:
// a launch or a key that is not a package or key name is refused before it reaches
// the device, text with a control character is refused, and any other text is typed
// as it is. The simulated phone's shell runs what /system/bin/sh would, so an
// injection that got through would leave its file there.
func TestAgentValuesNeverRunOnThePhone(t *testing.T) {
	e := newSimEnv(t)
	ctx := context.Background()
	serial := e.dev.Serial()
	p := New(e.options())
	e.allowControl(t)
	hasControl := func(s string) bool { return strings.IndexFunc(s, unicode.IsControl) >= 0 }
	textProbes := append(adbtest.Probes("hello"),
		adbtest.Probe{Name: "nul", Value: "hello\x00world"}, adbtest.Probe{Name: "bel", Value: "hello\a"},
		adbtest.Probe{Name: "esc", Value: "\x1b[2J"}, adbtest.Probe{Name: "del", Value: "a\x7f"})
	for _, tc := range []struct {
		kind   string
		probes []adbtest.Probe
		action func(v string) Action
		refuse func(v string) bool
	}{
		{"launch", adbtest.Probes("com.fixthis.demo"), func(v string) Action { return Action{Kind: "launch", Package: v} },
			func(string) bool { return true }},
		{"key", adbtest.Probes("BACK"), func(v string) Action { return Action{Kind: "key", Key: v} },
			func(string) bool { return true }},
		{"type", textProbes, func(v string) Action { return Action{Kind: "type", Text: v} }, hasControl},
	} {
		tally := adbtest.Tally{What: tc.kind}
		for _, pr := range tc.probes {
			tally.Sent++
			_, err := p.Act(ctx, "", tc.action(pr.Value))
			refused := errcode.Of(err) == errcode.InvalidInput
			if refused {
				tally.Refused++
				if msg := err.Error(); len(msg) > 300 {
					t.Errorf("%s %s: the error quotes too much (%d bytes)", tc.kind, pr.Name, len(msg))
				}
			}
			if pw := adbtest.Pwned(e.dev); len(pw) > 0 {
				tally.Ran++
				t.Errorf("%s %s (%q) ran on the phone: %v", tc.kind, pr.Name, pr.Value, pw)
				for _, f := range pw { // keep going: every probe is counted
					if _, err := e.client.Shell(ctx, serial, "rm -f "+f); err != nil {
						t.Fatal(err)
					}
				}
			}
			if want := tc.refuse(pr.Value); refused != want {
				t.Errorf("%s %s (%q): refused=%v (%v), want refused=%v", tc.kind, pr.Name, pr.Value, refused, err, want)
			} else if !want && err != nil {
				t.Errorf("%s %s (%q): %v", tc.kind, pr.Name, pr.Value, err)
			}
		}
		t.Log(tally)
	}
}
