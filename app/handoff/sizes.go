package handoff

import (
	"strconv"
	"strings"

	"fixthis/app/store"
)

// SizeResult is one window size an item was checked on (fixthis_check_sizes or the
// console's Check sizes): whether its node was found there and how it sat.
type SizeResult struct {
	Name     string `json:"name"`
	WidthDp  int    `json:"widthDp"`
	HeightDp int    `json:"heightDp"`
	Found    bool   `json:"found"`
	// Clipped: past the screen's edge; CutOff: past one of its containers;
	// Overlapped: other labelled nodes cover part of it.
	Clipped    bool `json:"clipped,omitempty"`
	CutOff     bool `json:"cutOff,omitempty"`
	Overlapped bool `json:"overlapped,omitempty"`
	// Failed: the phone could not show this size or capture it.
	Failed bool `json:"failed,omitempty"`
	// ScreenshotPath is the whole screen at this size.
	ScreenshotPath string `json:"screenshotPath,omitempty"`
}

// maxSizes bounds the sizes one sizes: line names.
const maxSizes = 8

// sizesOf is an item's latest size check for the handoff, with absolute file paths
// as for crops.
func (b *Builder) sizesOf(c *store.SizeCheck) []SizeResult {
	if c == nil {
		return nil
	}
	out := make([]SizeResult, 0, len(c.Sizes))
	for _, s := range c.Sizes {
		r := SizeResult{Name: s.Name, WidthDp: s.WidthDp, HeightDp: s.HeightDp, Found: s.Found, Clipped: s.Clipped,
			CutOff: s.CutOff, Overlapped: len(s.Overlapping) > 0, Failed: s.Error != ""}
		if s.ImageArtifact != "" {
			r.ScreenshotPath, _ = b.Store.ArtifactPath(s.ImageArtifact)
		}
		out = append(out, r)
	}
	return out
}

// renderSizes writes the sizes: line: per size its name, its size in dp and what
// became of the node there, "; " between sizes.
func renderSizes(w *writer, sizes []SizeResult) {
	if len(sizes) == 0 {
		return
	}
	parts := make([]string, 0, min(len(sizes), maxSizes))
	for i, s := range sizes {
		if i == maxSizes {
			break
		}
		p := sizeName(s.Name) + " " + strconv.Itoa(max(s.WidthDp, 0)) + "x" + strconv.Itoa(max(s.HeightDp, 0)) + "dp"
		switch {
		case s.Failed:
			p += " not shown"
		case !s.Found:
			p += " not found"
		default:
			p += " found"
			if s.Clipped {
				p += " clipped"
			}
			if s.CutOff {
				p += " cut-off"
			}
			if s.Overlapped {
				p += " overlapped"
			}
		}
		parts = append(parts, p)
	}
	w.line("  sizes: " + strings.Join(parts, "; "))
}

// sizeName is a size's name as one lowercase token: letters, digits and dashes, at
// most 32 characters ("custom 700x900" → "custom-700x900").
func sizeName(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
		if b.Len() >= 32 {
			break
		}
	}
	if b.Len() == 0 {
		return "size"
	}
	return b.String()
}
