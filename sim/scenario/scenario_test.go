package scenario

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

type xmlNode struct {
	Index      string    `xml:"index,attr"`
	Text       string    `xml:"text,attr"`
	ResourceID string    `xml:"resource-id,attr"`
	Class      string    `xml:"class,attr"`
	Package    string    `xml:"package,attr"`
	Desc       string    `xml:"content-desc,attr"`
	Clickable  string    `xml:"clickable,attr"`
	Password   string    `xml:"password,attr"`
	Focused    string    `xml:"focused,attr"`
	Bounds     string    `xml:"bounds,attr"`
	Nodes      []xmlNode `xml:"node"`
}

type hierarchy struct {
	Rotation string    `xml:"rotation,attr"`
	Nodes    []xmlNode `xml:"node"`
}

func parseDump(t *testing.T, b []byte) hierarchy {
	t.Helper()
	var h hierarchy
	if err := xml.Unmarshal(b, &h); err != nil {
		t.Fatalf("parse dump: %v\n%s", err, b)
	}
	return h
}

func flatten(ns []xmlNode) []xmlNode {
	var out []xmlNode
	for _, n := range ns {
		out = append(out, n)
		out = append(out, flatten(n.Nodes)...)
	}
	return out
}

var boundsRE = regexp.MustCompile(`^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$`)

func parseBounds(t *testing.T, s string) image.Rectangle {
	t.Helper()
	m := boundsRE.FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("bounds %q are not [l,t][r,b]", s)
	}
	var v [4]int
	for i := range v {
		v[i], _ = strconv.Atoi(m[i+1])
	}
	return image.Rect(v[0], v[1], v[2], v[3])
}

func TestLoadDemo(t *testing.T) {
	sc := loadDemo(t)
	if sc.App.Package != "com.fixthis.demo" || sc.Device.Width != 1080 || sc.Device.Height != 2400 || sc.Device.Density != 420 {
		t.Fatalf("demo device/app = %+v / %+v", sc.Device, sc.App)
	}
	var dialogs, views, tagged, untagged int
	for _, s := range sc.Screens {
		switch {
		case s.Dialog:
			dialogs++
		case s.Style == "views":
			views++
		case s.TestTagsAsResourceID:
			tagged++
		default:
			untagged++
		}
	}
	if len(sc.Screens) < 4 || dialogs == 0 || views == 0 || tagged == 0 || untagged == 0 {
		t.Fatalf("demo screens: %d (dialogs %d, views %d, tagged %d, untagged %d)", len(sc.Screens), dialogs, views, tagged, untagged)
	}
	if sc.Latency.UIDump < 500*time.Millisecond || sc.Latency.ScreencapRaw <= 0 {
		t.Fatalf("latency = %+v", sc.Latency)
	}
	if got := sc.Props()["ro.product.model"]; got != "Pixel 7a" {
		t.Fatalf("ro.product.model = %q", got)
	}
}

// TestDumpMatchesDevice checks every demo state's dump against what a real
// `uiautomator dump` looks like and against the drawn layout.
func TestDumpMatchesDevice(t *testing.T) {
	attrOrder := regexp.MustCompile(`^<node index="\d+" text="[^"]*" resource-id="[^"]*" class="[^"]*" package="[^"]*" content-desc="[^"]*" checkable="(true|false)" checked="(true|false)" clickable="(true|false)" enabled="(true|false)" focusable="(true|false)" focused="(true|false)" scrollable="(true|false)" long-clickable="(true|false)" password="(true|false)" selected="(true|false)" bounds="\[\d+,\d+\]\[\d+,\d+\]"`)
	for name, se := range demoStates(t) {
		t.Run(name, func(t *testing.T) {
			raw := se.UIAutomatorXML()
			rot := se.State().Rotation
			head := fmt.Sprintf(`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="%d">`, rot)
			if !bytes.HasPrefix(raw, []byte(head)) || bytes.Contains(raw, []byte("\n")) {
				t.Fatalf("dump does not start like a device's or spans lines: %.120s", raw)
			}
			for _, el := range strings.Split(string(raw), "<node ")[1:] {
				if !attrOrder.MatchString("<node " + el) {
					t.Fatalf("node attributes out of device order: <node %.300s", el)
				}
			}
			h := parseDump(t, raw)
			screen := image.Rect(0, 0, 1080, 2400)
			if rot%2 == 1 {
				screen = image.Rect(0, 0, 2400, 1080)
			}
			nodes := flatten(h.Nodes)
			if len(nodes) < 5 {
				t.Fatalf("only %d nodes", len(nodes))
			}
			for _, n := range nodes {
				if r := parseBounds(t, n.Bounds); !r.In(screen) || r.Empty() {
					t.Errorf("node %s %q bounds %v outside the screen or empty", n.Class, n.Text+n.Desc, r)
				}
			}
			if f := se.Frame(); f.Bounds() != screen {
				t.Fatalf("frame bounds %v", f.Bounds())
			}
			// The sidekick view comes from the same laid-out tree: the window's
			// nodes must appear in the dump with identical bounds, in order.
			sk := se.SidekickNodes()
			var want []string
			for _, n := range sk {
				want = append(want, n.Class+" "+boundsString(n.Bounds))
			}
			var got []string
			for _, n := range nodes {
				got = append(got, n.Class+" "+n.Bounds)
			}
			if !strings.Contains(strings.Join(got, "|"), strings.Join(want, "|")) {
				t.Fatalf("dump nodes do not match the layout\nlayout: %v\ndump:   %v", want, got)
			}
		})
	}
}

func boundsString(b Bounds) string {
	return fmt.Sprintf("[%d,%d][%d,%d]", b.Left, b.Top, b.Right, b.Bottom)
}

// TestPixelsMatchBounds samples pixels inside nodes' bounds: what the dump says
// is a button is drawn in the button's colour where the layout put it.
func TestPixelsMatchBounds(t *testing.T) {
	sc := loadDemo(t)
	se := sc.NewSession()
	tapNode(t, se, byTag("account_avatar"))
	var btn Node
	for _, n := range se.SidekickNodes() {
		if n.TestTag == "sign_in_button" {
			btn = n
		}
	}
	f := se.Frame()
	b := btn.Bounds
	primary := sc.color("primary")
	inside := f.RGBAAt(b.Left+sc.Px(30), (b.Top+b.Bottom)/2)
	above := f.RGBAAt(b.Left+sc.Px(30), b.Top-2)
	if inside != primary {
		t.Fatalf("pixel inside sign-in button = %v, want primary %v", inside, primary)
	}
	if above == primary {
		t.Fatalf("pixel above the button's bounds is still the button colour: bounds do not match pixels")
	}
}

func TestPasswordIsRedacted(t *testing.T) {
	sc := loadDemo(t)
	se := sc.NewSession()
	tapNode(t, se, byTag("tab_profile"))
	tapNode(t, se, byTag("password_field"))
	if !se.InputText("s3cret-Pa55") {
		t.Fatal("typing into the focused password field changed nothing")
	}
	raw := se.UIAutomatorXML()
	if bytes.Contains(raw, []byte("s3cret")) {
		t.Fatal("password text appears in the dump")
	}
	var found bool
	for _, n := range flatten(parseDump(t, raw).Nodes) {
		if n.ResourceID == "password_field" {
			found = true
			if n.Password != "true" || n.Text != strings.Repeat("•", 11) || n.Focused != "true" || n.Class != "android.widget.EditText" {
				t.Fatalf("password node = %+v", n)
			}
		}
	}
	if !found {
		t.Fatal("no password_field node")
	}
	if !se.Key("KEYCODE_DEL") || !bytes.Contains(se.UIAutomatorXML(), []byte(`text="`+strings.Repeat("•", 10)+`"`)) {
		t.Fatal("KEYCODE_DEL did not remove a character")
	}
}

func TestNavigation(t *testing.T) {
	sc := loadDemo(t)
	se := sc.NewSession()
	if st := se.State(); st.ScreenID != "trails" || st.Activity != "com.fixthis.demo.MainActivity" || !st.ScreenOn || st.Locked {
		t.Fatalf("initial state %+v", st)
	}
	v0 := se.Version()
	tapNode(t, se, byTag("trail_card_3"))
	if st := se.State(); st.ScreenID != "detail" {
		t.Fatalf("after tapping card 3: %+v", st)
	}
	if se.Version() <= v0 {
		t.Fatal("version did not increase")
	}
	if !bytes.Contains(se.UIAutomatorXML(), []byte(`text="Mossy Falls"`)) {
		t.Fatal("detail screen does not show the tapped trail")
	}
	if bytes.Contains(se.UIAutomatorXML(), []byte(`resource-id="trail_title"`)) {
		t.Fatal("detail screen exposes testTags though it does not opt in")
	}
	tapNode(t, se, byDesc("Delete trail"))
	if st := se.State(); st.Dialog != "delete_dialog" {
		t.Fatalf("after delete: %+v", st)
	}
	h := parseDump(t, se.UIAutomatorXML())
	if len(h.Nodes) != 1 || parseBounds(t, h.Nodes[0].Bounds).Dx() >= 1080 {
		t.Fatalf("dialog dump should be the dialog window only, got root %+v", h.Nodes[0].Bounds)
	}
	tapNode(t, se, byText("Cancel"))
	if st := se.State(); st.Dialog != "" || st.ScreenID != "detail" {
		t.Fatalf("after cancel: %+v", st)
	}
	se.Key("KEYCODE_BACK")
	if st := se.State(); st.ScreenID != "trails" {
		t.Fatalf("after back: %+v", st)
	}
	tapNode(t, se, byTag("trail_card_1"))
	tapNode(t, se, byDesc("Delete trail"))
	tapNode(t, se, byText("Delete"))
	if st := se.State(); st.ScreenID != "trails" || st.Dialog != "" {
		t.Fatalf("after delete: %+v", st)
	}
	se.Key("4")
	if st := se.State(); st.ForegroundPackage != LauncherPackage {
		t.Fatalf("back on the root screen should leave the app: %+v", st)
	}
	tapNode(t, se, byDesc("Trailhead"))
	if st := se.State(); st.ScreenID != "trails" {
		t.Fatalf("launcher icon did not open the app: %+v", st)
	}
	if se.Tap(1, 2300) {
		t.Fatal("a tap on nothing reported a change")
	}
}

func TestSettingsActivityUsesViews(t *testing.T) {
	sc := loadDemo(t)
	se := sc.NewSession()
	if err := se.StartActivity("com.fixthis.demo/.SettingsActivity"); err != nil {
		t.Fatal(err)
	}
	if st := se.State(); st.Activity != "com.fixthis.demo.SettingsActivity" {
		t.Fatalf("state %+v", st)
	}
	raw := se.UIAutomatorXML()
	for _, want := range []string{`resource-id="com.fixthis.demo:id/offline_switch"`, `class="android.widget.Switch"`, `content-desc="Navigate up"`} {
		if !bytes.Contains(raw, []byte(want)) {
			t.Errorf("settings dump lacks %s", want)
		}
	}
	if bytes.Contains(raw, []byte("ComposeView")) {
		t.Error("a views screen has a ComposeView")
	}
	tapNode(t, se, byText("Weather alerts"))
	if !bytes.Contains(se.UIAutomatorXML(), []byte(`text="Weather alerts" resource-id="com.fixthis.demo:id/notifications_switch" class="android.widget.Switch" package="com.fixthis.demo" content-desc="" checkable="true" checked="true"`)) {
		t.Fatal("tapping the switch did not check it")
	}
	for _, bad := range []string{"com.other/.Main", "com.fixthis.demo/.Missing"} {
		if err := se.StartActivity(bad); err == nil {
			t.Errorf("StartActivity(%q) succeeded", bad)
		}
	}
	se.ForceStop("com.fixthis.demo")
	if st := se.State(); st.AppRunning || st.ForegroundPackage != LauncherPackage {
		t.Fatalf("after force-stop: %+v", st)
	}
	if err := se.StartActivity("com.fixthis.demo/.MainActivity"); err != nil || se.State().ScreenID != "trails" {
		t.Fatalf("restart: %v %+v", err, se.State())
	}
}

func TestSwipeScrollsList(t *testing.T) {
	sc := loadDemo(t)
	se := sc.NewSession()
	if bytes.Contains(se.UIAutomatorXML(), []byte(`"trail_card_9"`)) {
		t.Fatal("last card visible before scrolling")
	}
	for i := 0; i < 6; i++ {
		se.Swipe(540, 1900, 540, 700, 300*time.Millisecond)
	}
	raw := se.UIAutomatorXML()
	if !bytes.Contains(raw, []byte(`"trail_card_9"`)) || bytes.Contains(raw, []byte(`"trail_card_0"`)) {
		t.Fatal("scrolling to the end did not bring the last card in and the first out")
	}
	if se.Swipe(540, 1900, 540, 700, 300*time.Millisecond) {
		t.Fatal("swiping past the end reported a change")
	}
	tapNode(t, se, byTag("trail_card_9"))
	if !bytes.Contains(se.UIAutomatorXML(), []byte(`text="Cloud Summit"`)) {
		t.Fatal("tapping a scrolled card opened the wrong trail")
	}
}

func TestKeys(t *testing.T) {
	tests := []struct {
		keys           []string
		on, locked     bool
		fg             string
		blackPixelWant bool
	}{
		{keys: []string{"KEYCODE_POWER"}, on: false, locked: true, fg: SystemUIPackage, blackPixelWant: true},
		{keys: []string{"26", "224"}, on: true, locked: true, fg: SystemUIPackage},
		{keys: []string{"26", "KEYCODE_WAKEUP", "KEYCODE_MENU"}, on: true, fg: "com.fixthis.demo"},
		{keys: []string{"HOME"}, on: true, fg: LauncherPackage},
		{keys: []string{"3", "KEYCODE_BACK"}, on: true, fg: LauncherPackage},
	}
	sc := loadDemo(t)
	for _, tt := range tests {
		t.Run(strings.Join(tt.keys, "+"), func(t *testing.T) {
			se := sc.NewSession()
			for _, k := range tt.keys {
				se.Key(k)
			}
			st := se.State()
			if st.ScreenOn != tt.on || st.Locked != tt.locked || st.ForegroundPackage != tt.fg {
				t.Fatalf("state %+v", st)
			}
			black := se.Frame().RGBAAt(540, 1200) == (se.Frame().RGBAAt(0, 0)) && se.Frame().RGBAAt(540, 1200).R == 0 && se.Frame().RGBAAt(540, 1200).G == 0
			if black != tt.blackPixelWant {
				t.Fatalf("frame black = %v, want %v", black, tt.blackPixelWant)
			}
		})
	}
	se := sc.NewSession()
	se.Key("26")
	se.Key("224")
	if !se.Swipe(540, 2000, 540, 800, 200*time.Millisecond) || se.State().Locked {
		t.Fatal("swipe up did not unlock")
	}
}

func TestLoadDirErrors(t *testing.T) {
	screen := `{"layout": {"type": "column", "children": [{"type": "text", "text": "Hi"}]}}`
	tests := []struct {
		name, scenario, wantErr string
	}{
		{"ok", `{"app": {"package": "a.b"}, "start": "s", "screens": {"s": "s.json"}}`, ""},
		{"inline", `{"app": {"package": "a.b"}, "start": "s", "screens": {"s": ` + screen + `}}`, ""},
		{"no package", `{"start": "s", "screens": {"s": "s.json"}}`, "app.package"},
		{"bad start", `{"app": {"package": "a.b"}, "start": "x", "screens": {"s": "s.json"}}`, "start screen"},
		{"bad type", `{"app": {"package": "a.b"}, "start": "s", "screens": {"s": {"layout": {"type": "grid"}}}}`, "unknown node type"},
		{"bad target", `{"app": {"package": "a.b"}, "start": "s", "screens": {"s": {"layout": {"type": "text", "onTap": {"navigate": "nope"}}}}}`, "not a screen"},
		{"bad latency", `{"app": {"package": "a.b"}, "latency": {"uiDump": "slow"}, "start": "s", "screens": {"s": "s.json"}}`, "latency"},
		{"missing file", `{"app": {"package": "a.b"}, "start": "s", "screens": {"s": "gone.json"}}`, "gone.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "scenario.json"), []byte(tt.scenario), 0o644)
			os.WriteFile(filepath.Join(dir, "s.json"), []byte(screen), 0o644)
			sc, err := Load(dir)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Contains(sc.NewSession().UIAutomatorXML(), []byte(`text="Hi"`)) {
					t.Fatal("custom screen not rendered")
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want it to mention %q", err, tt.wantErr)
			}
		})
	}
	if _, err := Load(filepath.Join(t.TempDir(), "nope")); err == nil {
		t.Fatal("loading a missing directory succeeded")
	}
}

func TestConcurrentSessions(t *testing.T) {
	sc := loadDemo(t)
	done := make(chan bool)
	for i := 0; i < 4; i++ {
		go func() {
			se := sc.NewSession()
			for j := 0; j < 5; j++ {
				se.Tap(540, 700)
				_ = se.Frame()
				_ = se.UIAutomatorXML()
				se.Key("BACK")
			}
			done <- true
		}()
	}
	for i := 0; i < 4; i++ {
		<-done
	}
}

func BenchmarkFrame(b *testing.B) {
	se := loadDemo(b).NewSession()
	se.Frame()
	b.ResetTimer()
	for b.Loop() {
		se.Frame()
	}
}

func BenchmarkUIAutomatorXML(b *testing.B) {
	se := loadDemo(b).NewSession()
	se.UIAutomatorXML()
	b.ResetTimer()
	for b.Loop() {
		se.UIAutomatorXML()
	}
}

// BenchmarkRenderUncached measures a cache miss: layout, pixels and dump.
func BenchmarkRenderUncached(b *testing.B) {
	sc := loadDemo(b)
	se := sc.NewSession()
	for b.Loop() {
		sc.cache = newRenderCache(64)
		se.Frame()
	}
}

// BenchmarkRenderScrollStep measures a render after the trail list moved by 30 px: the
// cost of each picture screenrecord sees while a list scrolls.
func BenchmarkRenderScrollStep(b *testing.B) {
	sc := loadDemo(b)
	se := sc.NewSession()
	se.Frame()
	y := 0
	for b.Loop() {
		y = (y + 30) % 3000
		se.mu.Lock()
		se.stack[len(se.stack)-1].st.scrolls["trail_list"] = y
		se.version++
		se.mu.Unlock()
		se.Frame()
	}
}
