package agentdevice

import (
	"context"
	"strings"
	"testing"

	"fixthis/app/display"
	"fixthis/app/errcode"
)

// The size tools ask for control, refuse a bad size before a phone is picked,
// bring the app back to the front when it left, land in the activity list and
// leave the phone's size as it was after a reset.
func TestSizeToolsNeedControlAndAreRecorded(t *testing.T) {
	e := newSimEnv(t)
	ctx := context.Background()
	serial := e.dev.Serial()
	p, _ := e.displayPhone(t)
	picked := 0
	pick := p.o.Pick
	p.o.Pick = func(ctx context.Context, s string) (Target, error) { picked++; return pick(ctx, s) }
	if _, err := p.SetSize(ctx, "", display.Presets[2]); errcode.Of(err) != errcode.ControlRefused {
		t.Fatalf("undecided control: %v", err)
	}
	e.allowControl(t)
	before := picked
	if _, err := p.SetSize(ctx, "", display.Preset{Name: "custom", WidthDp: 600, HeightDp: 800, Density: 0x7fffffff}); errcode.Of(err) != errcode.OutOfRange || picked != before {
		t.Fatalf("a bad density: %v (picked %d times)", err, picked-before)
	}
	// The user went home: the size change brings the app back.
	if _, err := e.client.Device(serial).Shell(ctx, "input keyevent KEYCODE_HOME"); err != nil {
		t.Fatal(err)
	}
	res, err := p.SetSize(ctx, "", display.Presets[2])
	if err != nil || res.Size.WidthDp < 1280 || res.Plan == nil || res.Front != "brought back" {
		t.Fatalf("tablet: %+v %v", res, err)
	}
	res, err = p.ResetSize(ctx, "")
	if err != nil || !res.Restored || res.Size.Width != 1080 || res.Size.Height != 2400 {
		t.Fatalf("reset: %+v %v", res, err)
	}
	got := e.displayActivity(t)
	want := "refused: was not allowed to change the display settings|ok: set the size to tablet 1280×800 dp: 2032x1270 at 254 dpi|ok: put the phone's own size back"
	if strings.Join(got, "|") != want {
		t.Fatalf("activity %q", got)
	}
}
