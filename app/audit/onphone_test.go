package audit

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"fixthis/app/display"
	"fixthis/app/errcode"
	"fixthis/app/store"
)

// recordingPhone is a PassPhone that writes down each display call and shows the
// same screen under every setting, failing where a test says.
type recordingPhone struct {
	screen      Input
	calls       []string
	screens     int
	failScreen  int // the Screen call that fails (1 is the first), 0 none
	noLocales   bool
	failRestore bool
}

func (p *recordingPhone) SetDisplay(ctx context.Context, c display.Change) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var parts []string
	if c.FontScale != nil {
		parts = append(parts, fmt.Sprintf("font=%g", *c.FontScale))
	}
	if c.Night != nil {
		parts = append(parts, fmt.Sprintf("night=%v", *c.Night))
	}
	if c.Locale != nil {
		if *c.Locale != "" && p.noLocales {
			return errcode.New(errcode.InvalidInput, "per-app languages need Android 13")
		}
		parts = append(parts, "locale="+*c.Locale)
	}
	p.calls = append(p.calls, "set "+strings.Join(parts, " "))
	return nil
}

func (p *recordingPhone) RestoreDisplay(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("restore on an ended context: %w", err)
	}
	p.calls = append(p.calls, "restore")
	if p.failRestore {
		return errors.New("device offline")
	}
	return nil
}

func (p *recordingPhone) Screen(context.Context) (Input, error) {
	p.screens++
	if p.screens == p.failScreen {
		return Input{}, errors.New("the phone went away")
	}
	return p.screen, nil
}

// The display is put back after every pass that changed it, on a context the
// caller's cancel does not end: to the phone's own values after a screen drawn
// under them, else to the conditions the screen was drawn under.
func TestDynamicOnPhonePutsTheDisplayBack(t *testing.T) {
	screen := screenOf(node("0.0", label, rect(40, 120, 400, 180), text("Saved")))
	cases := []struct {
		name         string
		was          *store.DisplayConditions
		phone        recordingPhone
		cancelled    bool
		wantCalls    string
		wantErr      string
		wantSkipped  int
		wantRestored bool
	}{
		{name: "the phone's own values", wantRestored: true,
			wantCalls: "set font=2|set font=1 night=true|set night=false locale=ar|restore"},
		{name: "a dark theme the user chose", was: &store.DisplayConditions{Night: true}, wantSkipped: 1, wantRestored: true,
			wantCalls: "set font=2|set font=1 locale=ar|set font=1 night=true locale="},
		{name: "nothing to change", was: &store.DisplayConditions{Night: true, FontScale: 2, Locale: "ar"}, wantSkipped: 3,
			wantRestored: true, wantCalls: ""},
		{name: "no per-app languages", phone: recordingPhone{noLocales: true}, wantSkipped: 1, wantRestored: true,
			wantCalls: "set font=2|set font=1 night=true|restore"},
		{name: "the phone went away at the dark step", phone: recordingPhone{failScreen: 2},
			wantCalls: "set font=2|set font=1 night=true|restore", wantErr: "capture under night: the phone went away", wantRestored: true},
		{name: "a put-back the phone refuses", phone: recordingPhone{failRestore: true},
			wantCalls: "set font=2|set font=1 night=true|set night=false locale=ar|restore"},
		{name: "a failed pass and a refused put-back", phone: recordingPhone{failScreen: 1, failRestore: true},
			wantCalls: "set font=2|restore", wantErr: "the phone went away; and the display was not put back: device offline"},
		{name: "a cancelled call", cancelled: true, wantCalls: "restore", wantErr: "set fontScale=2: context canceled", wantRestored: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if c.cancelled {
				cancel()
			}
			p := c.phone
			p.screen = screen
			res, err := DynamicOnPhone(ctx, &p, screen, nil, c.was, nil)
			if got := strings.Join(p.calls, "|"); got != c.wantCalls {
				t.Errorf("display calls %q, want %q", got, c.wantCalls)
			}
			if c.wantErr == "" && err != nil || c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)) {
				t.Errorf("error %v, want %q", err, c.wantErr)
			}
			if len(res.Skipped) != c.wantSkipped {
				t.Errorf("skipped %q, want %d", res.Skipped, c.wantSkipped)
			}
			if res.Restored != c.wantRestored || res.Restored != (res.RestoreError == "") {
				t.Errorf("restored %v (%q), want %v", res.Restored, res.RestoreError, c.wantRestored)
			}
		})
	}
}
