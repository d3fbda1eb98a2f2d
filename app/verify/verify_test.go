package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"fixthis/app/store"
	"fixthis/capture"
)

// screenPNG draws a 200×400 screen with a striped button at box, so that the
// perceptual hash of the region changes when the stripes change.
func screenPNG(t *testing.T, box image.Rectangle, stripe int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 200, 400))
	for y := 0; y < 400; y++ {
		for x := 0; x < 200; x++ {
			c := color.NRGBA{240, 240, 240, 255}
			if (image.Point{x, y}).In(box) {
				c = color.NRGBA{20, 20, 20, 255}
				if (x/stripe)%2 == 0 {
					c = color.NRGBA{250, 200, 0, 255}
				}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestCompute(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, t.TempDir(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sess, err := st.CreateSession(ctx, "verify")
	if err != nil {
		t.Fatal(err)
	}
	box := image.Rect(20, 100, 180, 160)
	saved, err := st.SaveBatch(ctx, store.SaveBatchInput{SessionID: sess.SessionID, FrozenID: "f1", WorkspaceID: "ws",
		Screen: store.ScreenInput{Fingerprint: "a:b", Width: 200, Height: 400, ImagePNG: screenPNG(t, box, 40), NodesJSON: []byte("[]")},
		Items: []store.BatchItem{{DraftItemID: "d1", Comment: "Say Save trail", Target: store.Target{Type: "node", NodeUID: "n1",
			Bounds:   &store.Bounds{Left: 20, Top: 100, Right: 180, Bottom: 160},
			Snapshot: &store.NodeSnapshot{Class: "android.widget.Button", Text: "Save", ResourceID: "app:id/save"}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	it := saved.Items[0]
	capt := func(pngData []byte, nodes []capture.Node) string {
		nj, _ := json.Marshal(nodes)
		c, err := st.SaveCapture(ctx, store.CaptureInput{Serial: "emu", Fingerprint: "c:d", Width: 200, Height: 400, PNG: pngData, NodesJSON: nj})
		if err != nil {
			t.Fatal(err)
		}
		return c.CaptureID
	}
	moved := capture.Bounds{Left: 20, Top: 200, Right: 180, Bottom: 260}
	tests := []struct {
		name      string
		capture   string
		changed   bool
		node      string // want in the summary
		found     bool
		matchedBy string
	}{
		{"same screen", capt(screenPNG(t, box, 40), []capture.Node{{UID: "x", ResourceID: "app:id/save", Text: "Save",
			Bounds: capture.Bounds{Left: 20, Top: 100, Right: 180, Bottom: 160}}}), false, "no visible change", true, "resourceId"},
		{"new label, moved", capt(screenPNG(t, image.Rect(20, 200, 180, 260), 7), []capture.Node{{UID: "x", ResourceID: "app:id/save",
			Text: "Save trail", Bounds: moved}}), true, `text "Save" → "Save trail"; now at (20,200)-(180,260)`, true, "resourceId"},
		// capture.FindNode's order: a renamed id falls back to the label, as read_feedback's
		// orphan check does.
		{"id renamed, label kept", capt(screenPNG(t, box, 40), []capture.Node{{UID: "x", ResourceID: "app:id/save_trail", Text: "Save",
			Bounds: capture.Bounds{Left: 20, Top: 100, Right: 180, Bottom: 160}}}), false, "no visible change", true, "text"},
		{"node gone", capt(screenPNG(t, image.Rect(0, 0, 0, 0), 40), nil), true, "the node is not on the new screen", false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Compute(ctx, st, it, tc.capture)
			if err != nil {
				t.Fatal(err)
			}
			if (v.RegionChange >= 0.05) != tc.changed || !strings.Contains(v.Summary, tc.node) {
				t.Fatalf("change %.2f, summary %q", v.RegionChange, v.Summary)
			}
			if v.Node == nil || v.Node.Found != tc.found || v.Node.MatchedBy != tc.matchedBy {
				t.Fatalf("node %+v", v.Node)
			}
		})
	}
	if _, err := Compute(ctx, st, it, "c-missing"); err == nil {
		t.Fatal("an unknown capture was accepted")
	}
}
