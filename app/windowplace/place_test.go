package windowplace

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func TestPlace(t *testing.T) {
	pref, min := Size{1440, 900}, Size{960, 640}
	tests := []struct {
		name  string
		work  Rect
		saved *Rect
		want  Rect
	}{
		{"large monitor: the preferred size, centred", Rect{0, 0, 1920, 1080}, nil, Rect{240, 90, 1440, 900}},
		{"1280x800 laptop: 90 % of it", Rect{0, 0, 1280, 800}, nil, Rect{64, 40, 1152, 720}},
		{"1366x768 with a 32 px top bar", Rect{0, 32, 1366, 736}, nil, Rect{68, 69, 1229, 662}},
		{"tiny screen: the minimum yields", Rect{0, 0, 800, 600}, nil, Rect{40, 30, 720, 540}},
		{"second monitor to the right", Rect{1920, 0, 1280, 800}, nil, Rect{1984, 40, 1152, 720}},
		{"saved place that fits stays", Rect{0, 0, 1920, 1080}, &Rect{100, 50, 1200, 800}, Rect{100, 50, 1200, 800}},
		{"saved on a bigger monitor shrinks and moves in", Rect{0, 0, 1280, 800}, &Rect{600, 300, 1700, 1000}, Rect{0, 0, 1280, 800}},
		{"saved off screen moves back", Rect{0, 0, 1920, 1080}, &Rect{-500, 2000, 1000, 700}, Rect{0, 380, 1000, 700}},
		{"saved smaller than the minimum grows to it", Rect{0, 0, 1920, 1080}, &Rect{10, 10, 300, 200}, Rect{10, 10, 960, 640}},
		{"no work area: the preferred size", Rect{}, nil, Rect{0, 0, 1440, 900}},
	}
	for _, tt := range tests {
		got := Place(tt.work, pref, min, tt.saved)
		if got != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
		}
		if tt.work.Width > 0 && (got.X < tt.work.X || got.Y < tt.work.Y ||
			got.X+got.Width > tt.work.X+tt.work.Width || got.Y+got.Height > tt.work.Y+tt.work.Height) {
			t.Errorf("%s: %+v leaves the work area %+v", tt.name, got, tt.work)
		}
	}
}

func TestMinFor(t *testing.T) {
	if got := MinFor(Rect{0, 0, 800, 600}, Size{960, 640}); got != (Size{800, 600}) {
		t.Errorf("small screen: %+v", got)
	}
	if got := MinFor(Rect{0, 0, 1920, 1080}, Size{960, 640}); got != (Size{960, 640}) {
		t.Errorf("large screen: %+v", got)
	}
}

func TestSaveLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cfg", "window.json")
	if Load(path) != nil {
		t.Fatal("a missing file loads as a place")
	}
	want := Rect{12, 34, 1000, 700}
	if err := Save(path, want); err != nil {
		t.Fatal(err)
	}
	if got := Load(path); got == nil || *got != want {
		t.Fatalf("loaded %+v, want %+v", got, want)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	if err := Save(path, Rect{}); err == nil {
		t.Error("an empty size was saved")
	}
	for _, bad := range []string{"", "{", `{"width":0,"height":5}`, "null"} {
		os.WriteFile(path, []byte(bad), 0o600)
		if Load(path) != nil {
			t.Errorf("%q loads as a place", bad)
		}
	}
}

// A signal and the close button both save the place as the window closes: neither
// may fail because the other moved its temporary file away.
func TestSaveTwiceAtOnce(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "window.json")
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- Save(path, Rect{X: i, Y: i, Width: 1000, Height: 700})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if Load(path) == nil {
		t.Fatal("no place was kept")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
