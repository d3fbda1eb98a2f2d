package agentdevice

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"sync"
	"testing"
	"time"

	"fixthis/adb/adbtest"
	"fixthis/app/display"
	"fixthis/app/errcode"
	"fixthis/app/store"
	"fixthis/capture"
	"fixthis/sim"
)

var quietDemo = sim.Options{Scenario: "demo", LatencyScale: 0, Logf: adbtest.Quiet}

// sizesEnv is a phone agents may control, with the display originals in a temp
// file, and a session holding two items: the New trail button (on every size) and
// the detail pane's title (only where the pane shows, from 600 dp).
type sizesEnv struct {
	simEnv
	p                  *Phone
	m                  *display.Manager
	session, fab, pane string
}

func newSizesEnv(t testing.TB, o sim.Options) sizesEnv {
	t.Helper()
	e := newSimEnvWith(t, o)
	ctx := context.Background()
	p, m := e.displayPhone(t)
	e.allowControl(t)
	sess, err := e.st.CreateSession(ctx, "sizes")
	if err != nil {
		t.Fatal(err)
	}
	// Each item is saved on the screen it was written on: the button on the
	// phone, the pane's title on the tablet.
	save := func(frozen, tag string, w, h int, bounds store.Bounds) string {
		var b bytes.Buffer
		_ = png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, w, h)))
		saved, err := e.st.SaveBatch(ctx, store.SaveBatchInput{SessionID: sess.SessionID, FrozenID: frozen, WorkspaceID: "ws", IfMatch: "*",
			Screen: store.ScreenInput{Fingerprint: "a:" + frozen, Width: w, Height: h, ImagePNG: b.Bytes(), NodesJSON: []byte("[]")},
			Items: []store.BatchItem{{DraftItemID: frozen, Comment: "check " + tag, Target: store.Target{Type: "node", NodeUID: frozen,
				Bounds: &bounds, Snapshot: &store.NodeSnapshot{Class: "android.view.View", TestTag: tag}}}}})
		if err != nil {
			t.Fatal(err)
		}
		return saved.Items[0].ItemID
	}
	fab := save("f1", "add_trail_fab", 1080, 2400, store.Bounds{Left: 700, Top: 2000, Right: 1040, Bottom: 2150})
	pane := save("f2", "pane_trail_title", 2032, 1270, store.Bounds{Left: 1200, Top: 600, Right: 1600, Bottom: 680})
	return sizesEnv{e, p, m, sess.SessionID, fab, pane}
}

func (e sizesEnv) wmSize(t testing.TB) string {
	t.Helper()
	r, err := e.client.Device(e.dev.Serial()).Shell(context.Background(), "wm size; wm density")
	if err != nil {
		t.Fatal(err)
	}
	return string(r.Stdout)
}

// A check shows the three reference sizes, finds the node where it exists (the
// detail pane only from 600 dp), keeps a capture per size and leaves `wm size`
// and `wm density` reading as before.
func TestCheckSizesFindsTheNodeOnEverySize(t *testing.T) {
	e := newSizesEnv(t, quietDemo)
	ctx := context.Background()
	before := e.wmSize(t)
	start := time.Now()
	res, err := e.p.CheckSizes(ctx, "", e.session, e.fab, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("three sizes checked in %v", time.Since(start).Round(time.Millisecond))
	if len(res.Sizes) != 3 || !res.Restored {
		t.Fatalf("result %+v", res)
	}
	for _, s := range res.Sizes {
		if !s.Found || s.Bounds == nil || s.CaptureID == "" || s.Clipped || s.Error != "" {
			t.Errorf("%s: %+v", s.Name, s)
		}
	}
	if res.Sizes[2].WidthDp < 1280 || res.Sizes[2].Width <= res.Sizes[0].Width {
		t.Errorf("the tablet should be wider: %+v", res.Sizes)
	}
	if got := e.wmSize(t); got != before {
		t.Errorf("after the check: %q, want %q", got, before)
	}
	// The check is stored on the item, with a picture and a crop per size.
	kept, err := e.st.ReadItem(ctx, e.session, e.fab)
	if err != nil || kept.Item.Sizes == nil || len(kept.Item.Sizes.Sizes) != 3 || !kept.Item.Sizes.Restored {
		t.Fatalf("stored check: %+v, %v", kept.Item.Sizes, err)
	}
	for i, s := range kept.Item.Sizes.Sizes {
		if s.ImageURL == "" || s.CropURL == "" || s.ImageURL != res.Sizes[i].ImageURL || s.CropURL != res.Sizes[i].CropURL {
			t.Errorf("%s: stored %+v, answered %+v", s.Name, s, res.Sizes[i])
		}
		key, err := e.st.SizePicture(ctx, e.fab, i, "crop")
		if err != nil {
			t.Fatal(err)
		}
		data, err := e.st.ReadArtifact(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		crop, err := png.Decode(bytes.NewReader(data))
		if b := s.Bounds; err != nil || crop.Bounds().Dx() > b.Right-b.Left+2*cropMargin || crop.Bounds().Dx() < b.Right-b.Left {
			t.Errorf("%s: crop %v for bounds %+v: %v", s.Name, crop.Bounds(), b, err)
		}
	}

	res, err = e.p.CheckSizes(ctx, "", e.session, e.pane, nil)
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, s := range res.Sizes {
		found[s.Name] = s.Found
	}
	if found["phone"] || !found["foldable"] || !found["tablet"] {
		t.Errorf("the detail pane's title: found %v, want only from 600 dp", found)
	}
	if res.Sizes[0].CropURL != "" || res.Sizes[0].ImageURL == "" {
		t.Errorf("no node on the phone: a whole screen and no crop, got %+v", res.Sizes[0])
	}

	// The user's own check from the console needs no leave for agents.
	if err := SetControl(ctx, e.st, e.dev.Serial(), false); err != nil {
		t.Fatal(err)
	}
	logged, err := e.st.DeviceActions(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	res, err = e.p.CheckSizesForUser(ctx, "", e.session, e.pane, []display.Preset{display.Presets[2]})
	if err != nil || len(res.Sizes) != 1 || !res.Sizes[0].Found {
		t.Fatalf("the user's check with agents not allowed: %+v, %v", res, err)
	}
	// It is the user's, so nothing of it goes in the agents' activity list.
	if after, _ := e.st.DeviceActions(ctx, logged[len(logged)-1].Seq); len(after) != 0 {
		t.Errorf("the user's check was logged as the agent's: %+v", after)
	}
	if got := e.wmSize(t); got != before {
		t.Errorf("after the user's check: %q, want %q", got, before)
	}
	if got := e.wmSize(t); got != before {
		t.Errorf("after the second check: %q, want %q", got, before)
	}
}

// Bad input is refused before the phone changes, a size the phone cannot show is
// reported on its own line, and two checks at once: the second is refused and the
// phone still ends as it was.
func TestCheckSizesRefusals(t *testing.T) {
	e := newSizesEnv(t, quietDemo)
	ctx := context.Background()
	before := e.wmSize(t)
	for _, c := range []struct {
		name    string
		item    string
		presets []display.Preset
		code    errcode.Code
	}{
		{"density 0 is not a density here", e.fab, []display.Preset{{Name: "custom", WidthDp: 500, HeightDp: 800, Density: -5}}, errcode.OutOfRange},
		{"no such item", "item_missing", nil, errcode.ItemNotFound},
		{"too many sizes", e.fab, make([]display.Preset, MaxCheckSizes+1), errcode.OutOfRange},
	} {
		if _, err := e.p.CheckSizes(ctx, "", e.session, c.item, c.presets); errcode.Of(err) != c.code {
			t.Errorf("%s: %v, want %s", c.name, err, c.code)
		}
	}
	res, err := e.p.CheckSizes(ctx, "", e.session, e.fab, []display.Preset{display.Presets[0], {Name: "custom", WidthDp: 4000, HeightDp: 4000, Density: 2000}})
	if err != nil || len(res.Sizes) != 2 || !res.Sizes[0].Found || res.Sizes[1].Error == "" {
		t.Fatalf("a size the phone cannot show: %+v %v", res, err)
	}

	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = e.p.CheckSizes(ctx, "", e.session, e.fab, []display.Preset{display.Presets[1]})
		}()
	}
	wg.Wait()
	refused := 0
	for _, err := range errs {
		if errcode.Of(err) == errcode.DisplayRefused {
			refused++
		} else if err != nil {
			t.Errorf("check: %v", err)
		}
	}
	if refused > 1 {
		t.Errorf("both checks refused: %v", errs)
	}
	if got := e.wmSize(t); got != before {
		t.Errorf("after the checks: %q, want %q", got, before)
	}
}

// A node is cut off when it pokes out of any ancestor, not only its parent.
func TestCutOff(t *testing.T) {
	b := func(l, t, r, bt int) capture.Bounds { return capture.Bounds{Left: l, Top: t, Right: r, Bottom: bt} }
	for _, c := range []struct {
		name  string
		nodes []capture.Node
		want  bool
	}{
		{"inside its parent", []capture.Node{{UID: "p", Bounds: b(0, 0, 100, 100)}, {UID: "n", ParentUID: "p", Bounds: b(10, 10, 50, 50)}}, false},
		{"wider than its parent", []capture.Node{{UID: "p", Bounds: b(0, 0, 100, 100)}, {UID: "n", ParentUID: "p", Bounds: b(10, 10, 150, 50)}}, true},
		{"out of its grandparent", []capture.Node{{UID: "g", Bounds: b(0, 0, 100, 100)}, {UID: "p", ParentUID: "g", Bounds: b(0, 0, 300, 100)},
			{UID: "n", ParentUID: "p", Bounds: b(150, 10, 200, 50)}}, true},
		{"an empty ancestor says nothing", []capture.Node{{UID: "p"}, {UID: "n", ParentUID: "p", Bounds: b(10, 10, 50, 50)}}, false},
		{"a parent loop ends", []capture.Node{{UID: "p", ParentUID: "n", Bounds: b(0, 0, 100, 100)}, {UID: "n", ParentUID: "p", Bounds: b(10, 10, 50, 50)}}, false},
	} {
		if got := cutOff(c.nodes, &c.nodes[len(c.nodes)-1]); got != c.want {
			t.Errorf("%s: cut off %v, want %v", c.name, got, c.want)
		}
	}
}
