package scenario

import (
	"fmt"
	"image"
	"image/color"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// textStyle is an entry of the Material 3 type scale: size and line height in sp.
type textStyle struct {
	size, line float64
	weight     string
}

var typeScale = map[string]textStyle{
	"displaySmall":   {36, 44, "regular"},
	"headlineMedium": {28, 36, "regular"},
	"headlineSmall":  {24, 32, "regular"},
	"titleLarge":     {22, 28, "regular"},
	"titleMedium":    {16, 24, "medium"},
	"titleSmall":     {14, 20, "medium"},
	"bodyLarge":      {16, 24, "regular"},
	"bodyMedium":     {14, 20, "regular"},
	"bodySmall":      {12, 16, "regular"},
	"labelLarge":     {14, 20, "medium"},
	"labelMedium":    {12, 16, "medium"},
	"labelSmall":     {11, 16, "medium"},
	"clock":          {68, 80, "regular"},
	"statusBar":      {14, 20, "medium"},
}

// fontSet parses the Go fonts once and caches faces per size; faces are not
// safe for concurrent use, so drawing holds the set's lock.
type fontSet struct {
	mu    sync.Mutex
	fonts map[string]*opentype.Font
	faces map[string]font.Face
}

func newFontSet() *fontSet {
	fs := &fontSet{fonts: map[string]*opentype.Font{}, faces: map[string]font.Face{}}
	for name, ttf := range map[string][]byte{"regular": goregular.TTF, "medium": gomedium.TTF, "bold": gobold.TTF} {
		f, err := opentype.Parse(ttf)
		if err != nil {
			// The fonts are compiled in; failing to parse them is a build defect.
			panic(fmt.Sprintf("parse built-in Go font %s: %v", name, err))
		}
		fs.fonts[name] = f
	}
	return fs
}

func (fs *fontSet) style(name string) textStyle {
	if st, ok := typeScale[name]; ok {
		return st
	}
	return typeScale["bodyLarge"]
}

// face returns the face for a style at a density. Go's fonts run wider than
// Roboto, so sizes are scaled down slightly to keep Android-like text widths.
func (fs *fontSet) face(st textStyle, density float64) font.Face {
	key := fmt.Sprintf("%s/%g/%g", st.weight, st.size, density)
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if f, ok := fs.faces[key]; ok {
		return f
	}
	f, err := opentype.NewFace(fs.fonts[st.weight], &opentype.FaceOptions{
		Size: st.size * 0.94 * density / 160, DPI: 72, Hinting: font.HintingNone,
	})
	if err != nil {
		panic(fmt.Sprintf("create font face %s: %v", key, err))
	}
	fs.faces[key] = f
	return f
}

func measureText(face font.Face, s string) int {
	return font.MeasureString(face, s).Ceil()
}

// wrapText breaks s into lines no wider than width, at most maxLines (0: no
// limit); the last kept line is ellipsized when text is cut.
func wrapText(face font.Face, s string, width, maxLines int) []string {
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		words := strings.Fields(para)
		if len(words) == 0 {
			lines = append(lines, "")
			continue
		}
		cur := words[0]
		for _, w := range words[1:] {
			if measureText(face, cur+" "+w) <= width {
				cur += " " + w
				continue
			}
			lines = append(lines, cur)
			cur = w
		}
		lines = append(lines, cur)
	}
	cut := maxLines > 0 && len(lines) > maxLines
	if cut {
		lines = lines[:maxLines]
	}
	last := len(lines) - 1
	if cut || measureText(face, lines[last]) > width {
		lines[last] = ellipsize(face, lines[last], width, cut)
	}
	return lines
}

func ellipsize(face font.Face, s string, width int, force bool) string {
	if !force && measureText(face, s) <= width {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && measureText(face, string(r)+"…") > width {
		r = r[:len(r)-1]
	}
	return strings.TrimRight(string(r), " ") + "…"
}

// drawText draws one line with its top-left at (x, top) in a line box of
// lineH pixels, baseline centred as Android does.
func (fs *fontSet) drawText(dst *image.RGBA, face font.Face, s string, x, top, lineH int, c color.RGBA) {
	m := face.Metrics()
	asc, desc := m.Ascent.Ceil(), m.Descent.Ceil()
	baseline := top + (lineH-(asc+desc))/2 + asc
	fs.mu.Lock()
	defer fs.mu.Unlock()
	d := font.Drawer{Dst: dst, Src: image.NewUniform(c), Face: face, Dot: fixed.P(x, baseline)}
	d.DrawString(s)
}
