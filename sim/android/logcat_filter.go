package android

import (
	"fmt"
	"strings"
)

// logFilter is logcat's filterspecs, `TAG[:PRIORITY]` arguments and -s, as
// liblog's logprint.cpp keeps them: android_log_addFilterRule puts each rule
// in front of the list, filterPriForTag takes the first rule for a tag (so a
// later rule for the same tag wins), and a tag with no rule uses the global
// priority, `*:P` or -s (logcat.cpp's `case 's'` adds "*:s"), verbose without
// either. An entry shows when its priority is at least its tag's.
type logFilter struct {
	global string            // "" is verbose
	tags   map[string]string // tag -> lowest priority shown
}

// logLevels are the priorities from lowest to highest; S (silent) hides all.
const logLevels = "VDIWEFS"

// filterPriority reads a filterspec's priority letter (filterCharToPri):
// v d i w e f s in either case, and * for debug.
func filterPriority(s string) (string, bool) {
	if s == "*" {
		return "D", true
	}
	if len(s) != 1 {
		return "", false
	}
	p := strings.ToUpper(s)
	return p, strings.Contains(logLevels, p)
}

func (f *logFilter) silent() { f.global = "S" }

// add reads one filterspec; a bad priority is logcat's "Invalid filter
// expression" error.
func (f *logFilter) add(spec string) error {
	tag, pri, hasPri := strings.Cut(spec, ":")
	level := "V"
	if hasPri {
		p, ok := filterPriority(pri)
		if !ok {
			return fmt.Errorf("Invalid filter expression '%s'", spec)
		}
		level = p
	}
	if tag == "*" {
		f.global = level
		return nil
	}
	if f.tags == nil {
		f.tags = map[string]string{}
	}
	f.tags[tag] = level
	return nil
}

// shows reports whether an entry of tag at level passes the filter.
func (f *logFilter) shows(tag, level string) bool {
	min, ok := f.tags[tag]
	if !ok {
		min = f.global
	}
	if min == "" {
		return true
	}
	return strings.Index(logLevels, level) >= strings.Index(logLevels, min) && min != "S"
}
