package scenario

import (
	"fmt"
	"image"
	"maps"
	"slices"
	"strings"
	"time"
)

// act runs f with the rendered current state under the session lock, so a hit
// test and the change it causes see the same screen.
func (se *Session) act(f func(r *rendered)) bool {
	return se.mutate(func() {
		key, spec := se.snapshotLocked()
		r := se.sc.cache.get(key, func() *rendered { return se.sc.under(spec.display, spec.app).renderState(spec) })
		f(r)
	})
}

// Tap performs `input tap x y`: it runs the action of the deepest tappable
// element under the point. It reports whether anything changed.
func (se *Session) Tap(x, y int) bool {
	return se.act(func(r *rendered) {
		if !se.screenOn || se.locked {
			return
		}
		pt := image.Pt(x, y)
		if !se.foreground || len(se.stack) == 0 {
			if v := hit(r.base, pt); v != nil && v.n.OnTap != nil && v.n.OnTap.Launch == se.sc.App.Package {
				se.launchLocked()
			}
			return
		}
		if pt.In(r.ime) {
			se.imeTapLocked(r, pt) // the keyboard's window is on top of the app's
			return
		}
		top := se.stack[len(se.stack)-1]
		root, st := r.base, top.st
		if r.dialog != nil {
			if !pt.In(r.dialog.r) {
				top.dialog, top.dst = "", nil // a tap outside a dialog dismisses it
				return
			}
			root, st = r.dialog, top.dst
		}
		v := hit(root, pt)
		if v == nil {
			return
		}
		se.activateLocked(v, st)
	})
}

// hit returns the deepest element with an action that contains pt.
func hit(v *view, pt image.Point) *view {
	if v == nil || !pt.In(v.clip) {
		return nil
	}
	for i := len(v.kids) - 1; i >= 0; i-- { // later children draw on top
		if h := hit(v.kids[i], pt); h != nil {
			return h
		}
	}
	if v.n.OnTap != nil || v.typ == "textfield" || v.typ == "checkbox" || v.typ == "switch" || (v.typ == "iconButton" && v.n.Field != "") {
		return v
	}
	return nil
}

func (se *Session) activateLocked(v *view, st *screenState) {
	key := v.n.key()
	switch v.typ {
	case "textfield":
		st.focus = key
	case "checkbox", "switch", "iconButton":
		if key != "" {
			st.checks[key] = !v.checked
		}
	}
	if v.typ != "textfield" {
		st.focus = ""
	}
	t := v.n.OnTap
	if t == nil {
		return
	}
	top := se.stack[len(se.stack)-1]
	switch {
	case t.PopTo != "":
		top.dialog, top.dst = "", nil
		for len(se.stack) > 1 && se.stack[len(se.stack)-1].screen != t.PopTo {
			se.stack = se.stack[:len(se.stack)-1]
		}
	case t.Back:
		se.backLocked()
	case t.Home:
		se.foreground = false
	case t.Dialog != "":
		top.dialog, top.dst = t.Dialog, newScreenState(v.vars)
	case t.Select != "":
		st.fields[t.Select] = v.vars["index"]
	case t.Navigate != "":
		if top.dialog != "" {
			top.dialog, top.dst = "", nil
		}
		args := v.vars
		if len(args) == 0 {
			args = top.args // a dialog's button carries the screen's arguments on
		}
		e := newEntry(t.Navigate, args)
		if t.Replace {
			se.stack[len(se.stack)-1] = e
		} else {
			se.stack = append(se.stack, e)
		}
	}
}

// backLocked is KEYCODE_BACK: close the dialog, clear focus, pop the stack;
// on the root screen the task moves to the background (Android 12+).
func (se *Session) backLocked() {
	if !se.foreground || len(se.stack) == 0 {
		return
	}
	top := se.stack[len(se.stack)-1]
	switch {
	case top.dialog != "":
		top.dialog, top.dst = "", nil
	case top.st.focus != "":
		top.st.focus = "" // the first back hides the keyboard
	case len(se.stack) > 1:
		se.stack = se.stack[:len(se.stack)-1]
	default:
		se.foreground = false
	}
}

func (se *Session) launchLocked() {
	if !se.running || len(se.stack) == 0 {
		se.stack = []*entry{newEntry(se.sc.Start, nil)}
	}
	se.running, se.foreground = true, true
}

// Swipe performs `input swipe`: an upward swipe unlocks the keyguard; inside a
// scrollable list the list follows the finger over the swipe's duration, a step per
// display frame, and a quick swipe flings it on as far again, slowing down. The call
// returns when the list has come to rest, so a capture after it sees where it stopped.
func (se *Session) Swipe(x1, y1, x2, y2 int, d time.Duration) bool {
	var scroll func(offset int) bool
	from, to := 0, 0
	changed := se.act(func(r *rendered) {
		if !se.screenOn {
			return
		}
		if se.locked {
			if y1-y2 > se.sc.Px(48) {
				se.locked = false
			}
			return
		}
		if !se.foreground || len(se.stack) == 0 {
			return
		}
		top := se.stack[len(se.stack)-1]
		root, st := r.base, top.st
		if r.dialog != nil {
			root, st = r.dialog, top.dst
		}
		l := scrollable(root, image.Pt(x1, y1))
		if l == nil {
			return
		}
		delta, span := y1-y2, l.r.Dy()
		if l.typ == "hlist" {
			delta, span = x1-x2, l.r.Dx()
		}
		key, limit := l.n.key(), max(l.content-span, 0)
		// The steps below apply only while the same screen state is on top: a tap or
		// a navigation in between ends the gesture.
		scroll = func(offset int) bool {
			if len(se.stack) == 0 || (se.stack[len(se.stack)-1].st != st && se.stack[len(se.stack)-1].dst != st) {
				return false
			}
			st.scrolls[key] = clampInt(offset, 0, limit)
			return true
		}
		from = l.scroll
		to = clampInt(from+delta, 0, limit)
		if d <= frameStep {
			scroll(to) // a swipe shorter than a frame lands at once
		}
	})
	if scroll == nil || d <= frameStep || from == to {
		return changed
	}
	// The finger's part: linear, as input swipe moves it.
	steps := int(d / frameStep)
	if !se.animate(steps, func(i int) bool { return scroll(from + (to-from)*i/steps) }) {
		return true
	}
	// A fling (a swipe under 150 ms) travels as far again after the finger lifts.
	if d < 150*time.Millisecond {
		flingTo := to + (to - from)
		const flingSteps = 15 // a quarter second at 60 Hz
		se.animate(flingSteps, func(i int) bool {
			t := float64(i) / flingSteps
			return scroll(to + int(float64(flingTo-to)*(1-(1-t)*(1-t))))
		})
	}
	return true
}

// frameStep is one display frame at 60 Hz: the pace of animated changes.
const frameStep = time.Second / 60

// animate applies step(1..n), one per display frame, each under the lock as its own
// visible change; it stops early and reports false when a step no longer applies.
func (se *Session) animate(n int, step func(i int) bool) bool {
	next := time.Now()
	for i := 1; i <= n; i++ {
		next = next.Add(frameStep)
		time.Sleep(time.Until(next))
		ok := true
		se.mutate(func() { ok = step(i) })
		if !ok {
			return false
		}
	}
	return true
}

func scrollable(v *view, pt image.Point) *view {
	if v == nil || !pt.In(v.clip) {
		return nil
	}
	for i := len(v.kids) - 1; i >= 0; i-- {
		if s := scrollable(v.kids[i], pt); s != nil {
			return s
		}
	}
	if v.typ == "list" || v.typ == "hlist" {
		return v
	}
	return nil
}

// keycodes maps names and numbers `input keyevent` accepts to names.
var keycodes = map[string]string{
	"3": "HOME", "4": "BACK", "26": "POWER", "82": "MENU", "224": "WAKEUP", "223": "SLEEP",
	"66": "ENTER", "67": "DEL", "187": "APP_SWITCH", "111": "ESCAPE",
}

// Key performs `input keyevent CODE` (KEYCODE_BACK, BACK or 4 …).
func (se *Session) Key(code string) bool {
	name := strings.TrimPrefix(strings.ToUpper(code), "KEYCODE_")
	if n, ok := keycodes[name]; ok {
		name = n
	}
	return se.mutate(func() {
		switch name {
		case "POWER":
			if se.screenOn {
				se.screenOn, se.locked = false, true
			} else {
				se.screenOn = true
			}
		case "WAKEUP":
			se.screenOn = true
		case "SLEEP":
			se.screenOn, se.locked = false, true
		}
		if !se.screenOn {
			return
		}
		switch name {
		case "MENU":
			se.locked = false
		case "HOME":
			if !se.locked {
				se.foreground = false
			}
		case "BACK", "ESCAPE":
			if !se.locked {
				se.backLocked()
			}
		case "ENTER":
			if st := se.focusedLocked(); st != nil {
				st.focus = ""
			}
		case "DEL":
			if st := se.focusedLocked(); st != nil {
				r := []rune(st.fields[st.focus])
				if len(r) > 0 {
					st.fields[st.focus] = string(r[:len(r)-1])
				}
			}
		}
	})
}

func (se *Session) focusedLocked() *screenState {
	if se.locked || !se.foreground || len(se.stack) == 0 {
		return nil
	}
	top := se.stack[len(se.stack)-1]
	st := top.st
	if top.dialog != "" {
		st = top.dst
	}
	if st.focus == "" {
		return nil
	}
	return st
}

// InputText performs `input text`: it appends text to the focused field. It
// reports whether a field took the text.
func (se *Session) InputText(text string) bool {
	return se.mutate(func() {
		if !se.screenOn {
			return
		}
		if st := se.focusedLocked(); st != nil {
			st.fields[st.focus] += text
		}
	})
}

// StartActivity performs `am start -n PKG/CLASS` (or `monkey -p PKG` with the
// launcher activity): it brings the app to front on the matching screen.
func (se *Session) StartActivity(component string) error {
	pkg, cls, ok := strings.Cut(component, "/")
	if !ok {
		pkg, cls = component, se.sc.App.LauncherActivity
	}
	if pkg != se.sc.App.Package {
		return fmt.Errorf("start activity %s: package %s is not installed", component, pkg)
	}
	full := se.sc.qualify(cls)
	var target string
	if full == se.sc.qualify(se.sc.App.LauncherActivity) {
		target = se.sc.Start
	} else {
		for _, id := range sortedScreens(se.sc) {
			if sc := se.sc.Screens[id]; !sc.Dialog && se.sc.qualify(sc.Activity) == full {
				target = id
				break
			}
		}
	}
	if target == "" {
		return fmt.Errorf("start activity %s: activity class %s does not exist", component, full)
	}
	se.mutate(func() {
		if target == se.sc.Start {
			se.launchLocked()
		} else {
			if !se.running {
				se.stack = nil
			}
			se.stack = append(se.stack, newEntry(target, nil))
			se.running, se.foreground = true, true
		}
	})
	return nil
}

// ForceStop performs `am force-stop PKG`: the app's process and task go away.
func (se *Session) ForceStop(pkg string) {
	if pkg != se.sc.App.Package {
		return
	}
	se.mutate(func() {
		se.running, se.foreground, se.stack = false, false, nil
	})
}

// SetRotation turns the display (0-3 quarter turns): odd rotations lay the screens
// out in landscape, as an app that follows the sensor does.
func (se *Session) SetRotation(r int) bool {
	return se.mutate(func() { se.rotation = ((r % 4) + 4) % 4 })
}

// SetDisplay changes the display conditions every screen is drawn under; it
// reports whether anything visible changed.
func (se *Session) SetDisplay(d Display) bool {
	return se.mutate(func() { se.display = d })
}

// Display returns the display conditions in effect.
func (se *Session) Display() Display {
	se.mu.Lock()
	defer se.mu.Unlock()
	return se.display
}

func sortedScreens(s *Scenario) []string {
	return slices.Sorted(maps.Keys(s.Screens))
}
