// Package windowplace decides where the desktop window opens: at most 90 % of the
// monitor's work area, centred, or where the user last left it, clamped to the
// monitor it opens on now. It holds no GUI code, so the rules are tested without a
// display; the desktop build asks the window system for the work area.
package windowplace

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Rect is a window's or a work area's position and size, in logical pixels.
type Rect struct {
	X      int `json:"x"`
	Y      int `json:"y"`
	Width  int `json:"width"`
	Height int `json:"height"`
}

// Size is a width and a height in logical pixels.
type Size struct{ Width, Height int }

// MaxShare is the largest part of the work area a first window takes: the rest
// keeps the desktop and the other windows in sight.
const MaxShare = 0.9

// Place returns the window's rectangle on a work area. A saved rectangle keeps its
// size and position where they fit, shrinks to the work area where it does not, and
// moves back inside it; without one the window takes the preferred size, at most
// MaxShare of the work area, centred. The minimum size yields to a small work area:
// a window larger than the screen is the defect this package exists to prevent.
func Place(work Rect, preferred, min Size, saved *Rect) Rect {
	if work.Width <= 0 || work.Height <= 0 {
		return Rect{Width: preferred.Width, Height: preferred.Height}
	}
	if saved != nil && saved.Width > 0 && saved.Height > 0 {
		r := *saved
		r.Width = clamp(r.Width, lesser(min.Width, work.Width), work.Width)
		r.Height = clamp(r.Height, lesser(min.Height, work.Height), work.Height)
		r.X = clamp(r.X, work.X, work.X+work.Width-r.Width)
		r.Y = clamp(r.Y, work.Y, work.Y+work.Height-r.Height)
		return r
	}
	maxW := int(float64(work.Width) * MaxShare)
	maxH := int(float64(work.Height) * MaxShare)
	w := clamp(preferred.Width, lesser(min.Width, maxW), maxW)
	h := clamp(preferred.Height, lesser(min.Height, maxH), maxH)
	return Rect{X: work.X + (work.Width-w)/2, Y: work.Y + (work.Height-h)/2, Width: w, Height: h}
}

// MinFor is the minimum size the window may be given on this work area: the
// preferred minimum, or less where the work area is smaller.
func MinFor(work Rect, min Size) Size {
	if work.Width <= 0 || work.Height <= 0 {
		return min
	}
	return Size{Width: lesser(min.Width, work.Width), Height: lesser(min.Height, work.Height)}
}

func clamp(v, lo, hi int) int {
	if v > hi {
		v = hi
	}
	if v < lo {
		v = lo
	}
	return v
}

func lesser(a, b int) int {
	if a < b {
		return a
	}
	return b
}

// Load reads the saved rectangle; nil when there is none or it cannot be read (a
// window that opens at the default is better than one that does not open).
func Load(path string) *Rect {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var r Rect
	if json.Unmarshal(b, &r) != nil || r.Width <= 0 || r.Height <= 0 {
		return nil
	}
	return &r
}

// Save writes the rectangle atomically, readable by the user only.
func Save(path string, r Rect) error {
	if r.Width <= 0 || r.Height <= 0 {
		return fmt.Errorf("save window place: empty size %dx%d", r.Width, r.Height)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("save window place: %w", err)
	}
	b, _ := json.Marshal(r)
	// A temporary file of its own: two saves at once (a signal and the close button)
	// must not rename each other's file away.
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("save window place: %w", err)
	}
	tmp := f.Name()
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("save window place: %w", err)
	}
	return nil
}

// DefaultPath is where the window's place is kept: in the user's configuration
// folder, so it belongs to this machine and user, not to a project.
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	if dir == "" {
		return "", fs.ErrNotExist
	}
	return filepath.Join(dir, "fixthis", "window.json"), nil
}

// ErrNoWorkArea says the window system did not tell the work area.
var ErrNoWorkArea = errors.New("the window system does not tell the monitor's work area")
