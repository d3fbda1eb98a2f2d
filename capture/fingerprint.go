package capture

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// Fingerprint identifies a screen three ways:
//
//   - Structural: the upstream FixThis fingerprint, the first 16 hex digits of
//     sha256("activity|orientation|W×H@dpi|windowMode|systemUiKind"). It notices an
//     Activity change, a rotation, a resize, a split screen or a system dialog.
//   - Perceptual: the 64-bit dHash of the frame (16 hex). It changes with pixels,
//     including animations and clocks, so it is for skipping unchanged preview
//     frames, not for deciding that the screen moved on.
//   - Structure: a hash of the UI tree's shape (see StructureHash). It notices a
//     navigation inside one Activity, which Structural cannot see.
type Fingerprint struct {
	Structural string `json:"structural"`
	Perceptual string `json:"perceptual"`
	Structure  string `json:"structure"`
}

// ScreenInfo are the inputs of the structural fingerprint.
type ScreenInfo struct {
	Activity     string // fully qualified class name
	Orientation  string // PORTRAIT | LANDSCAPE
	Width        int
	Height       int
	Density      int
	WindowMode   string // FULLSCREEN | MULTI_WINDOW | PINNED | FREEFORM
	SystemUIKind string // "" | ime | permission_dialog | notification_shade
}

// StructuralHash reproduces the upstream computation byte for byte, including the
// "null" an unknown size prints as, and returns "" when nothing is known.
func StructuralHash(s ScreenInfo) string {
	num := func(v int) string {
		if v <= 0 {
			return "null"
		}
		return strconv.Itoa(v)
	}
	parts := []string{
		s.Activity,
		s.Orientation,
		num(s.Width) + "×" + num(s.Height) + "@" + num(s.Density),
		s.WindowMode,
		s.SystemUIKind,
	}
	known := false
	for _, p := range parts {
		if p != "" && !strings.Contains(p, "null") {
			known = true
		}
	}
	if !known {
		return ""
	}
	sum := sha256.Sum256([]byte(strings.Join(parts, "|")))
	return hex.EncodeToString(sum[:8])
}

// structureGrid is the quantisation step of bounds in the structure hash, in pixels.
const structureGrid = 24

// StructureHash hashes the shape of a UI tree: for every node its index path, class,
// resource-id (which carries Compose test tags) and bounds snapped to a 24-px grid.
// Texts, descriptions and state flags are left out on purpose: a clock ticking, a
// counter or a toggled switch is still the same screen. For nodes with text the width
// is left out too, because a wrap-content label grows with its text. A navigation,
// even inside one Activity, replaces classes, ids and positions, and changes the hash.
func StructureHash(nodes []Node) string {
	if len(nodes) == 0 {
		return ""
	}
	h := sha256.New()
	buf := make([]byte, 0, 256)
	q := func(v int) int {
		if v < 0 {
			return -((-v + structureGrid/2) / structureGrid)
		}
		return (v + structureGrid/2) / structureGrid
	}
	for _, n := range nodes {
		b := n.Bounds
		buf = append(buf[:0], n.IndexPath...)
		buf = append(buf, '|')
		buf = append(buf, n.Class...)
		buf = append(buf, '|')
		buf = append(buf, n.ResourceID...)
		buf = append(buf, '|')
		buf = strconv.AppendInt(buf, int64(q(b.Left)), 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(q(b.Top)), 10)
		buf = append(buf, ',')
		if n.Text == "" && !n.Redacted {
			buf = strconv.AppendInt(buf, int64(q(b.Right)), 10)
		}
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(q(b.Bottom)), 10)
		buf = append(buf, '\n')
		h.Write(buf)
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// String is the compact form the console keeps as frozenFingerprint:
// "structural:structure". The perceptual hash is left out because it changes with
// every animation frame; ParseFingerprint reads both forms back.
func (f Fingerprint) String() string {
	if f.Structural == "" && f.Structure == "" {
		return ""
	}
	return f.Structural + ":" + f.Structure
}

// ParseFingerprint reads what String wrote, optionally followed by ":perceptual".
func ParseFingerprint(s string) (Fingerprint, error) {
	if s == "" {
		return Fingerprint{}, nil
	}
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return Fingerprint{}, fmt.Errorf("fingerprint %q: want structural:structure[:perceptual]", s)
	}
	for _, p := range parts {
		if p != "" && !isHex16(p) {
			return Fingerprint{}, fmt.Errorf("fingerprint %q: part %q is not 16 hex digits", s, p)
		}
	}
	f := Fingerprint{Structural: parts[0], Structure: parts[1]}
	if len(parts) == 3 {
		f.Perceptual = parts[2]
	}
	return f, nil
}

func isHex16(s string) bool {
	if len(s) != 16 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// maxPerceptualDistance is how many of 64 bits may differ for two frames to count
// as the same screen when only the perceptual hash can be compared.
const maxPerceptualDistance = 10

// Matches reports whether other is the same screen. Structural hashes must agree
// when both are known, and so must structure hashes; when neither side has a
// structure hash, close perceptual hashes decide. Two fingerprints with nothing in
// common to compare do not match.
func (f Fingerprint) Matches(other Fingerprint) bool {
	compared := false
	if f.Structural != "" && other.Structural != "" {
		if f.Structural != other.Structural {
			return false
		}
		compared = true
	}
	if f.Structure != "" && other.Structure != "" {
		return f.Structure == other.Structure
	}
	if f.Perceptual != "" && other.Perceptual != "" {
		a, errA := strconv.ParseUint(f.Perceptual, 16, 64)
		b, errB := strconv.ParseUint(other.Perceptual, 16, 64)
		if errA == nil && errB == nil {
			return HammingDistance(a, b) <= maxPerceptualDistance
		}
	}
	return compared
}
