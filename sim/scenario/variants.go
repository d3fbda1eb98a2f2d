package scenario

import (
	"fmt"
	"image"
	"maps"
	"slices"
)

// Variants are the built-in demo's starting states: screens real phones show that a
// single portrait app window does not.
//
//   - demo: the trail list in portrait;
//   - landscape: the display turned a quarter (rotation 1), screens laid out wide;
//   - dialog: the "Delete trail?" AlertDialog over a trail's details;
//   - keyboard: the new-trail form with the name field focused and the keyboard up;
//   - secure: the sign-in screen of an app whose window has FLAG_SECURE.
var Variants = []string{"demo", "landscape", "dialog", "keyboard", "secure"}

// IsVariant reports whether name is one of Variants.
func IsVariant(name string) bool { return slices.Contains(Variants, name) }

// ApplyVariant puts the session in a variant's state (see Variants), as if the user
// had gone there: awake, unlocked, the app in front. Other state (fields typed,
// scroll offsets) starts fresh. It works on any scenario that has the screens a
// variant needs.
func (se *Session) ApplyVariant(name string) error {
	if !IsVariant(name) {
		return fmt.Errorf("unknown scenario %q (want one of %v)", name, Variants)
	}
	sc := se.sc
	need := map[string][]string{"dialog": {"detail", "delete_dialog"}, "keyboard": {"new_trail"}, "secure": {"signin"}}[name]
	for _, id := range need {
		if _, ok := sc.Screens[id]; !ok {
			return fmt.Errorf("scenario %s has no %q screen for %s", sc.Name, id, name)
		}
	}
	se.mutate(func() {
		se.screenOn, se.locked, se.running, se.foreground = true, false, true, true
		se.rotation, se.secure = 0, false
		se.stack = []*entry{newEntry(sc.Start, nil)}
		switch name {
		case "landscape":
			se.rotation = 1
		case "dialog":
			args := map[string]string{"index": "0", "position": "1"}
			if items := sc.Data["trails"]; len(items) > 0 {
				maps.Copy(args, items[0])
			}
			e := newEntry("detail", args)
			e.dialog, e.dst = "delete_dialog", newScreenState(args)
			se.stack = append(se.stack, e)
		case "keyboard":
			e := newEntry("new_trail", nil)
			e.st.focus = "trail_name_field"
			se.stack = append(se.stack, e)
		case "secure":
			se.stack = append(se.stack, newEntry("signin", nil))
			se.secure = true
		}
	})
	return nil
}

// SetSecure sets or clears FLAG_SECURE on the app's window.
func (se *Session) SetSecure(on bool) bool {
	return se.mutate(func() { se.secure = on })
}

// Windows is what WindowManager would list for the current state, for the
// simulated `dumpsys window windows`.
type Windows struct {
	Width, Height int             // the display in the current rotation
	StatusBar     image.Rectangle // the status bar window
	NavBar        image.Rectangle // the navigation bar window
	Dialog        image.Rectangle // the dialog window, empty when none
	IME           image.Rectangle // the keyboard's keys, empty when hidden
	Secure        bool            // the app's window has FLAG_SECURE
}

// Windows reports the windows of the current state.
func (se *Session) Windows() Windows {
	r := se.current()
	b := r.frame.Bounds()
	sc := se.sc.under(se.Display(), false) // the system bars' density
	w := Windows{
		Width: b.Dx(), Height: b.Dy(),
		StatusBar: image.Rect(0, 0, b.Dx(), sc.Px(statusBarDP)),
		NavBar:    image.Rect(0, b.Dy()-sc.Px(navBarDP), b.Dx(), b.Dy()),
		IME:       r.ime, Secure: r.secure,
	}
	if r.dialog != nil {
		w.Dialog = r.dialog.r
	}
	return w
}

// keyboardDP is the keyboard's height with its suggestion strip, down to the
// bottom edge (the navigation bar draws over it), as Gboard measures it.
func (s *Scenario) keyboardRect(screen image.Rectangle) image.Rectangle {
	h := s.Px(40 + 4*54 + 8 + navBarDP)
	if screen.Dx() > screen.Dy() {
		h = s.Px(32 + 4*40 + 4 + navBarDP)
	}
	return image.Rect(screen.Min.X, screen.Max.Y-h, screen.Max.X, screen.Max.Y)
}

// key is one key of the on-screen keyboard: what it types, or an action.
type key struct {
	r     image.Rectangle
	label string
	text  string // typed into the focused field
	code  string // DEL, ENTER or "" (shift and symbols do nothing here)
}

// keyboardKeys lays out a QWERTY keyboard in kb.
func (s *Scenario) keyboardKeys(kb image.Rectangle) []key {
	strip := s.Px(40)
	if kb.Dx() > kb.Dy()*2 {
		strip = s.Px(32)
	}
	rows := [][]string{
		{"q", "w", "e", "r", "t", "y", "u", "i", "o", "p"},
		{"a", "s", "d", "f", "g", "h", "j", "k", "l"},
		{"⇧", "z", "x", "c", "v", "b", "n", "m", "⌫"},
		{"?123", ",", " ", ".", "⏎"},
	}
	top := kb.Min.Y + strip
	rowH := (kb.Max.Y - s.Px(navBarDP) - top - s.Px(4)) / len(rows)
	unit := kb.Dx() / 10
	gap := s.Px(3)
	var keys []key
	for i, row := range rows {
		y := top + i*rowH
		widths := make([]int, len(row))
		total := 0
		for j, l := range row {
			widths[j] = unit
			switch l {
			case "⇧", "⌫":
				widths[j] = unit * 3 / 2
			case "?123", "⏎":
				widths[j] = unit * 3 / 2
			case " ":
				widths[j] = unit * 5
			}
			total += widths[j]
		}
		x := kb.Min.X + (kb.Dx()-total)/2
		for j, l := range row {
			k := key{r: image.Rect(x+gap, y+gap, x+widths[j]-gap, y+rowH-gap), label: l}
			switch l {
			case "⌫":
				k.code = "DEL"
			case "⏎":
				k.code = "ENTER"
			case "⇧", "?123":
			default:
				k.text = l
			}
			keys = append(keys, k)
			x += widths[j]
		}
	}
	return keys
}

// drawKeyboard draws the keyboard window: its background, the suggestion strip
// and the keys.
func (s *Scenario) drawKeyboard(dst *image.RGBA, kb, screen image.Rectangle) {
	fillRect(dst, kb, s.color("#E8EAED"))
	st := s.fonts.style("titleMedium")
	face := s.fonts.face(st, s.textDPI())
	keyBg, special, ink := s.color("#FFFFFF"), s.color("#C9CED6"), s.color("#202124")
	for _, k := range s.keyboardKeys(kb) {
		bg := keyBg
		if k.text == "" || k.text == " " {
			bg = special
		}
		fillRRect(dst, k.r, float32(s.Px(6)), bg)
		label := k.label
		switch label {
		case " ":
			label = ""
		case "⇧":
			label = "shift"
		case "⌫":
			label = "del"
		case "⏎":
			label = "go"
		}
		if label != "" {
			w := measureText(face, label)
			s.fonts.drawText(dst, face, label, k.r.Min.X+(k.r.Dx()-w)/2, k.r.Min.Y, k.r.Dy(), ink)
		}
	}
	s.drawNavHandle(dst.SubImage(screen).(*image.RGBA), false)
}

// imeTapLocked is a tap on the keyboard: a key types into the focused field; the
// app below never sees the tap.
func (se *Session) imeTapLocked(r *rendered, pt image.Point) {
	st := se.focusedLocked()
	if st == nil {
		return
	}
	for _, k := range se.sc.keyboardKeys(r.ime) {
		if !pt.In(k.r) {
			continue
		}
		switch {
		case k.text != "":
			st.fields[st.focus] += k.text
		case k.code == "DEL":
			if v := []rune(st.fields[st.focus]); len(v) > 0 {
				st.fields[st.focus] = string(v[:len(v)-1])
			}
		case k.code == "ENTER":
			st.focus = ""
		}
		return
	}
}
