package capture

import "testing"

// A list screen: full-screen containers, a row (clickable) holding an icon, a title
// and a button, a second row, and a zero-size node.
const treeDump = `<hierarchy rotation="0">
<node class="android.widget.FrameLayout" bounds="[0,0][1080,2400]">
 <node class="android.widget.LinearLayout" resource-id="android:id/content" bounds="[0,0][1080,2400]">
  <node class="android.view.ViewGroup" clickable="true" resource-id="com.a:id/row" bounds="[0,200][1080,400]">
   <node class="android.widget.ImageView" bounds="[20,220][180,380]"/>
   <node class="android.widget.TextView" text="Title" bounds="[200,220][800,300]"/>
   <node class="android.widget.Button" text="Open" clickable="true" bounds="[850,250][1060,350]"/>
  </node>
  <node class="android.view.ViewGroup" clickable="true" resource-id="com.a:id/row" bounds="[0,400][1080,600]">
   <node class="android.widget.TextView" text="Second" bounds="[200,420][800,500]"/>
  </node>
  <node class="android.view.View" bounds="[500,500][500,500]"/>
  <node class="android.view.ViewGroup" bounds="[0,600][1080,2400]">
   <node class="android.view.ViewGroup" bounds="[0,600][1080,2400]"/>
  </node>
 </node>
</node>
</hierarchy>`

func mustTree(t testing.TB, dump string) *Tree {
	t.Helper()
	nodes, err := ParseDump([]byte(dump))
	if err != nil {
		t.Fatal(err)
	}
	return NewTree(nodes)
}

func TestHitTest(t *testing.T) {
	tree := mustTree(t, treeDump)
	tests := []struct {
		x, y      int
		want      string
		ancestors []string
	}{
		{300, 250, "n0.0.0.1", []string{"n0", "n0.0", "n0.0.0"}}, // title text
		{900, 300, "n0.0.0.2", []string{"n0", "n0.0", "n0.0.0"}}, // button
		{810, 390, "n0.0.0", []string{"n0", "n0.0"}},             // row padding
		{100, 300, "n0.0.0.0", []string{"n0", "n0.0", "n0.0.0"}}, // icon leaf
		{100, 450, "n0.0.1", []string{"n0", "n0.0"}},
		{500, 1000, "n0.0.3.0", []string{"n0", "n0.0", "n0.0.3"}}, // leaf wins over its same-size parent
		{500, 100, "", nil}, // only full-screen containers
		{2000, 100, "", nil},
	}
	for _, tt := range tests {
		hit, ok := tree.HitTest(tt.x, tt.y)
		if tt.want == "" {
			if ok {
				t.Errorf("(%d,%d) hit %s, want nothing", tt.x, tt.y, hit.Node.UID)
			}
			continue
		}
		if !ok || hit.Node.UID != tt.want {
			t.Errorf("(%d,%d) = %q, want %q", tt.x, tt.y, hit.Node.UID, tt.want)
			continue
		}
		var anc []string
		for _, a := range hit.Ancestors {
			anc = append(anc, a.UID)
		}
		if len(anc) != len(tt.ancestors) {
			t.Errorf("(%d,%d) ancestors %v, want %v", tt.x, tt.y, anc, tt.ancestors)
			continue
		}
		for i := range anc {
			if anc[i] != tt.ancestors[i] {
				t.Errorf("(%d,%d) ancestors %v, want %v", tt.x, tt.y, anc, tt.ancestors)
			}
		}
	}
}

func TestTreeLookups(t *testing.T) {
	tree := mustTree(t, treeDump)
	if n, ok := tree.ByUID("n0.0.0.2"); !ok || n.Text != "Open" {
		t.Errorf("ByUID = %+v %v", n, ok)
	}
	if _, ok := tree.ByUID("n9"); ok {
		t.Error("unknown uid found")
	}
	if a := tree.Ancestors("n0"); a != nil {
		t.Errorf("root ancestors = %v", a)
	}
	if a := tree.Ancestors("n0.0.1.0"); len(a) != 3 || a[0].UID != "n0" || a[2].UID != "n0.0.1" {
		t.Errorf("ancestors = %v", a)
	}
	if tree.Screen() != (Bounds{Left: 0, Top: 0, Right: 1080, Bottom: 2400}) || tree.Len() != 11 {
		t.Errorf("screen %v len %d", tree.Screen(), tree.Len())
	}
}

func TestHitArea(t *testing.T) {
	tree := mustTree(t, treeDump)
	uids := func(ns []Node) []string {
		var s []string
		for _, n := range ns {
			s = append(s, n.UID)
		}
		return s
	}
	// Dragging around the button: the button, then its row siblings nearby.
	res := tree.HitArea(Bounds{Left: 840, Top: 240, Right: 1070, Bottom: 360})
	if res.Node == nil || res.Node.UID != "n0.0.0.2" || res.Overlap < 0.7 {
		t.Fatalf("area hit = %+v", res)
	}
	got := uids(res.Nearby)
	want := []string{"n0.0.0.1", "n0.0.1", "n0.0.1.0"} // the icon is beyond the radius
	if len(got) != len(want) {
		t.Fatalf("nearby = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("nearby = %v, want %v", got, want)
		}
	}
	for _, n := range res.Nearby {
		if n.UID == "n0.0.0" || n.UID == "n0" {
			t.Errorf("ancestor %s listed as nearby", n.UID)
		}
	}
	// Same input, same answer.
	again := tree.HitArea(Bounds{Left: 840, Top: 240, Right: 1070, Bottom: 360})
	if len(again.Nearby) != len(res.Nearby) || again.Node.UID != res.Node.UID {
		t.Error("HitArea is not deterministic")
	}
	if r := tree.HitArea(Bounds{}); r.Node != nil || len(r.Nearby) != 0 {
		t.Errorf("empty area = %+v", r)
	}
	if r := tree.HitArea(Bounds{Left: 1100, Top: 3000, Right: 1200, Bottom: 3100}); r.Node != nil || len(r.Nearby) != 0 {
		t.Errorf("off-screen area = %+v", r)
	}
}

func TestHitTestFixtures(t *testing.T) {
	nodes, err := ParseDump(readFixture(t, "CaAlO22__LingBook-Android__window_dump.xml"))
	if err != nil {
		t.Fatal(err)
	}
	tree := NewTree(nodes)
	for _, n := range nodes {
		if n.ContentDescription != "删除" {
			continue
		}
		cx, cy := (n.Bounds.Left+n.Bounds.Right)/2, (n.Bounds.Top+n.Bounds.Bottom)/2
		hit, ok := tree.HitTest(cx, cy)
		if !ok {
			t.Fatal("no hit on the delete button")
		}
		if hit.Node.Bounds.Area() > n.Bounds.Area() {
			t.Errorf("hit %s is larger than the button %s", hit.Node.UID, n.UID)
		}
		return
	}
	t.Fatal("delete button not found")
}

func BenchmarkHitTest1000(b *testing.B) {
	nodes, err := ParseDump(genDump(1000))
	if err != nil {
		b.Fatal(err)
	}
	tree := NewTree(nodes)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if _, ok := tree.HitTest(500+i%400, 100+i%2000); !ok {
			b.Fatal("no hit")
		}
	}
}

func BenchmarkHitArea1000(b *testing.B) {
	nodes, err := ParseDump(genDump(1000))
	if err != nil {
		b.Fatal(err)
	}
	tree := NewTree(nodes)
	for b.Loop() {
		_ = tree.HitArea(Bounds{Left: 100, Top: 500, Right: 600, Bottom: 800})
	}
}
