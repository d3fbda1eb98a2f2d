package display_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixthis/adb"
	"fixthis/adb/adbtest"
	"fixthis/app/display"
	"fixthis/app/errcode"
	"fixthis/capture"
	"fixthis/sim"
)

const demoPkg = "com.fixthis.demo"

type phone struct {
	adbtest.Phone
	h adb.Handle
}

func startPhone(t *testing.T) phone {
	t.Helper()
	p := adbtest.StartPhone(t, sim.Options{Logf: adbtest.Quiet, LatencyScale: 0})
	return phone{p, p.Client.Device(p.Serial())}
}

func (p phone) target() display.Target {
	return display.Target{Shell: p.h, Serial: p.Serial(), Package: demoPkg}
}

func (p phone) frame(t *testing.T) *image.NRGBA {
	t.Helper()
	img, err := capture.CaptureFrame(context.Background(), p.h, "")
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func (p phone) nodes(t *testing.T) map[string]capture.Node {
	t.Helper()
	h, err := capture.DumpTree(context.Background(), p.h)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]capture.Node{}
	for _, n := range h.Nodes {
		if n.TestTag != "" {
			out[n.TestTag] = n
		}
	}
	return out
}

func luminance(img *image.NRGBA) float64 {
	var sum float64
	for i := 0; i < len(img.Pix); i += 4 {
		sum += 0.2126*float64(img.Pix[i]) + 0.7152*float64(img.Pix[i+1]) + 0.0722*float64(img.Pix[i+2])
	}
	return sum / float64(len(img.Pix)/4)
}

func fingerprint(img *image.NRGBA) [32]byte { return sha256.Sum256(img.Pix) }

func open(t *testing.T, path string) *display.Manager {
	t.Helper()
	m, err := display.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func set(t *testing.T, m *display.Manager, tg display.Target, c display.Change) display.State {
	t.Helper()
	st, err := m.Set(context.Background(), tg, c)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func ptr[T any](v T) *T { return &v }

func TestDarkLowersLuminanceAndRestoreGivesTheFirstFrameBack(t *testing.T) {
	p := startPhone(t)
	path := filepath.Join(t.TempDir(), "display-originals.json")
	m := open(t, path)
	first := p.frame(t)
	st := set(t, m, p.target(), display.Change{Night: ptr(true)})
	if !st.Night || !st.Changed {
		t.Fatalf("state after night: %+v", st)
	}
	dark := p.frame(t)
	if l0, l1 := luminance(first), luminance(dark); l1 >= l0*0.6 {
		t.Fatalf("mean luminance %.1f in night mode, %.1f before: want it much lower", l1, l0)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("originals file: %v %v", fi, err)
	}
	set(t, m, p.target(), display.Change{FontScale: ptr(1.3), Density: ptr(360), Locale: ptr("ar"), AnimationScale: ptr(5.0)})
	if ok, err := m.Restore(context.Background(), p.target()); !ok || err != nil {
		t.Fatalf("restore: %v %v", ok, err)
	}
	if fingerprint(p.frame(t)) != fingerprint(first) {
		t.Fatal("the frame after restore differs from the first")
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("originals file after restore: %v", err)
	}
	st, err := m.Read(context.Background(), p.target())
	if err != nil || st.Night || st.FontScale != 1 || st.Density != 420 || st.Locale != "" || st.AnimationScale != 1 || st.Changed {
		t.Fatalf("state after restore: %+v %v", st, err)
	}
	// The animation scales were never written: restore deletes them again.
	res, _ := p.h.Shell(context.Background(), "settings get global animator_duration_scale")
	if strings.TrimSpace(string(res.Stdout)) != "null" {
		t.Fatalf("animator_duration_scale after restore: %q", res.Stdout)
	}
}

func TestFontScaleGrowsText(t *testing.T) {
	p := startPhone(t)
	m := open(t, filepath.Join(t.TempDir(), "d.json"))
	before := p.nodes(t)["screen_title"].Bounds
	set(t, m, p.target(), display.Change{FontScale: ptr(1.3)})
	after := p.nodes(t)["screen_title"].Bounds
	h0, h1 := before.Bottom-before.Top, after.Bottom-after.Top
	if h0 <= 0 || float64(h1) < float64(h0)*1.2 {
		t.Fatalf("screen_title height %d at 1.0, %d at 1.3: want ≥ 20 %% taller", h0, h1)
	}
}

func TestArabicMirrorsARow(t *testing.T) {
	p := startPhone(t)
	m := open(t, filepath.Join(t.TempDir(), "d.json"))
	n := p.nodes(t)
	if n["filter_all"].Bounds.Left >= n["filter_saved"].Bounds.Left {
		t.Fatal("left to right, All should come before Saved")
	}
	st := set(t, m, p.target(), display.Change{Locale: ptr("ar")})
	if st.Locale != "ar" {
		t.Fatalf("locale %q", st.Locale)
	}
	n = p.nodes(t)
	all, saved := n["filter_all"].Bounds, n["filter_saved"].Bounds
	if all.Left <= saved.Left {
		t.Fatalf("right to left, All (%+v) should be right of Saved (%+v)", all, saved)
	}
	w := 1080
	if all.Right < w-w/10 {
		t.Fatalf("All should start at the right edge: %+v", all)
	}
}

func TestDensityChangesPixels(t *testing.T) {
	p := startPhone(t)
	m := open(t, filepath.Join(t.TempDir(), "d.json"))
	before := p.nodes(t)["account_avatar"].Bounds
	st := set(t, m, p.target(), display.Change{Density: ptr(315)})
	if st.Density != 315 || st.PhysicalDensity != 420 {
		t.Fatalf("state %+v", st)
	}
	after := p.nodes(t)["account_avatar"].Bounds
	if w0, w1 := before.Right-before.Left, after.Right-after.Left; w1*420 > w0*315+420 || w1*420 < w0*315-420 {
		t.Fatalf("a 40 dp avatar is %d px at 420 dpi and %d px at 315", w0, w1)
	}
	res, _ := p.h.Shell(context.Background(), "wm density")
	if string(res.Stdout) != "Physical density: 420\nOverride density: 315\n" {
		t.Fatalf("wm density printed %q", res.Stdout)
	}
}

func TestACrashedRunIsRestoredByTheNext(t *testing.T) {
	p := startPhone(t)
	path := filepath.Join(t.TempDir(), "display-originals.json")
	first := p.frame(t)
	set(t, open(t, path), p.target(), display.Change{Night: ptr(true), FontScale: ptr(1.5)})
	// The first manager is dropped without restoring, as a kill -9 would.
	next := open(t, path)
	if got := next.Pending(); len(got) != 1 || got[0] != p.Serial() {
		t.Fatalf("pending after the crash: %v", got)
	}
	if ok, err := next.Restore(context.Background(), p.target()); !ok || err != nil {
		t.Fatalf("restore: %v %v", ok, err)
	}
	if fingerprint(p.frame(t)) != fingerprint(first) {
		t.Fatal("the frame after recovery differs from the first")
	}
}

func TestRefusalsSayWhatThePhoneSaid(t *testing.T) {
	p := startPhone(t)
	m := open(t, filepath.Join(t.TempDir(), "d.json"))
	tg := p.target()
	tg.Package = "com.not.installed"
	_, err := m.Set(context.Background(), tg, display.Change{Locale: ptr("ar")})
	// Nothing changed and the app has no languages to set: the request's fault (422), not the phone's.
	if errcode.Of(err) != errcode.InvalidInput || !strings.Contains(err.Error(), "com.not.installed has no per-app languages to set") ||
		!strings.Contains(err.Error(), "Unknown package com.not.installed") {
		t.Fatalf("locale for a missing app: %v", err)
	}
	_, err = m.Set(context.Background(), p.target(), display.Change{FontScale: ptr(3.0)})
	if errcode.Of(err) != errcode.OutOfRange || !strings.Contains(err.Error(), "want 0.85 to 2") {
		t.Fatalf("font scale 3: %v", err)
	}
	old := p.target()
	old.SDK = 31
	_, err = m.Set(context.Background(), old, display.Change{Locale: ptr("ar")})
	if errcode.Of(err) != errcode.InvalidInput || !strings.Contains(err.Error(), "Android 13") {
		t.Fatalf("locale on API 31: %v", err)
	}
	st, err := m.Read(context.Background(), old)
	if err != nil || st.LocaleSupported || !strings.Contains(st.LocaleReason, "API 31") {
		t.Fatalf("read on API 31: %+v %v", st, err)
	}
	if m.Changed(p.Serial()) {
		t.Fatal("refused changes saved originals")
	}
}
