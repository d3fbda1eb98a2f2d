package evidence

import (
	"regexp"
	"strconv"
	"strings"
)

// processRecord is one process's part of a dumpsys output that prints a record per
// process of the package ("** MEMINFO in pid 4120 [com.x] **", "** Graphics info
// for pid 4120 [com.x:remote] **").
type processRecord struct {
	pid     int
	process string
	text    string // from the line after the header to the next header
}

// processRecords splits text at its record headers. What comes before the first
// header (the "Applications Memory Usage" banner, the uptime) belongs to no record.
// A text with no header at all is one record of an unknown process: some builds
// and grep'd outputs print the figures alone.
func processRecords(text string, header *regexp.Regexp) []processRecord {
	text = strings.ReplaceAll(text, "\r", "")
	idx := header.FindAllStringSubmatchIndex(text, -1)
	if len(idx) == 0 {
		return []processRecord{{text: text}}
	}
	recs := make([]processRecord, 0, len(idx))
	for i, m := range idx {
		end := len(text)
		if i+1 < len(idx) {
			end = idx[i+1][0]
		}
		pid, _ := strconv.Atoi(text[m[2]:m[3]])
		recs = append(recs, processRecord{pid: pid, process: text[m[4]:m[5]], text: text[m[1]:end]})
	}
	return recs
}

// mainFirst orders the records so that the package's main process (a name without
// ":") comes first, the others in the order dumpsys printed them.
func mainFirst(recs []processRecord) []processRecord {
	out := make([]processRecord, 0, len(recs))
	for _, r := range recs {
		if !strings.Contains(r.process, ":") {
			out = append(out, r)
		}
	}
	for _, r := range recs {
		if strings.Contains(r.process, ":") {
			out = append(out, r)
		}
	}
	return out
}

// excerptMax bounds how much of an output an error quotes.
const excerptMax = 80

// excerpt quotes the start of s for an error message, never all of a huge output.
func excerpt(s string) string {
	s = strings.TrimSpace(s)
	if len(s) <= excerptMax {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:excerptMax]) + " (" + strconv.Itoa(len(s)) + " bytes)"
}
