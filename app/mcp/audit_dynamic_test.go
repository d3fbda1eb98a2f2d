package mcp

import (
	"context"
	"errors"
	"strings"
	"testing"

	"fixthis/app/agentdevice"
	"fixthis/app/display"
	"fixthis/app/errcode"
	"fixthis/sim/scenario"
)

// passDevice is the demo phone with display settings the sim draws, counting the
// changes and restores and failing where a test says.
type passDevice struct {
	demoDevice
	captures     int
	failCapture  int // the capture that fails (1 is the base screen), 0 none
	noLocales    bool
	sets         []string
	restores     int
	failRestore  bool
	restoredLast bool
}

func (d *passDevice) Capture(ctx context.Context, serial string) (*agentdevice.Capture, error) {
	d.captures++
	if d.captures == d.failCapture {
		return nil, errcode.New(errcode.DeviceNotAvailable, "the phone went away")
	}
	return d.demoDevice.Capture(ctx, serial)
}

func (d *passDevice) SetDisplay(_ context.Context, _ string, c display.Change) (*agentdevice.DisplayResult, error) {
	if c.Locale != nil && *c.Locale != "" && d.noLocales {
		return nil, errcode.New(errcode.InvalidInput, "per-app languages need Android 13 (API 33); this phone runs API 30")
	}
	cur := d.se.Display()
	if c.FontScale != nil {
		cur.FontScale = *c.FontScale
	}
	if c.Night != nil {
		cur.Night = *c.Night
	}
	if c.Locale != nil {
		cur.RTL = display.RTL(*c.Locale)
	}
	d.se.SetDisplay(cur)
	d.sets = append(d.sets, scenarioLine(cur))
	d.restoredLast = false
	return &agentdevice.DisplayResult{}, nil
}

func (d *passDevice) RestoreDisplay(context.Context, string) (*agentdevice.DisplayResult, error) {
	d.restores++
	if d.failRestore {
		return nil, errors.New("device offline")
	}
	d.se.SetDisplay(scenario.Display{})
	d.restoredLast = true
	return &agentdevice.DisplayResult{Restored: true}, nil
}

func scenarioLine(d scenario.Display) string {
	return strings.Join([]string{map[bool]string{true: "night", false: "day"}[d.Night],
		map[bool]string{true: "font2", false: "font1"}[d.FontScale == 2], map[bool]string{true: "rtl", false: "ltr"}[d.RTL]}, ",")
}

func newPassDevice(t *testing.T) *passDevice {
	return &passDevice{demoDevice: newDemoDevice(t, openStore(t, t.TempDir()))}
}

// Each step resets the one before it, and the phone is put back after a pass that
// finished, one that lost the phone part way, and one whose locale step the phone
// could not take.
func TestDynamicPassPutsThePhoneBack(t *testing.T) {
	for _, c := range []struct {
		name        string
		failCapture int
		noLocales   bool
		wantSets    string
		wantErr     string
		wantSkipped int
	}{
		{"whole pass", 0, false, "day,font2,ltr|night,font1,ltr|day,font1,rtl", "", 0},
		{"phone gone at the dark step", 3, false, "day,font2,ltr|night,font1,ltr", "the phone went away", 0},
		{"no per-app languages", 0, true, "day,font2,ltr|night,font1,ltr", "", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := newPassDevice(t)
			d.failCapture, d.noLocales = c.failCapture, c.noLocales
			var out auditOut
			res := call(t, newClient(t, Deps{Store: d.st, Device: d}), "fixthis_audit_screen", map[string]any{"dynamic": true}, &out)
			if got := strings.Join(d.sets, "|"); got != c.wantSets {
				t.Errorf("settings applied %q, want %q", got, c.wantSets)
			}
			if d.restores != 1 || !d.restoredLast || d.se.Display() != (scenario.Display{}) {
				t.Fatalf("restores %d, restored last %v, display %+v", d.restores, d.restoredLast, d.se.Display())
			}
			if c.wantErr != "" {
				if !res.IsError || !strings.Contains(text(res), c.wantErr) {
					t.Fatalf("want error %q, got %s", c.wantErr, text(res))
				}
				return
			}
			if res.IsError || out.Dynamic == nil || !out.Dynamic.Restored || len(out.Dynamic.Skipped) != c.wantSkipped {
				t.Fatalf("%s %+v", text(res), out.Dynamic)
			}
		})
	}
}

// A restore the phone refuses is said in the answer, beside the findings.
func TestDynamicPassSaysWhenThePhoneWasNotPutBack(t *testing.T) {
	d := newPassDevice(t)
	d.failRestore = true
	var out auditOut
	if res := call(t, newClient(t, Deps{Store: d.st, Device: d}), "fixthis_audit_screen", map[string]any{"dynamic": true}, &out); res.IsError {
		t.Fatal(text(res))
	}
	if out.Dynamic == nil || out.Dynamic.Restored || !strings.Contains(out.Dynamic.RestoreError, "device offline") {
		t.Fatalf("%+v", out.Dynamic)
	}
}

func TestDynamicNeedsTheCurrentScreenAndDisplayControl(t *testing.T) {
	d := newPassDevice(t)
	c := newClient(t, Deps{Store: d.st, Device: d})
	if res := call(t, c, "fixthis_audit_screen", map[string]any{"dynamic": true, "captureId": "c-1"}, nil); !res.IsError ||
		!strings.Contains(text(res), "leave out captureId") {
		t.Fatalf("with captureId: %s", text(res))
	}
	plain := newClient(t, Deps{Store: d.st, Device: d.demoDevice})
	if res := call(t, plain, "fixthis_audit_screen", map[string]any{"dynamic": true}, nil); !res.IsError ||
		!strings.Contains(text(res), "cannot change display settings") {
		t.Fatalf("without display control: %s", text(res))
	}
}

// A client that sent a progressToken is told each step as it starts.
func TestDynamicPassReportsProgress(t *testing.T) {
	d := newPassDevice(t)
	c := newClient(t, Deps{Store: d.st, Device: d})
	_, lines := callWithProgress(t, c, "fixthis_audit_screen", map[string]any{"dynamic": true}, "audit-1")
	waitForProgress(t, lines, "0 dynamic audit 1/3: fontScale=2|1 dynamic audit 2/3: night|2 dynamic audit 3/3: rtl")
}
