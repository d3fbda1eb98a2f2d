package app

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fixthis/app/device"
	"fixthis/app/display"
	"fixthis/internal/eventually"
	"fixthis/internal/fulldisk"
)

// simNight is what the simulated phone says its night mode is.
func (e *testEnv) simNight() string {
	e.t.Helper()
	res, err := e.client.Device(e.sim.Serial()).Shell(context.Background(), "cmd uimode night")
	if err != nil {
		e.t.Fatal(err)
	}
	return strings.TrimSpace(string(res.Stdout))
}

// The panel's API: ranges are refused with the range, a change is saved with the
// screen, and deselecting the phone puts its settings back.
func TestDisplayAPI(t *testing.T) {
	env := newTestEnv(t)
	var got DisplaySettings
	env.mustJSON("GET", "/api/display", nil, &got)
	if got.State.Night || got.State.Density != 420 || got.MinDensity != 315 || got.MaxDensity != 630 || !got.State.LocaleSupported ||
		got.State.Package != "com.fixthis.demo" {
		t.Fatalf("GET /api/display: %+v", got)
	}
	for _, c := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"fontScale": 3}, "fontScale 3 is out of range: want 0.85 to 2"},
		{map[string]any{"density": 100}, "density 100 is out of range: want 315 to 630"},
		{map[string]any{"locale": "not a tag"}, "is not a BCP 47 language tag"},
		{map[string]any{"locale": "en-US; reboot"}, "is not a BCP 47 language tag"},
		{map[string]any{"locale": "$(reboot)"}, "is not a BCP 47 language tag"},
		{map[string]any{"locale": "en-" + strings.Repeat("abcde-", 150_000) + "abcde"}, "is too long for a language tag: at most 35 characters"},
		{map[string]any{}, "name at least one of"},
	} {
		r := env.do("PUT", "/api/display", c.body, nil)
		if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), c.want) || len(r.Body) > 400 {
			t.Errorf("PUT %.60v: %d %.300s (%d bytes)", c.body, r.Status, r.Body, len(r.Body))
		}
	}
	sse := env.subscribe()
	env.mustJSON("PUT", "/api/display", map[string]any{"night": true, "fontScale": 1.3, "locale": "ar"}, &got)
	if got.Conditions != "night, fontScale=1.3, locale=ar" || !got.State.Changed {
		t.Fatalf("after PUT: %+v", got)
	}
	// Every console showing the phone is told, so another tab's panel reads them again.
	changed := func(ev sseEvent) bool { return strings.Contains(string(ev.Data), `"serial":"`+env.sim.Serial()+`"`) }
	sse.next(5*time.Second, "display-changed", changed)

	// A screen saved now records the conditions it was drawn under.
	sessionID := env.createSession("Dark")
	_, res, _ := env.saveDrafts(sessionID)
	sc, err := env.store.GetScreen(context.Background(), sessionID, res.ScreenID)
	if err != nil {
		t.Fatal(err)
	}
	if line := sc.Display.Conditions.Line(); line != "night, fontScale=1.3, locale=ar" {
		t.Fatalf("saved screen conditions %q", line)
	}

	env.mustJSON("POST", "/api/device/disconnect", map[string]any{}, nil)
	if n := env.simNight(); n != "Night mode: no" {
		t.Fatalf("after deselect: %s", n)
	}
	sse.next(5*time.Second, "display-changed", changed) // the restore on deselect
	if env.app.displays.Changed(env.sim.Serial()) {
		t.Fatal("originals still kept after deselect")
	}
}

// A refusal says what the phone said: the demo phone has no app com.not.there.
func TestDisplayRefusalIsAClearError(t *testing.T) {
	env := newTestEnv(t)
	tg, err := env.app.feedback.DisplayTarget(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	tg.Package = "com.not.there"
	// The other settings still read; the language control says what the phone said.
	st, err := env.app.displays.Read(context.Background(), tg)
	if err != nil || st.LocaleSupported || !strings.Contains(st.LocaleReason, "Unknown package com.not.there") {
		t.Fatalf("read with a missing app: %+v %v", st, err)
	}
	ar := "ar"
	_, err = env.app.displays.Set(context.Background(), tg, display.Change{Locale: &ar})
	// Nothing was changed and the app has no languages to set: the request's fault (422), not the phone's (502).
	if err == nil || !strings.Contains(err.Error(), "INVALID_INPUT: com.not.there has no per-app languages") || !strings.Contains(err.Error(), "Unknown package com.not.there") {
		t.Fatalf("language for a missing app: %v", err)
	}
	r := env.do("GET", "/api/display?serial=nope", nil, nil)
	if r.Status == http.StatusOK {
		t.Fatalf("unknown serial: %d %s", r.Status, r.Body)
	}
}

// A second app on the same project and phone: what it changed goes back when it
// quits (its context ends, as SIGTERM ends it); what a run that crashed left is put
// back by the next run as soon as the phone is online.
func TestDisplayRestoredOnQuitAndAfterACrash(t *testing.T) {
	env := newTestEnv(t)
	start := func() (*App, *httptest.Server, context.CancelFunc) {
		a := New(Options{Version: "test", ProjectDir: env.projectDir, Mode: ModeServe, ADB: env.client, Store: env.store,
			Demo: device.DemoOff, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), KeepAliveEvery: time.Second})
		ctx, cancel := context.WithCancel(context.Background())
		a.Run(ctx)
		srv := httptest.NewServer(a.APIHandler())
		t.Cleanup(func() { a.Shutdown(); cancel(); srv.Close(); a.Wait() })
		eventually.True(t, 10*time.Second, "the phone online in the second app", func() bool { return a.device.Registry.IsOnline(env.sim.Serial()) })
		return a, srv, cancel
	}
	put := func(srv *httptest.Server) {
		req, _ := http.NewRequest("PUT", srv.URL+"/api/display", strings.NewReader(`{"night":true}`))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("PUT /api/display: %v %v", resp, err)
		}
		resp.Body.Close()
	}

	a, srv, cancel := start()
	put(srv)
	if env.simNight() != "Night mode: yes" {
		t.Fatal("night mode did not change")
	}
	cancel()
	a.Wait()
	if n := env.simNight(); n != "Night mode: no" {
		t.Fatalf("after quitting: %s", n)
	}

	// A crash: the change is made through the first app's manager and the file is
	// left behind; the third app finds it at start.
	tg, err := env.app.feedback.DisplayTarget(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	night := true
	if _, err := env.app.displays.Set(context.Background(), tg, displayChange(&night)); err != nil {
		t.Fatal(err)
	}
	start()
	eventually.True(t, 10*time.Second, "the next start to restore night mode", func() bool { return env.simNight() == "Night mode: no" })
}

func displayChange(night *bool) display.Change { return display.Change{Night: night} }

// PUT /api/display on a full disk: 507 with what to do and no absolute path, the
// phone left as it was, no temporary file behind.
func TestDisplayOnAFullDiskIs507(t *testing.T) {
	env := newTestEnv(t)
	disk := fulldisk.Mount(t, ".fixthis")
	// The originals file on the full disk; the store stays where it is.
	m, err := display.Open(filepath.Join(disk, ".fixthis", "display-originals.json"))
	if err != nil {
		t.Fatal(err)
	}
	env.app.displays = m
	env.srv.Config.Handler = env.app.APIHandler() // the routes take the manager when built
	r := env.do("PUT", "/api/display", map[string]any{"night": true}, nil)
	if r.Status != http.StatusInsufficientStorage || !strings.Contains(string(r.Body), "storage_full") ||
		!strings.Contains(string(r.Body), "free some space") || strings.Contains(string(r.Body), disk) {
		t.Fatalf("PUT /api/display on a full disk: %d %s", r.Status, r.Body)
	}
	if night := env.simNight(); night != "Night mode: no" {
		t.Fatalf("the phone changed although its originals were not saved: %s", night)
	}
	if left, _ := os.ReadDir(filepath.Join(disk, ".fixthis")); len(left) != 0 {
		t.Fatalf("left on the full disk: %v", left)
	}
}
