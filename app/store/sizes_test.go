package store

import (
	"context"
	"os"
	"strings"
	"testing"

	"fixthis/app/errcode"
)

func threeSizes(t *testing.T, seed int) []SizeOutcomeInput {
	return []SizeOutcomeInput{
		{SizeOutcome: SizeOutcome{Name: "phone", Width: 1080, Height: 2340, Density: 420, WidthDp: 411, HeightDp: 891,
			Found: true, MatchedBy: "testTag", Bounds: &Bounds{Left: 10, Top: 20, Right: 110, Bottom: 80}},
			PNG: testPNG(t, seed), CropPNG: testPNG(t, seed+1)},
		{SizeOutcome: SizeOutcome{Name: "foldable", Width: 1767, Height: 2208, Density: 420, WidthDp: 673, HeightDp: 841,
			Found: true, MatchedBy: "testTag", Bounds: &Bounds{Left: 1700, Top: 20, Right: 1800, Bottom: 80},
			Clipped: true, CutOff: true, Overlapping: []string{`"Trails"`}}, PNG: testPNG(t, seed+2)},
		{SizeOutcome: SizeOutcome{Name: "tablet", Width: 2560, Height: 1600, Density: 320, WidthDp: 1280, HeightDp: 800},
			PNG: testPNG(t, seed+3)},
	}
}

func TestSizeCheckIsStoredAndReplaced(t *testing.T) {
	ctx := context.Background()
	s, sess, items := storeWithItems(t, 2)
	it := items[0]
	got, err := s.SaveSizeCheck(ctx, SizeCheckInput{ItemID: it.ItemID, Serial: "emulator-5554", Restored: true,
		Sizes: threeSizes(t, 10)})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Sizes) != 3 || got.Sizes[0].CropURL == "" || got.Sizes[1].CropURL != "" || got.Sizes[2].ImageURL == "" {
		t.Fatalf("saved: %+v", got)
	}

	back, err := s.GetSession(ctx, sess.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	sz := back.Items[0].Sizes
	if sz == nil || !sz.Restored || sz.Serial != "emulator-5554" || len(sz.Sizes) != 3 || back.Items[1].Sizes != nil {
		t.Fatalf("read back: %+v / %+v", sz, back.Items[1].Sizes)
	}
	fold := sz.Sizes[1]
	if fold.Name != "foldable" || fold.WidthDp != 673 || !fold.Found || !fold.Clipped || !fold.CutOff ||
		fold.Bounds == nil || fold.Bounds.Right != 1800 || len(fold.Overlapping) != 1 || fold.MatchedBy != "testTag" {
		t.Fatalf("foldable: %+v", fold)
	}
	if tab := sz.Sizes[2]; tab.Found || tab.Bounds != nil || tab.CropURL != "" || tab.Overlapping != nil {
		t.Fatalf("tablet: %+v", tab)
	}
	one, err := s.ReadItem(ctx, "", it.ItemID)
	if err != nil || one.Item.Sizes == nil || len(one.Item.Sizes.Sizes) != 3 {
		t.Fatalf("ReadItem: %+v, %v", one, err)
	}

	// The pictures are artifacts: 0600, served by key, and kept by the collector.
	for _, kind := range []string{"image", "crop"} {
		key, err := s.SizePicture(ctx, it.ItemID, 0, kind)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := s.ArtifactPath(key)
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o600 {
			t.Fatalf("%s file %s: %v %v", kind, p, st, err)
		}
	}
	if _, err := s.SizePicture(ctx, it.ItemID, 1, "crop"); errcode.Of(err) != errcode.ScreenshotNotFound {
		t.Fatalf("no crop on the foldable: %v", err)
	}
	if _, err := s.SizePicture(ctx, it.ItemID, 0, "../image"); errcode.Of(err) != errcode.InvalidInput {
		t.Fatalf("a bad kind: %v", err)
	}

	// A newer check replaces the older one: its rows, not a mix of both.
	again, err := s.SaveSizeCheck(ctx, SizeCheckInput{SessionID: sess.SessionID, ItemID: it.ItemID, Serial: "emulator-5556",
		Sizes: threeSizes(t, 20)[2:]})
	if err != nil || len(again.Sizes) != 1 {
		t.Fatalf("second check: %+v, %v", again, err)
	}
	if n := countRows(t, s, `SELECT COUNT(*) FROM size_check_sizes WHERE item_id = ?`, it.ItemID); n != 1 {
		t.Fatalf("%d sizes stored after the second check, want 1", n)
	}
	one, _ = s.ReadItem(ctx, sess.SessionID, it.ItemID)
	if c := one.Item.Sizes; c.Serial != "emulator-5556" || c.Restored || c.Sizes[0].Name != "tablet" {
		t.Fatalf("after the second check: %+v", c)
	}

	// The item's deletion takes its check with it.
	if _, err := s.wdb.Exec(`DELETE FROM items WHERE id = ?`, it.ItemID); err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, s, `SELECT COUNT(*) FROM size_check_sizes`); n != 0 {
		t.Fatalf("%d sizes left after the item went", n)
	}
}

func TestSizeCheckRefusesBadInput(t *testing.T) {
	ctx := context.Background()
	s, _, items := storeWithItems(t, 1)
	id := items[0].ItemID
	ok := func() SizeOutcome {
		return SizeOutcome{Name: "phone", Width: 1080, Height: 2340, Density: 420, WidthDp: 411, HeightDp: 891}
	}
	cases := map[string]func(in *SizeCheckInput){
		"no sizes":        func(in *SizeCheckInput) { in.Sizes = nil },
		"too many sizes":  func(in *SizeCheckInput) { in.Sizes = make([]SizeOutcomeInput, MaxSizeOutcomes+1) },
		"no name":         func(in *SizeCheckInput) { in.Sizes[0].Name = "" },
		"NUL in name":     func(in *SizeCheckInput) { in.Sizes[0].Name = "pho\x00ne" },
		"megabyte error":  func(in *SizeCheckInput) { in.Sizes[0].Error = strings.Repeat("x", 1<<20) },
		"bad UTF-8":       func(in *SizeCheckInput) { in.Sizes[0].MatchedBy = "\xff" },
		"negative width":  func(in *SizeCheckInput) { in.Sizes[0].Width = -1 },
		"huge density":    func(in *SizeCheckInput) { in.Sizes[0].Density = 1 << 30 },
		"found no bounds": func(in *SizeCheckInput) { in.Sizes[0].Found = true },
		"bounds not found": func(in *SizeCheckInput) {
			in.Sizes[0].Bounds = &Bounds{Right: 1, Bottom: 1}
		},
		"six overlapping": func(in *SizeCheckInput) { in.Sizes[0].Overlapping = []string{"a", "b", "c", "d", "e", "f"} },
		"NUL in serial":   func(in *SizeCheckInput) { in.Serial = "emu\x00" },
		"bad item id":     func(in *SizeCheckInput) { in.ItemID = "" },
	}
	for name, mutate := range cases {
		in := SizeCheckInput{ItemID: id, Serial: "emulator-5554", Sizes: []SizeOutcomeInput{{SizeOutcome: ok()}}}
		mutate(&in)
		_, err := s.SaveSizeCheck(ctx, in)
		if errcode.Of(err) != errcode.InvalidInput {
			t.Errorf("%s: err %v, want a validation error", name, err)
		}
		if err != nil && len(err.Error()) > 300 {
			t.Errorf("%s: the error quotes too much (%d bytes)", name, len(err.Error()))
		}
	}
	_, err := s.SaveSizeCheck(ctx, SizeCheckInput{ItemID: "i-missing", Serial: "e", Sizes: []SizeOutcomeInput{{SizeOutcome: ok()}}})
	if errcode.Of(err) != errcode.ItemNotFound {
		t.Fatalf("missing item: %v", err)
	}
	if n := countRows(t, s, `SELECT COUNT(*) FROM size_checks`); n != 0 {
		t.Fatalf("a refused check left %d rows", n)
	}
}

// TestSizeCheckMigration: a database from before migration 0012 gains the tables,
// and its items read as never checked.
func TestSizeCheckMigration(t *testing.T) {
	s, sess, _ := storeWithItems(t, 1)
	s = reopen(t, s, `DROP TABLE size_check_sizes; DROP TABLE size_checks; ALTER TABLE screens DROP COLUMN serial; PRAGMA user_version = 11`)
	back, err := s.GetSession(context.Background(), sess.SessionID)
	if err != nil || len(back.Items) != 1 || back.Items[0].Sizes != nil {
		t.Fatalf("old items: %+v, %v", back, err)
	}
	if n := countRows(t, s, `SELECT COUNT(*) FROM size_checks`); n != 0 {
		t.Fatalf("%d rows in a new table", n)
	}
}
