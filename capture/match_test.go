package capture

import (
	"fmt"
	"testing"
)

// Real dumps (testdata/PROVENANCE.md). The two LingBook dumps are one app before and
// after a tap: the subject list, then the editor of the subject "数据结构", whose title
// moves from its card to the top bar.
const (
	lingList   = "CaAlO22__LingBook-Android__window_dump.xml"
	lingEditor = "CaAlO22__LingBook-Android__window_dump2.xml"
	hazel      = "Makesoft-io__hazel__ui_test_inside_profiles.xml"
	avito      = "kram1k__android_avito_parsing__search_hierarchy.xml"
)

// boundsText is a node's bounds as the dump writes them: how the cases below name
// the nodes of a dump (grep the XML for them).
func boundsText(b Bounds) string {
	return fmt.Sprintf("[%d,%d][%d,%d]", b.Left, b.Top, b.Right, b.Bottom)
}

// nodeAt is the node with these bounds that a locator can name.
func nodeAt(t *testing.T, nodes []Node, bounds string) Node {
	t.Helper()
	for _, n := range nodes {
		if boundsText(n.Bounds) == bounds && locatorOf(n).HasKey() {
			return n
		}
	}
	t.Fatalf("no node with a key at %s", bounds)
	return Node{}
}

// locatorOf is what an item keeps of the node it was written on.
func locatorOf(n Node) Locator {
	b := n.Bounds
	return Locator{TestTag: n.TestTag, ResourceID: n.ResourceID, ContentDescription: n.ContentDescription, Text: n.Text, Near: &b}
}

func TestFindNodeOnRealDumps(t *testing.T) {
	parsed := map[string][]Node{}
	nodesOf := func(name string) []Node {
		if parsed[name] == nil {
			nodes, err := ParseDump(readFixture(t, name))
			if err != nil {
				t.Fatal(err)
			}
			parsed[name] = nodes
		}
		return parsed[name]
	}
	tests := []struct {
		name   string
		before string
		node   string           // the bounds of the node the locator is taken from
		edit   func(l *Locator) // what else the locator says (an agent's selector, an old text)
		after  string
		opts   MatchOptions
		want   string // the bounds of the node found; "": none
		by     MatchKey
	}{
		{name: "moved: the subject's title goes from its card to the editor's top bar",
			before: lingList, node: "[128,1664][400,1765]", after: lingEditor, want: "[208,141][364,267]", by: ByText},
		{name: "duplicate description: the second card's delete button, nearest its old place",
			before: lingList, node: "[856,1914][928,1986]", after: lingList, want: "[856,1914][928,1986]", by: ByContentDescription},
		{name: "duplicate text: the third card's page count, not the first card's",
			before: lingList, node: "[196,2493][271,2550]", after: lingList, want: "[196,2493][271,2550]", by: ByText},
		{name: "duplicate text without a hint: the first in tree order",
			before: lingList, node: "[196,2493][271,2550]", edit: func(l *Locator) { l.Near = nil }, after: lingList,
			want: "[196,1309][271,1366]", by: ByText},
		{name: "vanished: the list's New subject button is not in the editor",
			before: lingList, node: "[482,719][738,794]", after: lingEditor},
		{name: "vanished: no rename button in the editor",
			before: lingList, node: "[992,1301][1064,1373]", after: lingEditor},
		{name: "changed text: the URL bar found by its id, showing a new address",
			before: hazel, node: "[672,72][1472,120]", edit: func(l *Locator) { l.Text = "http://192.168.4.187:3000/" },
			after: hazel, want: "[672,72][1472,120]", by: ByResourceID},
		{name: "changed text among duplicate ids: the suggestion chip nearest its old place",
			before: avito, node: "[590,301][707,350]", edit: func(l *Locator) { l.Text = "дом" }, after: avito,
			want: "[590,301][707,350]", by: ByResourceID},
		{name: "an id that is gone falls back to the text",
			before: hazel, node: "[1074,766][1178,806]", edit: func(l *Locator) { l.ResourceID = "com.webviewer.firetv:id/signIn" },
			after: hazel, want: "[1074,766][1178,806]", by: ByText},
		{name: "an agent's selector tries its one key only",
			before: hazel, node: "[1074,766][1178,806]", edit: func(l *Locator) { l.ResourceID = "com.webviewer.firetv:id/signIn" },
			after: hazel, opts: MatchOptions{StrongestKeyOnly: true, VisibleOnly: true}},
		{name: "an id's name after :id/ names it",
			before: hazel, node: "[344,56][456,152]", edit: func(l *Locator) { *l = Locator{ResourceID: "refreshButton"} },
			after: hazel, want: "[344,56][456,152]", by: ByResourceID},
		{name: "a resource id without :id/ is a test tag, matched first",
			before: hazel, node: "[16,176][16,176]", edit: func(l *Locator) { l.Text = "" }, after: hazel,
			want: "[16,176][16,176]", by: ByTestTag},
		{name: "a node of no size is found, but not for a tap",
			before: hazel, node: "[16,176][16,176]", edit: func(l *Locator) { l.Text = "" }, after: hazel,
			opts: MatchOptions{VisibleOnly: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			loc := locatorOf(nodeAt(t, nodesOf(tc.before), tc.node))
			if tc.edit != nil {
				tc.edit(&loc)
			}
			m, ok := FindNode(nodesOf(tc.after), loc, tc.opts)
			switch {
			case tc.want == "" && ok:
				t.Fatalf("found %s %q at %s by %s, want nothing", m.Node.UID, m.Node.Text, boundsText(m.Node.Bounds), m.By)
			case tc.want == "":
			case !ok:
				t.Fatalf("not found, want the node at %s", tc.want)
			case boundsText(m.Node.Bounds) != tc.want || m.By != tc.by:
				t.Fatalf("found the node at %s by %s, want %s by %s", boundsText(m.Node.Bounds), m.By, tc.want, tc.by)
			}
		})
	}
}

func TestFindNodeWithoutKeys(t *testing.T) {
	nodes, err := ParseDump(readFixture(t, hazel))
	if err != nil {
		t.Fatal(err)
	}
	loc := Locator{Near: &Bounds{Left: 16, Top: 176, Right: 1904, Bottom: 1064}}
	if loc.HasKey() {
		t.Fatal("a locator with bounds alone has a key")
	}
	if m, ok := FindNode(nodes, loc, MatchOptions{}); ok {
		t.Fatalf("a locator without keys found %s", m.Node.UID)
	}
}

// BenchmarkFindNode: the largest real dump (Avito, 323 nodes), a locator whose id and
// text are gone, so every key scans the whole tree.
func BenchmarkFindNode(b *testing.B) {
	nodes, err := ParseDump(readFixture(b, avito))
	if err != nil {
		b.Fatal(err)
	}
	loc := Locator{TestTag: "gone", ResourceID: "com.avito.android:id/gone", ContentDescription: "gone", Text: "gone",
		Near: &Bounds{Left: 10, Top: 10, Right: 20, Bottom: 20}}
	for b.Loop() {
		if _, ok := FindNode(nodes, loc, MatchOptions{}); ok {
			b.Fatal("found a node that is not there")
		}
	}
}
