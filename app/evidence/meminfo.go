package evidence

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// MemorySummary is what `dumpsys meminfo <pkg>` reports, in KB as printed.
// The heap figures come from the App Summary section (Android 6+); older
// versions print none and leave them nil.
type MemorySummary struct {
	Pid          int  `json:"pid,omitempty"`
	TotalPSSKB   int  `json:"totalPssKb"`
	JavaHeapKB   *int `json:"javaHeapKb,omitempty"`
	NativeHeapKB *int `json:"nativeHeapKb,omitempty"`
}

var (
	memHeader = regexp.MustCompile(`(?m)^\*\* MEMINFO in pid (\d+) \[([^\]]+)\] \*\*`)
	// Android 9+: `TOTAL PSS:    53537            TOTAL RSS: ...`.
	totalPSS = regexp.MustCompile(`(?m)^\s*TOTAL PSS:\s+([\d,]+)`)
	// Android 6-8 App Summary: `TOTAL:   145991      TOTAL SWAP (KB): ...`.
	summaryTotal = regexp.MustCompile(`(?m)^\s*TOTAL:\s+([\d,]+)`)
	// Every version's table row: `        TOTAL    44563    36396 ...`; its
	// first column is Pss Total.
	tableTotal = regexp.MustCompile(`(?m)^\s*TOTAL\s+([\d,]+)\s`)
	javaHeap   = regexp.MustCompile(`(?m)^\s*Java Heap:\s+([\d,]+)`)
	nativeHeap = regexp.MustCompile(`(?m)^\s*Native Heap:\s+([\d,]+)`)
)

// ParseMeminfo reads `dumpsys meminfo <pkg>`.
func ParseMeminfo(text string) (MemorySummary, error) {
	if noProcess.MatchString(text) {
		return MemorySummary{}, ErrNoProcess
	}
	var s MemorySummary
	if m := memHeader.FindStringSubmatch(text); m != nil {
		s.Pid, _ = strconv.Atoi(m[1])
	}
	total := -1
	for _, re := range []*regexp.Regexp{totalPSS, summaryTotal, tableTotal} {
		if m := re.FindStringSubmatch(text); m != nil {
			total = kb(m[1])
			break
		}
	}
	if total < 0 {
		return MemorySummary{}, ErrUnparsable
	}
	s.TotalPSSKB = total
	if m := javaHeap.FindStringSubmatch(text); m != nil {
		v := kb(m[1])
		s.JavaHeapKB = &v
	}
	if m := nativeHeap.FindStringSubmatch(text); m != nil {
		v := kb(m[1])
		s.NativeHeapKB = &v
	}
	return s, nil
}

func kb(s string) int {
	n, _ := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	return n
}

// Line renders the summary as one bounded line.
func (s MemorySummary) Line() string {
	line := fmt.Sprintf("TOTAL PSS %d KB", s.TotalPSSKB)
	var heaps []string
	if s.JavaHeapKB != nil {
		heaps = append(heaps, fmt.Sprintf("Java heap %d KB", *s.JavaHeapKB))
	}
	if s.NativeHeapKB != nil {
		heaps = append(heaps, fmt.Sprintf("native heap %d KB", *s.NativeHeapKB))
	}
	if len(heaps) > 0 {
		line += " (" + strings.Join(heaps, ", ") + ")"
	}
	return oneLine(line)
}
