package voice

import (
	"testing"
	"time"

	"fixthis/capture"
)

func TestPageNotes(t *testing.T) {
	save := capture.Node{UID: "n0.1", Class: "android.widget.Button", Role: "Button", Text: "Save changes",
		ResourceID: "com.example:id/save", Bounds: capture.Bounds{Left: 10, Top: 20, Right: 110, Bottom: 80}}
	tagged := capture.Node{UID: "n0.2", Class: "android.view.View", ContentDescription: "Profile picture", TestTag: "avatar"}
	secret := capture.Node{UID: "n0.3", Class: "android.widget.EditText", Role: "TextField", Password: true, ResourceID: "pw"}
	long := capture.Node{UID: "n0.4", Class: "android.widget.TextView", Text: "A very long paragraph that goes on and on, far beyond what an interviewer needs to hear about it"}
	x, y := 540, 1200
	area := capture.Bounds{Left: 100, Top: 400, Right: 400, Bottom: 600}
	cases := []struct {
		p    Pointing
		want string
	}{
		{Pointing{Kind: AnchorClick, Node: &save, Activity: ".SettingsActivity"},
			`[PAGE] The user clicked Button with text "Save changes" (resource id com.example:id/save, activity .SettingsActivity) (anchor id: anchor_0001).`},
		{Pointing{Kind: AnchorClick, Node: &tagged},
			`[PAGE] The user clicked View described as "Profile picture" (test tag avatar) (anchor id: anchor_0001).`},
		{Pointing{Kind: AnchorClick, Node: &secret},
			`[PAGE] The user clicked TextField with hidden text (resource id pw) (anchor id: anchor_0001).`},
		{Pointing{Kind: AnchorClick, Node: &long},
			`[PAGE] The user clicked TextView with text "A very long paragraph that goes on and on, far beyond what an interviewer needs…" (anchor id: anchor_0001).`},
		{Pointing{Kind: AnchorClick, X: &x, Y: &y, Activity: ".Main"},
			`[PAGE] The user clicked the point (540, 1200) on the screen (activity .Main) (anchor id: anchor_0001).`},
		{Pointing{Kind: AnchorArea, Bounds: &area, Node: &save, Activity: ".Main"},
			`[PAGE] The user drew on an area of 300×200 px at (100, 400) over Button with text "Save changes" (resource id com.example:id/save, activity .Main) (anchor id: anchor_0001).`},
		{Pointing{Kind: AnchorScreen, Note: "too\nbusy", Activity: ".Main"},
			`[PAGE] The user added a screen note "too busy" on the whole screen (activity .Main) (anchor id: anchor_0001).`},
	}
	for _, tc := range cases {
		if got := PageNote(Anchor{ID: "anchor_0001", Pointing: tc.p}); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}

func TestAnchorIDsAndRefresh(t *testing.T) {
	var b anchorBook
	b.newConnection(1)
	n1 := capture.Node{UID: "n1"}
	n2 := capture.Node{UID: "n2"}
	t0 := time.Now()
	steps := []struct {
		node     *capture.Node
		after    time.Duration
		wantID   string
		announce bool
	}{
		{&n1, 0, "anchor_0001", true},
		{&n1, 500 * time.Millisecond, "anchor_0001", false}, // same node within 1 s: refresh
		{&n1, 1600 * time.Millisecond, "anchor_0002", true}, // 1.1 s after the refresh
		{&n2, 1700 * time.Millisecond, "anchor_0003", true},
		{&n1, 1800 * time.Millisecond, "anchor_0004", true}, // not the newest anchor
	}
	for i, s := range steps {
		a, announce := b.add(Pointing{Kind: AnchorClick, Node: s.node}, t0.Add(s.after))
		if a.ID != s.wantID || announce != s.announce {
			t.Fatalf("step %d: %s announce=%v, want %s %v", i, a.ID, announce, s.wantID, s.announce)
		}
	}
	if got := b.all(); len(got) != 4 || !got[0].At.Equal(t0.Add(500*time.Millisecond)) {
		t.Fatalf("kept anchors: %d, first at %v", len(got), got[0].At.Sub(t0))
	}
	b.newConnection(2)
	if a, _ := b.add(Pointing{Kind: AnchorClick, Node: &n2}, t0.Add(2*time.Second)); a.ID != "anchor_0001" || a.Conn != 2 {
		t.Fatalf("a new connection restarts ids: %+v", a)
	}
}
