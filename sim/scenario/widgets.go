package scenario

import (
	"strconv"
	"strings"
)

// screenState is what a screen shows besides its layout: navigation arguments,
// text field values, toggles, scroll offsets and the focused field.
type screenState struct {
	args    map[string]string
	fields  map[string]string
	checks  map[string]bool
	scrolls map[string]int
	focus   string
}

// builder turns a layout Element tree into a view tree, expanding forEach,
// filling placeholders and desugaring widgets into layout primitives with
// Material 3 defaults.
type builder struct {
	sc      *Scenario
	st      *screenState
	widthDp float64 // the window's width, which adaptive nodes branch on
}

func (b *builder) build(n *Element, vars map[string]string) []*view {
	if !n.fitsWidth(b.widthDp) {
		return nil
	}
	if name, i, ok := itemRef(n.Item); ok && i < len(b.sc.Data[name]) {
		if sel, err := strconv.Atoi(b.st.fields[n.ItemFrom]); n.ItemFrom != "" && err == nil && sel >= 0 && sel < len(b.sc.Data[name]) {
			i = sel
		}
		vars = mergeVars(vars, b.sc.Data[name][i])
	}
	if n.ForEach != "" {
		var out []*view
		for i, item := range b.sc.Data[n.ForEach] {
			iv := mergeVars(vars, item)
			iv["index"] = strconv.Itoa(i)
			iv["position"] = strconv.Itoa(i + 1)
			tmpl := *n
			tmpl.ForEach = ""
			out = append(out, b.build(&tmpl, iv)...)
		}
		return out
	}
	in := n.instance(vars)
	if t := in.OnTap; t != nil && t.Select != "" {
		// Decided as the layout is composed, as TrailListScreen.kt's onCardClick
		// does (twoPane = widthClass != COMPACT): a window of 600 dp or more
		// selects, a narrower one navigates; COMPACT is androidx.window's
		// WindowWidthSizeClass below 600 dp. The simulation keeps the selection as a
		// position in the list, the Kotlin as the trail's id: the two agree while
		// the list is the scenario's fixed, unfiltered one.
		if b.widthDp >= t.SelectFromDp {
			t.Navigate = ""
		} else {
			t.Select = ""
		}
	}
	v := &view{typ: in.Type, n: in, vars: vars}
	for _, c := range n.Children {
		v.kids = append(v.kids, b.build(c, vars)...)
	}
	b.desugar(v)
	return []*view{v}
}

func (b *builder) desugar(v *view) {
	n := v.n
	key := n.key()
	switch n.Type {
	case "column", "card", "list":
		v.kind = "col"
		if n.Type == "card" {
			setDefault(&n.Background, "surfaceContainerLow")
			if n.Radius == 0 {
				n.Radius = 16
			}
		}
		if n.Type == "list" {
			v.scroll = b.st.scrolls[key]
		}
	case "row", "hlist":
		v.kind = "row"
		if n.Type == "hlist" {
			v.scroll = b.st.scrolls[key]
		}
	case "box":
		v.kind = "box"
	case "text":
		v.kind = "text"
		v.text = n.Text
		setDefault(&n.Style, "bodyLarge")
		setDefault(&n.Color, "onSurface")
	case "icon":
		v.kind = "icon"
		setDefault(&n.Color, "onSurfaceVariant")
	case "photo", "divider", "spacer":
		v.kind = "box"
		if n.Type == "divider" {
			n.Height = Dim{DP: 1, Set: true}
			if !n.Width.Set {
				n.Width = Dim{Fill: true, Set: true}
			}
			setDefault(&n.Background, "outlineVariant")
		}
	case "avatar":
		v.kind = "box"
		n.Align = "center"
		s := orDefault(n.Size, 40)
		n.Width, n.Height, n.Radius = dp(s), dp(s), s/2
		setDefault(&n.Background, "tertiaryContainer")
		v.kids = append(v.kids, b.label(n.Text, "titleMedium", "onTertiaryContainer", hideAlways))
	case "iconButton":
		v.kind = "box"
		n.Align = "center"
		// 48 dp, Material's minimum touch target; a screen may shrink it the way an
		// app's Modifier.size does (the demo's search button keeps such a flaw).
		if !n.Width.Set {
			n.Width = dp(48)
		}
		if !n.Height.Set {
			n.Height = dp(48)
		}
		n.Clickable = true
		if n.Radius == 0 {
			n.Radius = 24
		}
		color, variant := orStr(n.Color, "onSurfaceVariant"), n.Variant
		if n.Field != "" { // a toggle icon button (favourite): filled and tinted when on
			v.checked = n.Checked
			if c, ok := b.st.checks[n.Field]; ok {
				v.checked = c
			}
			if v.checked {
				color, variant = "primary", "filled"
			}
		}
		ic := &view{typ: "icon", kind: "icon", hide: hideInViews, vars: v.vars, n: &Element{
			Type: "icon", Icon: n.Icon, Size: orDefault(n.Size, 24), Color: color,
			ContentDescription: n.ContentDescription, Variant: variant,
		}}
		n.ContentDescription = ""
		v.kids = append(v.kids, ic)
	case "button":
		v.kind = "row"
		n.Clickable = true
		if !n.Height.Set {
			n.Height = dp(40)
		}
		if n.Padding == (Insets{}) {
			n.Padding = Insets{L: 24, R: 24}
		}
		n.Arrange, n.Gap = "center", 8
		if n.Radius == 0 {
			n.Radius = 20
		}
		fg := "onPrimary"
		switch n.Variant {
		case "", "filled":
			setDefault(&n.Background, "primary")
		case "tonal":
			setDefault(&n.Background, "secondaryContainer")
			fg = "onSecondaryContainer"
		case "outlined":
			setDefault(&n.Border, "outline")
			fg = "primary"
		case "text":
			n.Padding = Insets{L: 12, R: 12}
			fg = "primary"
		case "danger":
			setDefault(&n.Background, "error")
			fg = "onError"
		}
		fg = orStr(n.Color, fg)
		if n.Icon != "" {
			v.kids = append(v.kids, &view{typ: "icon", kind: "icon", hide: hideAlways, n: &Element{Type: "icon", Icon: n.Icon, Size: 18, Color: fg}})
		}
		v.kids = append(v.kids, b.label(n.Text, "labelLarge", fg, hideInViews))
		v.text = n.Text
	case "fab":
		v.kind = "row"
		n.Clickable = true
		n.Height = dp(56)
		n.Radius, n.Elevation = 16, 3
		n.Arrange, n.Gap = "center", 12
		setDefault(&n.Background, "primaryContainer")
		fg := orStr(n.Color, "onPrimaryContainer")
		if n.Text == "" {
			n.Width = dp(56)
		} else {
			n.Padding = Insets{L: 16, R: 20}
		}
		v.kids = append(v.kids, &view{typ: "icon", kind: "icon", hide: hideAlways, n: &Element{Type: "icon", Icon: n.Icon, Size: 24, Color: fg}})
		if n.Text != "" {
			v.kids = append(v.kids, b.label(n.Text, "labelLarge", fg, hideInViews))
		}
		v.text = n.Text
	case "textfield":
		b.textField(v, key)
	case "checkbox", "switch":
		v.kind = "row"
		n.Clickable = true
		n.Gap = 12
		v.checked = n.Checked
		if c, ok := b.st.checks[key]; ok {
			v.checked = c
		}
		if !n.Width.Set {
			n.Width = Dim{Fill: true, Set: true}
		}
		if !n.Height.Set {
			n.Height = dp(48)
		}
		mark := &view{typ: "mark", kind: "box", hide: hideAlways, checked: v.checked, n: &Element{Type: n.Type}}
		if n.Type == "checkbox" {
			mark.n.Width, mark.n.Height = dp(18), dp(18)
		} else {
			mark.n.Width, mark.n.Height = dp(52), dp(32)
		}
		lbl := b.label(n.Label, orStr(n.Style, "bodyLarge"), "onSurface", hideInViews)
		lbl.n.Weight = 1
		if n.Type == "checkbox" {
			v.kids = append(v.kids, mark, lbl)
		} else {
			v.kids = append(v.kids, lbl, mark)
		}
		v.text = n.Label
	case "chip":
		v.kind = "row"
		n.Clickable = true
		n.Height = dp(32)
		n.Radius = 8
		n.Gap = 8
		n.Padding = Insets{L: 16, R: 16}
		fg := "onSurfaceVariant"
		if n.Selected {
			n.Padding.L = 8
			setDefault(&n.Background, "secondaryContainer")
			fg = "onSecondaryContainer"
			v.kids = append(v.kids, &view{typ: "icon", kind: "icon", hide: hideAlways, n: &Element{Type: "icon", Icon: "check", Size: 18, Color: fg}})
		} else {
			setDefault(&n.Border, "outlineVariant")
		}
		v.kids = append(v.kids, b.label(n.Text, "labelLarge", fg, hideInViews))
		v.text = n.Text
	case "navItem":
		v.kind = "col"
		n.Clickable = true
		n.Align, n.Gap = "center", 4
		n.Padding = Insets{T: 12, B: 16}
		if n.Weight == 0 && !n.Width.Set {
			n.Weight = 1
		}
		ind := &view{typ: "indicator", kind: "box", hide: hideAlways, n: &Element{Type: "box", Width: dp(64), Height: dp(32), Radius: 16, Align: "center"}}
		fg := "onSurfaceVariant"
		if n.Selected {
			ind.n.Background = "secondaryContainer"
			fg = "onSecondaryContainer"
		}
		ind.kids = []*view{{typ: "icon", kind: "icon", hide: hideAlways, n: &Element{Type: "icon", Icon: n.Icon, Size: 24, Color: fg, Variant: map[bool]string{true: "filled"}[n.Selected]}}}
		v.kids = append(v.kids, ind, b.label(n.Text, "labelMedium", orStr(map[bool]string{true: "onSurface"}[n.Selected], "onSurfaceVariant"), hideInViews))
		v.text = n.Text
	}
}

func (b *builder) textField(v *view, key string) {
	n := v.n
	v.kind = "col"
	n.Clickable = true
	if !n.Width.Set {
		n.Width = Dim{Fill: true, Set: true}
	}
	n.Height = dp(64)
	n.Padding = Insets{L: 16, T: 10, R: 16, B: 10}
	n.Radius = 12
	n.Arrange = "center"
	setDefault(&n.Background, "surfaceContainerHighest")
	val, ok := b.st.fields[key]
	if !ok {
		val = n.Value
	}
	v.focused = b.st.focus == key && key != ""
	shown := val
	if n.Password {
		shown = strings.Repeat("•", len([]rune(val)))
	}
	v.text = shown
	lblColor := "onSurfaceVariant"
	if v.focused {
		lblColor = "primary"
	}
	if val == "" && !v.focused { // the label sits where the value will be
		v.kids = append(v.kids, b.label(n.Label, "bodyLarge", "onSurfaceVariant", hideInViews))
		return
	}
	v.kids = append(v.kids, b.label(n.Label, "bodySmall", lblColor, hideInViews))
	vt := b.label(shown, "bodyLarge", "onSurface", hideAlways)
	vt.focused = v.focused
	vt.n.Width = Dim{Fill: true, Set: true} // room for the cursor after the text
	v.kids = append(v.kids, vt)
}

func (b *builder) label(text, style, color string, hide int) *view {
	return &view{typ: "text", kind: "text", hide: hide, text: text, n: &Element{Type: "text", Text: text, Style: style, Color: color, MaxLines: 1}}
}

func setDefault(p *string, v string) {
	if *p == "" {
		*p = v
	}
}

func orStr(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func dp(v float64) Dim { return Dim{DP: v, Set: true} }
