package scenario

import (
	"strings"
	"testing"
)

func loadDemo(t testing.TB) *Scenario {
	t.Helper()
	sc, err := Load("demo")
	if err != nil {
		t.Fatalf("load demo: %v", err)
	}
	return sc
}

// tapNode taps the centre of the first node whose attribute matches.
func tapNode(t testing.TB, se *Session, match func(Node) bool) {
	t.Helper()
	for _, n := range se.SidekickNodes() {
		if match(n) {
			b := n.Bounds
			if !se.Tap((b.Left+b.Right)/2, (b.Top+b.Bottom)/2) {
				t.Fatalf("tap on %+v changed nothing", n)
			}
			return
		}
	}
	t.Fatalf("no node matches on screen %s", se.State().ScreenID)
}

func byTag(tag string) func(Node) bool { return func(n Node) bool { return n.TestTag == tag } }
func byDesc(d string) func(Node) bool {
	return func(n Node) bool { return n.ContentDescription == d }
}
func byText(s string) func(Node) bool {
	return func(n Node) bool { return strings.EqualFold(n.Text, s) }
}

// demoStates drives a session into each interesting state of the demo app.
func demoStates(t testing.TB) map[string]*Session {
	sc := loadDemo(t)
	out := map[string]*Session{}
	out["list"] = sc.NewSession()

	scrolled := sc.NewSession()
	scrolled.Swipe(540, 1800, 540, 900, 300_000_000)
	out["list-scrolled"] = scrolled

	detail := sc.NewSession()
	tapNode(t, detail, byTag("trail_card_2"))
	out["detail"] = detail

	dialog := sc.NewSession()
	tapNode(t, dialog, byTag("trail_card_0"))
	tapNode(t, dialog, byDesc("Delete trail"))
	out["dialog"] = dialog

	form := sc.NewSession()
	tapNode(t, form, byTag("account_avatar"))
	tapNode(t, form, byTag("email_field"))
	form.InputText("sam@example.com")
	tapNode(t, form, byTag("password_field"))
	form.InputText("hunter22")
	out["signin"] = form

	newTrail := sc.NewSession()
	tapNode(t, newTrail, byTag("add_trail_fab"))
	out["new-trail"] = newTrail

	settings := sc.NewSession()
	tapNode(t, settings, byTag("account_avatar"))
	tapNode(t, settings, byTag("settings_button"))
	out["settings"] = settings

	home := sc.NewSession()
	home.Key("KEYCODE_HOME")
	out["launcher"] = home

	locked := sc.NewSession()
	locked.Key("26")
	locked.Key("224")
	out["keyguard"] = locked

	for _, v := range Variants[1:] {
		se := sc.NewSession()
		if err := se.ApplyVariant(v); err != nil {
			t.Fatal(err)
		}
		out["variant-"+v] = se
	}
	return out
}
