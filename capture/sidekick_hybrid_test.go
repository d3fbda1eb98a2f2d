package capture

import (
	"context"
	"errors"
	"fixthis/internal/sidekick"
	"testing"
)

// A settings screen in Views with one ComposeView in the middle, as uiautomator
// dumps it: the Compose part shows through accessibility, without its test tag.
const hybridDump = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">
<node index="0" class="android.widget.FrameLayout" package="com.example.notes" bounds="[0,0][1080,2400]">
 <node index="0" class="android.widget.TextView" text="Settings" resource-id="com.example.notes:id/title" package="com.example.notes" bounds="[0,100][1080,200]"/>
 <node index="1" class="androidx.compose.ui.platform.ComposeView" package="com.example.notes" bounds="[0,200][1080,1200]">
  <node index="0" class="android.view.View" text="Dark theme" package="com.example.notes" clickable="true" bounds="[0,300][1080,420]"/>
 </node>
 <node index="2" class="androidx.recyclerview.widget.RecyclerView" package="com.example.notes" scrollable="true" bounds="[0,1200][1080,2400]">
  <node index="0" class="android.widget.TextView" text="About" package="com.example.notes" bounds="[0,1220][1080,1340]"/>
 </node>
</node></hierarchy>`

func hybridInspection() *SidekickInspection {
	act := "com.example.notes.SettingsActivity"
	tag, role := "comp:ThemeRow:dark", "Switch"
	return &SidekickInspection{Activity: &act, Roots: []sidekick.InspectedRoot{{
		BoundsInWindow: sidekick.Rect{Top: 200, Right: 1080, Bottom: 1200},
		MergedNodes: []sidekick.ComposeNode{
			{ComposeNodeID: 1, Path: []string{"root"}, BoundsInWindow: sidekick.Rect{Top: 200, Right: 1080, Bottom: 1200}, Enabled: true},
			{ComposeNodeID: 4, Path: []string{"root", "node:4"}, BoundsInWindow: sidekick.Rect{Top: 300, Right: 1080, Bottom: 420},
				Text: []string{"Dark theme"}, TestTag: &tag, Role: &role, Enabled: true, Actions: []string{sidekick.ActionOnClick}},
		},
	}}}
}

func hybridState() ScreenState {
	return ScreenState{Package: "com.example.notes", Activity: "com.example.notes.SettingsActivity", ScreenOn: true,
		Windows: []Window{{Type: WindowApp, Package: "com.example.notes", Visible: true, Bounds: bx(0, 0, 1080, 2400)}}}
}

// On a hybrid screen the tree is uiautomator's Views with the sidekick's Compose
// nodes in place of the ComposeView's accessibility children.
func TestHybridScreenCombinesTheTrees(t *testing.T) {
	dev := &scriptedDevice{exec: map[string][]reply{"uiautomator dump /dev/tty": {{out: []byte(hybridDump)}}}}
	sk := &SidekickClient{Session: SidekickSession{PackageName: "com.example.notes"}}
	h, src, err, skErr := sidekickTree(context.Background(), dev, sk, hybridInspection(), nil, hybridState())
	if err != nil || skErr != nil || src != TreeFromHybrid {
		t.Fatalf("source %q, err %v, sidekick %v", src, err, skErr)
	}
	tree := NewTree(h.Nodes)
	var dark []Node
	seen := map[string]bool{}
	for _, n := range h.Nodes {
		if seen[n.UID] {
			t.Errorf("uid %s twice", n.UID)
		}
		seen[n.UID] = true
		if n.ParentUID != "" && !seen[n.ParentUID] {
			t.Errorf("%s comes before its parent %s", n.UID, n.ParentUID)
		}
		if n.Text == "Dark theme" {
			dark = append(dark, n)
		}
	}
	if len(dark) != 1 || dark[0].TestTag != "comp:ThemeRow:dark" || !dark[0].Compose {
		t.Fatalf("Dark theme nodes %+v, want the sidekick's only", dark)
	}
	// The Compose root node hangs under the ComposeView, the row under the root.
	root, _ := tree.ByUID(dark[0].ParentUID)
	host, _ := tree.ByUID(root.ParentUID)
	if !root.Compose || host.Class != "androidx.compose.ui.platform.ComposeView" {
		t.Errorf("the Compose node's parent %+v, grandparent %+v", root, host)
	}
	for _, want := range []string{"Settings", "About"} {
		found := false
		for _, n := range h.Nodes {
			found = found || n.Text == want
		}
		if !found {
			t.Errorf("the View text %q was dropped", want)
		}
	}
	// A Compose screen that fills the window is not hybrid: no dump is taken.
	full := hybridInspection()
	full.Roots[0].BoundsInWindow = sidekick.Rect{Right: 1080, Bottom: 2400}
	if _, hybrid := composeAreas(full, hybridState(), "com.example.notes"); hybrid {
		t.Error("a full-window Compose root counted as hybrid")
	}
	// A Compose app that keeps out of the system bars fills what they leave.
	inset := hybridInspection()
	inset.Roots[0].BoundsInWindow = sidekick.Rect{Top: 120, Right: 1080, Bottom: 2232}
	bars := hybridState()
	bars.Windows = append(bars.Windows,
		Window{Type: WindowStatusBar, Visible: true, Bounds: bx(0, 0, 1080, 120)},
		Window{Type: WindowNavigationBar, Visible: true, Bounds: bx(0, 2232, 1080, 2400)})
	if _, hybrid := composeAreas(inset, bars, "com.example.notes"); hybrid {
		t.Error("a Compose root between the system bars counted as hybrid")
	}
	if _, hybrid := composeAreas(inset, hybridState(), "com.example.notes"); !hybrid {
		t.Error("without the bars in the list, 88 % of the window is not all of it")
	}
	// uiautomator fails: the Compose part alone, and why.
	failing := &scriptedDevice{exec: map[string][]reply{"uiautomator dump /dev/tty": {{out: []byte("ERROR: null root node returned by UiTestAutomationBridge.\n")}}}}
	h, src, err, skErr = sidekickTree(context.Background(), failing, sk, hybridInspection(), nil, hybridState())
	if err != nil || src != TreeFromSidekick || len(h.Nodes) != 2 || !errors.Is(skErr, ErrSidekickTreeUnused) {
		t.Errorf("without uiautomator: %q %v %v, %d nodes", src, err, skErr, len(h.Nodes))
	}
}
