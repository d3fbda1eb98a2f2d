package capture

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

func TestStructuralHashMatchesUpstream(t *testing.T) {
	info := ScreenInfo{Activity: "io.github.beyondwin.fixthis.MainActivity", Orientation: "LANDSCAPE",
		Width: 2400, Height: 1080, Density: 420, WindowMode: "FREEFORM", SystemUIKind: "ime"}
	sum := sha256.Sum256([]byte("io.github.beyondwin.fixthis.MainActivity|LANDSCAPE|2400×1080@420|FREEFORM|ime"))
	if got, want := StructuralHash(info), hex.EncodeToString(sum[:8]); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	sum = sha256.Sum256([]byte("Main|PORTRAIT|null×null@null||"))
	if got := StructuralHash(ScreenInfo{Activity: "Main", Orientation: "PORTRAIT"}); got != hex.EncodeToString(sum[:8]) {
		t.Errorf("unknown size: got %s", got)
	}
	if StructuralHash(ScreenInfo{}) != "" {
		t.Error("nothing known should give no fingerprint")
	}
	portrait := StructuralHash(ScreenInfo{Activity: "Main", Orientation: "PORTRAIT", Width: 1080, Height: 1920})
	landscape := StructuralHash(ScreenInfo{Activity: "Main", Orientation: "LANDSCAPE", Width: 1920, Height: 1080})
	if portrait == landscape {
		t.Error("rotation did not change the fingerprint")
	}
}

func TestStructureHash(t *testing.T) {
	list := mustTree(t, treeDump).Nodes()
	same := mustTree(t, treeDump).Nodes()
	if StructureHash(list) != StructureHash(same) {
		t.Fatal("same tree, different hash")
	}
	// A clock ticking: only texts change, and a label grows by a few pixels.
	ticked := mustTree(t, strings.Replace(strings.Replace(treeDump, `text="Title"`, `text="Title 10:00"`, 1),
		`[200,220][800,300]`, `[200,220][860,300]`, 1)).Nodes()
	if StructureHash(list) != StructureHash(ticked) {
		t.Error("a text change altered the structure hash")
	}
	// A different screen in the same Activity: the rows are gone, a form is there.
	detail := mustTree(t, `<hierarchy><node class="android.widget.FrameLayout" bounds="[0,0][1080,2400]">
<node class="android.widget.EditText" resource-id="name_field" bounds="[40,300][1040,420]"/>
<node class="android.widget.Button" resource-id="save" text="Save" bounds="[40,500][1040,620]"/></node></hierarchy>`).Nodes()
	if StructureHash(list) == StructureHash(detail) {
		t.Error("navigation did not change the structure hash")
	}
	if StructureHash(nil) != "" {
		t.Error("empty tree should have no structure hash")
	}
	if len(StructureHash(list)) != 16 {
		t.Error("structure hash is not 16 hex")
	}
}

func TestFingerprintStringAndMatches(t *testing.T) {
	a := Fingerprint{Structural: "0123456789abcdef", Structure: "fedcba9876543210", Perceptual: "00000000000000ff"}
	s := a.String()
	if s != "0123456789abcdef:fedcba9876543210" {
		t.Fatalf("String = %q", s)
	}
	back, err := ParseFingerprint(s)
	if err != nil || !back.Matches(a) || !a.Matches(back) {
		t.Fatalf("round trip %+v %v", back, err)
	}
	tests := []struct {
		name string
		a, b Fingerprint
		want bool
	}{
		{"same", a, a, true},
		{"animation only", a, Fingerprint{Structural: a.Structural, Structure: a.Structure, Perceptual: "ffffffffffffff00"}, true},
		{"navigated in activity", a, Fingerprint{Structural: a.Structural, Structure: "1111111111111111"}, false},
		{"other activity", a, Fingerprint{Structural: "1111111111111111", Structure: a.Structure}, false},
		{"no trees, close pixels", Fingerprint{Structural: "1", Perceptual: "00000000000000ff"}, Fingerprint{Structural: "1", Perceptual: "00000000000000fe"}, true},
		{"no trees, far pixels", Fingerprint{Structural: "1", Perceptual: "0000000000000000"}, Fingerprint{Structural: "1", Perceptual: "ffffffffffffffff"}, false},
		{"nothing to compare", Fingerprint{}, a, false},
	}
	for _, tt := range tests {
		if got := tt.a.Matches(tt.b); got != tt.want {
			t.Errorf("%s: Matches = %v", tt.name, got)
		}
	}
	for _, bad := range []string{"nothex", "a:b:c:d", "0123456789abcdeg:fedcba9876543210"} {
		if _, err := ParseFingerprint(bad); err == nil {
			t.Errorf("ParseFingerprint(%q) accepted", bad)
		}
	}
	if f, err := ParseFingerprint("0123456789abcdef:fedcba9876543210:00000000000000ff"); err != nil || f.Perceptual == "" {
		t.Errorf("three-part form: %+v %v", f, err)
	}
}
