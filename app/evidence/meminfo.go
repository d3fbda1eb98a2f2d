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

// ParseMeminfo reads `dumpsys meminfo <pkg>`: the record of the package's main
// process, else the first record that has figures (an app may print one per
// process: com.x, com.x:remote). A record with a header and no figures is an error
// naming it, never a silent zero.
func ParseMeminfo(text string) (MemorySummary, error) {
	return readRecords(text, memHeader, meminfoRecord, "no TOTAL line")
}

// meminfoRecord reads one process's record; ok is false when it has no total.
func meminfoRecord(r processRecord) (MemorySummary, bool) {
	s := MemorySummary{Pid: r.pid}
	total := -1
	for _, re := range []*regexp.Regexp{totalPSS, summaryTotal, tableTotal} {
		if m := re.FindStringSubmatch(r.text); m != nil {
			total = kb(m[1])
			break
		}
	}
	if total < 0 {
		return MemorySummary{}, false
	}
	s.TotalPSSKB = total
	if m := javaHeap.FindStringSubmatch(r.text); m != nil {
		v := kb(m[1])
		s.JavaHeapKB = &v
	}
	if m := nativeHeap.FindStringSubmatch(r.text); m != nil {
		v := kb(m[1])
		s.NativeHeapKB = &v
	}
	return s, true
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
