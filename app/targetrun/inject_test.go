package targetrun_test

import (
	"context"
	"errors"
	"testing"

	"fixthis/adb"
	"fixthis/adb/adbtest"
	"fixthis/app/targetrun"
)

// The run flow's device commands take the application id and the launcher activity
// from the project's files: a value in them that is no package or component name
// is refused before it reaches the phone, so nothing it carries runs there.
func TestRunValuesNeverRunOnThePhone(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	client := r.srv.Client(t)
	calls := []struct {
		what   string
		probes []adbtest.Probe
		call   func(v string) error
	}{
		{"launch component", adbtest.Probes("com.fixthis.demo/.MainActivity"), func(v string) error {
			_, err := targetrun.Launch(ctx, r.dev, v)
			return err
		}},
		{"launch activity", adbtest.Probes(".MainActivity"), func(v string) error {
			_, err := targetrun.Launch(ctx, r.dev, "com.fixthis.demo/"+v)
			return err
		}},
		{"uninstall", adbtest.Probes("com.fixthis.other"), func(v string) error { return targetrun.Uninstall(ctx, r.dev, v) }},
		{"installed", adbtest.Probes("com.fixthis.demo"), func(v string) error {
			_, _, err := targetrun.ReadInstalled(ctx, r.dev, v)
			return err
		}},
	}
	for _, c := range calls {
		tally := adbtest.Tally{What: c.what}
		for _, pr := range c.probes {
			tally.Sent++
			err := c.call(pr.Value)
			if errors.Is(err, adb.ErrInvalidArg) {
				tally.Refused++
			} else {
				t.Errorf("%s %s (%q) was not refused: %v", c.what, pr.Name, pr.Value, err)
			}
			if pw := adbtest.Pwned(r.phone); len(pw) > 0 {
				tally.Ran++
				t.Errorf("%s %s (%q) ran on the phone: %v", c.what, pr.Name, pr.Value, pw)
				for _, f := range pw { // keep going: every probe is counted
					if _, err := client.Shell(ctx, r.serial, "rm -f "+f); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		t.Log(tally)
	}
}
