package evidence

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"fixthis/app/errcode"
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

// readRecords reads a dumpsys output printed a record per process: the record of
// the package's main process, else the first record read finds figures in. A
// record with a header and no figures is an ErrUnparsable naming its pid and
// process, never a silent zero; missing says what it lacks ("no TOTAL line").
func readRecords[S any](text string, header *regexp.Regexp, read func(processRecord) (S, bool), missing string) (S, error) {
	var none S
	if noProcess.MatchString(text) {
		return none, ErrNoProcess
	}
	recs := mainFirst(processRecords(text, header))
	for _, r := range recs {
		if s, ok := read(r); ok {
			return s, nil
		}
	}
	r := recs[0]
	if r.process == "" {
		return none, fmt.Errorf("%w: %s in %s", ErrUnparsable, missing, errcode.Quote(strings.TrimSpace(text)))
	}
	return none, fmt.Errorf("%w: the record of pid %d [%s] has %s", ErrUnparsable, r.pid, r.process, missing)
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
