package app

import (
	"bytes"
	"context"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"fixthis/app/store"
)

// The console's Check sizes: the route runs the check on the selected phone,
// answers with the item and its stored check, serves each size's pictures, and the
// phone reads `wm size` / `wm density` as before.
func TestCheckSizesRoute(t *testing.T) {
	env := newTestEnv(t)
	ctx := context.Background()
	wm := func() string {
		res, err := env.client.Device(env.sim.Serial()).Shell(ctx, "wm size; wm density")
		if err != nil {
			t.Fatal(err)
		}
		return string(res.Stdout)
	}
	before := wm()
	sessionID := env.createSession("Sizes")
	// The console sends the node's snapshot with a node item (hittest.ts).
	fr := env.freeze()
	batch := nodeAndAreaBatch(t, sessionID, fr)
	batch["items"].([]map[string]any)[0]["target"].(map[string]any)["snapshot"] = map[string]string{
		"class": fr.node(t, "trail_card_1").Class, "testTag": "trail_card_1"}
	var saved batchResponse
	env.mustJSON("POST", "/api/items/batch", batch, &saved)
	card, area := saved.Items[0], saved.Items[1]

	var doc struct {
		Item store.Item `json:"item"`
	}
	env.mustJSON("POST", "/api/items/"+card.ItemID+"/check-sizes", map[string]string{"sessionId": sessionID}, &doc)
	sz := doc.Item.Sizes
	if sz == nil || len(sz.Sizes) != 3 || !sz.Restored {
		t.Fatalf("check: %+v", sz)
	}
	for _, s := range sz.Sizes {
		if !s.Found || s.ImageURL == "" || s.CropURL == "" || s.Error != "" {
			t.Errorf("%s: %+v", s.Name, s)
		}
	}
	if tab := sz.Sizes[2]; tab.Name != "tablet" || tab.WidthDp < 1280 || tab.Width <= sz.Sizes[0].Width {
		t.Errorf("the tablet should be the wide one: %+v", sz.Sizes)
	}
	if got := wm(); got != before {
		t.Errorf("after the check: %q, want %q", got, before)
	}
	for _, u := range []string{sz.Sizes[2].ImageURL, sz.Sizes[0].CropURL} {
		r := env.do("GET", u, nil, nil)
		img, err := png.Decode(bytes.NewReader(r.Body))
		if r.Status != http.StatusOK || err != nil || img.Bounds().Empty() {
			t.Errorf("GET %s: %d %v", u, r.Status, err)
		}
	}

	for _, c := range []struct {
		method, path string
		body         any
		status       int
		want         string
	}{
		{"POST", "/api/items/" + area.ItemID + "/check-sizes", map[string]string{"sessionId": sessionID}, http.StatusUnprocessableEntity, "not a node"},
		{"POST", "/api/items/nope/check-sizes", map[string]string{"sessionId": sessionID}, http.StatusNotFound, "no item"},
		{"POST", "/api/items/" + card.ItemID + "/check-sizes", map[string]any{"sessionId": 5}, http.StatusBadRequest, "sessionId"},
		{"GET", "/api/items/" + card.ItemID + "/sizes/7/image", nil, http.StatusNotFound, "check it on sizes first"},
		{"GET", "/api/items/" + card.ItemID + "/sizes/" + strings.Repeat("9", 40) + "/image", nil, http.StatusBadRequest, "not a size's number"},
		{"GET", "/api/items/" + card.ItemID + "/sizes/0/nodes", nil, http.StatusUnprocessableEntity, "image or crop"},
		{"GET", "/api/items/" + area.ItemID + "/sizes/0/image", nil, http.StatusNotFound, "check it on sizes first"},
	} {
		r := env.do(c.method, c.path, c.body, nil)
		if r.Status != c.status || !strings.Contains(string(r.Body), c.want) || len(r.Body) > 400 {
			t.Errorf("%s %s: %d %.300s", c.method, c.path, r.Status, r.Body)
		}
	}

	// With the phone showing another app, the check is refused before any size
	// changes.
	if _, err := env.client.Device(env.sim.Serial()).Shell(ctx, "input keyevent KEYCODE_HOME"); err != nil {
		t.Fatal(err)
	}
	r := env.do("POST", "/api/items/"+card.ItemID+"/check-sizes", map[string]string{"sessionId": sessionID}, nil)
	if r.Status != http.StatusConflict || !strings.Contains(string(r.Body), "but the item was written on") {
		t.Errorf("with the launcher in front: %d %s", r.Status, r.Body)
	}
	if got := wm(); got != before {
		t.Errorf("after the refusal: %q, want %q", got, before)
	}
}
