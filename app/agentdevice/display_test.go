package agentdevice

import (
	"context"
	"strings"
	"testing"

	"fixthis/app/display"
	"fixthis/app/errcode"
)

// The display tools ask for control like every action, land in the activity list, and
// a capture reports the conditions it was taken under.
func TestDisplayToolsNeedControlAndAreRecorded(t *testing.T) {
	e := newSimEnv(t)
	ctx := context.Background()
	serial := e.dev.Serial()
	p, m := e.displayPhone(t)
	night := true
	if _, err := p.SetDisplay(ctx, "", display.Change{Night: &night}); errcode.Of(err) != errcode.ControlRefused {
		t.Fatalf("undecided control: %v", err)
	}
	if m.Changed(serial) {
		t.Fatal("a refused change saved originals")
	}
	e.allowControl(t)
	scale := 1.3
	res, err := p.SetDisplay(ctx, "", display.Change{Night: &night, FontScale: &scale})
	if err != nil || res.Conditions != "night, fontScale=1.3" || !res.State.Changed {
		t.Fatalf("set: %+v %v", res, err)
	}
	c, err := p.Capture(ctx, "")
	if err != nil || c.Conditions.Line() != "night, fontScale=1.3" {
		t.Fatalf("capture conditions: %+v %v", c, err)
	}
	if kept, err := e.st.GetCapture(ctx, c.CaptureID); err != nil || kept.Conditions.Line() != "night, fontScale=1.3" {
		t.Fatalf("kept capture: %+v %v", kept, err)
	}
	res, err = p.RestoreDisplay(ctx, "")
	if err != nil || !res.Restored || res.Conditions != "" {
		t.Fatalf("restore: %+v %v", res, err)
	}
	got := e.displayActivity(t)
	want := "refused: was not allowed to change the display settings|ok: set the display to night, fontScale=1.3|ok: restored the display settings"
	if strings.Join(got, "|") != want {
		t.Fatalf("activity %q", got)
	}
}

// A value the grammar refuses is refused before a phone is picked or asked, so
// `en-US; reboot` from an agent never reaches adb.
func TestABadDisplayValueIsRefusedBeforeAPhoneIsPicked(t *testing.T) {
	picked := 0
	p := New(Options{Display: openDisplay(t), Pick: func(context.Context, string) (Target, error) {
		picked++
		return Target{}, errcode.New(errcode.DeviceNotAvailable, "no phone in this test")
	}})
	for _, tag := range []string{"en-US; reboot", "$(reboot)", strings.Repeat("a", 1<<20)} {
		_, err := p.SetDisplay(context.Background(), "", display.Change{Locale: &tag})
		if errcode.Of(err) != errcode.OutOfRange || len(err.Error()) > 200 {
			t.Errorf("locale %.20q: %.200v", tag, err)
		}
	}
	if picked != 0 {
		t.Fatalf("a phone was picked %d times for values the grammar refuses", picked)
	}
}
