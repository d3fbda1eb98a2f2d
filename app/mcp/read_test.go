package mcp

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/png"
	"strings"
	"testing"

	"fixthis/app/agentdevice"
	"fixthis/app/errcode"
	"fixthis/app/store"
	"fixthis/capture"
	"fixthis/sim/scenario"
)

func TestReadFeedback(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	c := newClient(t, Deps{Store: s, Prompt: listPrompter{}})

	res := call(t, c, "fixthis_read_feedback", nil, nil)
	if !res.IsError || !strings.HasPrefix(text(res), "NO_ACTIVE_SESSION: ") {
		t.Fatalf("empty store: %q", text(res))
	}
	sess, items := seed(t, s, 2)
	if _, err := s.ReleaseToAgent(ctx, sess.SessionID, []string{items[0].ItemID}); err != nil {
		t.Fatal(err)
	}

	var one readOut
	res = call(t, c, "fixthis_read_feedback", map[string]any{"itemId": items[0].ItemID}, &one)
	if one.Item == nil || one.Item.ItemID != items[0].ItemID || !one.CropShown || len(one.Screens) != 1 || !one.Screens[0].ImageAttached {
		t.Fatalf("item read %+v", one)
	}
	if one.Item.Check != "touch_target" {
		t.Fatalf("the item added from a finding reads back check %q", one.Item.Check)
	}
	if !strings.Contains(one.Prompt, "items: "+items[0].ItemID) {
		t.Fatalf("prompt %q", one.Prompt)
	}
	if imgs := images(res); len(imgs) != 2 {
		t.Fatalf("%d images, want screen + crop", len(imgs))
	}
	if one.Item.Sizes != nil {
		t.Fatalf("an item never checked on sizes reads sizes %+v", one.Item.Sizes)
	}

	// After a check on sizes, the item carries it: per size, found or not, and
	// where its pictures are.
	if _, err := s.SaveSizeCheck(ctx, store.SizeCheckInput{ItemID: items[0].ItemID, Serial: "emulator-5554", Restored: true,
		Sizes: []store.SizeOutcomeInput{{SizeOutcome: store.SizeOutcome{Name: "tablet", Width: 2560, Height: 1600, Density: 320,
			WidthDp: 1280, HeightDp: 800, Found: true, Bounds: &store.Bounds{Right: 100, Bottom: 100}}, PNG: []byte("png"), CropPNG: []byte("crop")}}}); err != nil {
		t.Fatal(err)
	}
	one = readOut{}
	call(t, c, "fixthis_read_feedback", map[string]any{"itemId": items[0].ItemID}, &one)
	if sz := one.Item.Sizes; sz == nil || len(sz.Sizes) != 1 || !sz.Sizes[0].Found || sz.Sizes[0].WidthDp != 1280 ||
		sz.Sizes[0].CropURL == "" || !strings.HasPrefix(sz.Sizes[0].Path, ".fixthis") {
		t.Fatalf("the checked item's sizes: %+v", one.Item.Sizes)
	}

	var all readOut
	res = call(t, c, "fixthis_read_feedback", nil, &all)
	if all.SessionID != sess.SessionID || len(all.Items) != 1 || len(images(res)) != 1 {
		t.Fatalf("latest session read %+v with %d images", all, len(images(res)))
	}

	res = call(t, c, "fixthis_read_feedback", map[string]any{"sessionId": sess.SessionID, "itemId": "nope"}, nil)
	if !res.IsError || !strings.HasPrefix(text(res), "ITEM_NOT_FOUND: ") {
		t.Fatalf("missing item: %q", text(res))
	}
}

type screenDevice struct {
	png []byte
	err error
}

func (d screenDevice) Capture(_ context.Context, serial string) (*agentdevice.Capture, error) {
	if d.err != nil {
		return nil, d.err
	}
	return &agentdevice.Capture{CaptureID: "c-1", Serial: serial, Package: "com.example", Activity: ".Main", Width: 2000, Height: 4000, PNG: d.png,
		Tree: "Button \"Sign in\" tag=sign_in", Display: capture.Display{Orientation: "PORTRAIT", Secure: true, IMEVisible: true,
			Windows: []capture.Window{{Title: "InputMethod", Type: capture.WindowIME, Visible: true, Bounds: capture.Bounds{Top: 3000, Right: 2000, Bottom: 4000}}}}}, nil
}

func (d screenDevice) Act(_ context.Context, serial string, a agentdevice.Action) (*agentdevice.ActionResult, error) {
	return nil, d.err
}

func (d screenDevice) WaitForScreen(_ context.Context, serial string, c agentdevice.ScreenCondition) (*agentdevice.WaitResult, error) {
	return nil, d.err
}

func TestCaptureScreen(t *testing.T) {
	s := openStore(t, t.TempDir())
	res := call(t, newClient(t, Deps{Store: s}), "fixthis_capture_screen", nil, nil)
	if !res.IsError || !strings.Contains(text(res), "no device layer in this process") {
		t.Fatalf("sidecar capture: %q", text(res))
	}
	res = call(t, newClient(t, Deps{Store: s, Device: screenDevice{err: errcode.New(errcode.DeviceNotAvailable, "no device connected")}}), "fixthis_capture_screen", nil, nil)
	if !res.IsError || !strings.Contains(text(res), "no device connected") {
		t.Fatalf("failed capture: %q", text(res))
	}
	var out captureOut
	res = call(t, newClient(t, Deps{Store: s, Device: screenDevice{png: testPNG(t, 2000, 4000)}}), "fixthis_capture_screen",
		map[string]any{"serial": "emulator-1"}, &out)
	imgs := images(res)
	if out.Serial != "emulator-1" || out.CaptureID != "c-1" || out.Tree == "" || len(imgs) != 1 || !out.Secure || !out.IMEVisible ||
		len(out.Windows) != 1 || out.Windows[0].Type != capture.WindowIME || out.Orientation != "PORTRAIT" {
		t.Fatalf("capture %+v, %d images", out, len(imgs))
	}
	raw, _ := base64.StdEncoding.DecodeString(imgs[0].Data)
	cfg, _, err := image.DecodeConfig(strings.NewReader(string(raw)))
	if err != nil || cfg.Width > maxImageEdge || cfg.Height > maxImageEdge || len(raw) > maxImageBytes {
		t.Fatalf("sent %dx%d, %d bytes (%v)", cfg.Width, cfg.Height, len(raw), err)
	}
}

func TestFitImage(t *testing.T) {
	cases := []struct {
		name string
		w, h int
	}{
		{"small stays", 300, 600},
		{"tall phone frame", 1080, 2400},
		{"taller than the limit", 1600, 3400},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := testPNG(t, tc.w, tc.h)
			out, mime, err := fitImage(src)
			if err != nil {
				t.Fatal(err)
			}
			cfg, format, err := image.DecodeConfig(strings.NewReader(string(out)))
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Width > maxImageEdge || cfg.Height > maxImageEdge || len(out) > maxImageBytes || "image/"+format != mime {
				t.Fatalf("%dx%d %s, %d bytes", cfg.Width, cfg.Height, mime, len(out))
			}
			if tc.w <= maxImageEdge && tc.h <= maxImageEdge && len(src) <= maxImageBytes && len(out) != len(src) {
				t.Fatal("a fitting image was re-encoded")
			}
		})
	}
	if _, _, err := fitImage([]byte("not an image")); err == nil {
		t.Fatal("garbage accepted")
	}
}

// demoFrame is the simulated phone's demo app at 1080×2400, a realistic screen.
func demoFrame(tb testing.TB) *image.NRGBA {
	tb.Helper()
	sc, err := scenario.Load("demo")
	if err != nil {
		tb.Fatal(err)
	}
	f := sc.NewSession().Frame()
	return &image.NRGBA{Pix: f.Pix, Stride: f.Stride, Rect: f.Rect}
}

func TestFitFrameDemo(t *testing.T) {
	out, mime, err := fitFrame(demoFrame(t))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(out))
	if err != nil || mime != "image/png" {
		t.Fatalf("%s: %v", mime, err)
	}
	if got := img.Bounds().Size(); got != image.Pt(705, 1568) || len(out) > maxImageBytes {
		t.Fatalf("%v, %d bytes", got, len(out))
	}
}

// BenchmarkFitFrame is the screenshot part of fixthis_capture_screen: a 1080×2400
// frame scaled to the agent's limit and encoded.
func BenchmarkFitFrame(b *testing.B) {
	img := demoFrame(b)
	var n int
	for b.Loop() {
		out, _, err := fitFrame(img)
		if err != nil {
			b.Fatal(err)
		}
		n = len(out)
	}
	b.ReportMetric(float64(n), "bytes")
}
