package evidence

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// FrameSummary is what `dumpsys gfxinfo <pkg>` reports about rendering since
// the app's stats were last reset. Fields an Android version does not print
// stay nil: KitKat has neither jank figures nor percentiles, Android 6 has no
// 50th percentile.
type FrameSummary struct {
	Pid          int      `json:"pid,omitempty"`
	TotalFrames  int      `json:"totalFrames"`
	JankyFrames  *int     `json:"jankyFrames,omitempty"`
	JankyPercent *float64 `json:"jankyPercent,omitempty"` // as printed, e.g. 16.28
	P50Ms        *int     `json:"p50Ms,omitempty"`
	P90Ms        *int     `json:"p90Ms,omitempty"`
	P95Ms        *int     `json:"p95Ms,omitempty"`
	P99Ms        *int     `json:"p99Ms,omitempty"`
}

// ErrNoProcess means dumpsys found no process for the package: the app is
// not running (never started, stopped, or crashed).
var ErrNoProcess = errors.New("no process found for the package")

// ErrUnparsable means the output has none of the figures the parser knows.
var ErrUnparsable = errors.New("output has no figures the parser recognises")

var (
	noProcess   = regexp.MustCompile(`(?m)^No process found for: (\S+)`)
	gfxHeader   = regexp.MustCompile(`(?m)^\*\* Graphics info for pid (\d+) \[([^\]]+)\] \*\*`)
	totalFrames = regexp.MustCompile(`(?m)^Total frames rendered: (\d+)`)
	jankyFrames = regexp.MustCompile(`(?m)^Janky frames: (\d+) \(([\d.]+)%\)`)
	percentile  = regexp.MustCompile(`(?m)^(50|90|95|99)th percentile: (\d+)ms`)
	// KitKat prints frames per window in its view hierarchy section:
	// `41 views, 1.36 kB of display lists, 191 frames rendered`.
	windowFrames = regexp.MustCompile(`(?m)^\s+\d+ views, .* (\d+) frames rendered\s*$`)
	// Android 10+ starts each window's repeat of the statistics with its name.
	windowBlock = regexp.MustCompile(`(?m)^Window: `)
)

// ParseGfxinfo reads `dumpsys gfxinfo <pkg>`: the record of the package's main
// process, else the first record with figures. Inside a record the process's
// statistics come first; the per-window blocks after "Window:" (Android 10+)
// repeat them for each window and are not read.
func ParseGfxinfo(text string) (FrameSummary, error) {
	return readRecords(text, gfxHeader, gfxinfoRecord, "no frame count")
}

// gfxinfoRecord reads one process's record; ok is false when it counts no frames.
func gfxinfoRecord(r processRecord) (FrameSummary, bool) {
	s := FrameSummary{Pid: r.pid}
	text := r.text
	if i := windowBlock.FindStringIndex(text); i != nil {
		text = text[:i[0]]
	}
	if m := totalFrames.FindStringSubmatch(text); m != nil {
		s.TotalFrames, _ = strconv.Atoi(m[1])
		if m := jankyFrames.FindStringSubmatch(text); m != nil {
			n, _ := strconv.Atoi(m[1])
			p, _ := strconv.ParseFloat(m[2], 64)
			s.JankyFrames, s.JankyPercent = &n, &p
		}
		for _, m := range percentile.FindAllStringSubmatch(text, -1) {
			v, _ := strconv.Atoi(m[2])
			switch m[1] {
			case "50":
				s.P50Ms = &v
			case "90":
				s.P90Ms = &v
			case "95":
				s.P95Ms = &v
			case "99":
				s.P99Ms = &v
			}
		}
		return s, true
	}
	// KitKat counts frames per window in its view hierarchy section only.
	found := false
	for _, m := range windowFrames.FindAllStringSubmatch(r.text, -1) {
		n, _ := strconv.Atoi(m[1])
		s.TotalFrames += n
		found = true
	}
	return s, found
}

// Line renders the summary as one bounded line, with only what was printed.
func (s FrameSummary) Line() string {
	parts := []string{fmt.Sprintf("%d %s", s.TotalFrames, plural(s.TotalFrames, "frame", "frames"))}
	if s.JankyFrames != nil {
		parts[0] += fmt.Sprintf(", %d janky (%s%%)", *s.JankyFrames, strconv.FormatFloat(*s.JankyPercent, 'f', 2, 64))
	} else {
		parts[0] += " (this Android version prints no jank figures)"
	}
	var pcts []string
	for _, p := range []struct {
		name string
		v    *int
	}{{"p50", s.P50Ms}, {"p90", s.P90Ms}, {"p95", s.P95Ms}, {"p99", s.P99Ms}} {
		if p.v != nil {
			pcts = append(pcts, fmt.Sprintf("%s %dms", p.name, *p.v))
		}
	}
	if len(pcts) > 0 {
		parts = append(parts, strings.Join(pcts, " "))
	}
	return oneLine(strings.Join(parts, "; "))
}
