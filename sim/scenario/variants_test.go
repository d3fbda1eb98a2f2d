package scenario

import (
	"image"
	"strings"
	"testing"
)

func variant(t *testing.T, name string) *Session {
	t.Helper()
	se := loadDemo(t).NewSession()
	if err := se.ApplyVariant(name); err != nil {
		t.Fatal(err)
	}
	return se
}

func TestLandscapeLayoutAndTaps(t *testing.T) {
	se := variant(t, "landscape")
	if b := se.Frame().Bounds(); b != image.Rect(0, 0, 2400, 1080) {
		t.Fatalf("landscape frame %v", b)
	}
	if !strings.Contains(string(se.UIAutomatorXML()), `rotation="1"`) {
		t.Error("dump does not say rotation 1")
	}
	// A tap at a node's centre, in landscape coordinates, reaches that node: at
	// 914 dp wide the list-detail layout selects the trail in its side pane.
	tapNode(t, se, byTag("trail_card_1"))
	title := ""
	for _, n := range se.SidekickNodes() {
		if n.TestTag == "pane_trail_title" {
			title = n.Text
		}
	}
	if st := se.State(); st.ScreenID != "trails" || title != "Blue Lake Trail" {
		t.Fatalf("tap on the second card in landscape: screen %q, pane %q", st.ScreenID, title)
	}
	se.SetRotation(0)
	if b := se.Frame().Bounds(); b != image.Rect(0, 0, 1080, 2400) {
		t.Fatalf("turned back, frame %v", b)
	}
}

func TestKeyboardTypesAndCoversTheApp(t *testing.T) {
	se := variant(t, "keyboard")
	w := se.Windows()
	if w.IME.Empty() || w.IME.Max.Y != 2400 || w.IME.Min.Y < 1200 {
		t.Fatalf("keyboard rect %v", w.IME)
	}
	var sw Node
	for _, n := range se.SidekickNodes() {
		if n.TestTag == "offline_checkbox" {
			sw = n
		}
	}
	if sw.Bounds.Bottom <= w.IME.Min.Y {
		t.Fatalf("the offline checkbox %+v should lie under the keyboard %v", sw.Bounds, w.IME)
	}
	before := se.Version()
	// A tap on the checkbox's part under the keyboard lands on the keyboard.
	se.Tap((sw.Bounds.Left+sw.Bounds.Right)/2, (max(sw.Bounds.Top, w.IME.Min.Y)+sw.Bounds.Bottom)/2)
	for _, n := range se.SidekickNodes() {
		if n.TestTag == "offline_checkbox" && n.Checked != sw.Checked {
			t.Fatal("a tap on the keyboard toggled the checkbox under it")
		}
	}
	// The keys type into the focused field.
	typeKey := func(label string) {
		for _, k := range se.sc.keyboardKeys(w.IME) {
			if k.label == label {
				se.Tap((k.r.Min.X+k.r.Max.X)/2, (k.r.Min.Y+k.r.Max.Y)/2)
				return
			}
		}
		t.Fatalf("no key %q", label)
	}
	typeKey("h")
	typeKey("i")
	if se.Version() == before {
		t.Fatal("typing changed nothing")
	}
	if f := se.current(); !strings.Contains(string(f.xml), `resource-id="trail_name_field"`) {
		t.Fatal("the dump lost the focused field")
	}
	typeKey("⏎")
	if !se.Windows().IME.Empty() {
		t.Error("enter should close the keyboard")
	}
	// The dump never holds the keyboard's window.
	if strings.Contains(string(se.UIAutomatorXML()), "inputmethod") {
		t.Error("keyboard nodes in the dump")
	}
}

func TestSecureFrameIsBlack(t *testing.T) {
	se := variant(t, "secure")
	f := se.Frame()
	for _, y := range []int{600, 1200, 2000} {
		if c := f.RGBAAt(540, y); c.R|c.G|c.B != 0 {
			t.Errorf("pixel (540,%d) = %v, want black", y, c)
		}
	}
	if len(se.SidekickNodes()) < 5 || !strings.Contains(string(se.UIAutomatorXML()), "password_field") {
		t.Error("the tree should still read on a FLAG_SECURE screen")
	}
	if !se.Windows().Secure {
		t.Error("Windows().Secure = false")
	}
	se.SetSecure(false)
	if c := se.Frame().RGBAAt(540, 1200); c.R|c.G|c.B == 0 {
		t.Error("clearing FLAG_SECURE should show the app again")
	}
}

func TestDialogVariant(t *testing.T) {
	se := variant(t, "dialog")
	st := se.State()
	if st.ScreenID != "detail" || st.Dialog != "delete_dialog" {
		t.Fatalf("state %+v", st)
	}
	w := se.Windows()
	if w.Dialog.Empty() || w.Dialog.Dx() >= 1080 {
		t.Fatalf("dialog rect %v", w.Dialog)
	}
	if !strings.Contains(string(se.UIAutomatorXML()), "Eagle Ridge Loop") {
		t.Error("the dialog should name the first trail")
	}
	if err := se.ApplyVariant("sideways"); err == nil || !strings.Contains(err.Error(), "landscape") {
		t.Errorf("unknown variant error = %v", err)
	}
}
