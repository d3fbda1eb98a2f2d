package adb

import "strings"

// parseForwards parses `host:list-forward`: one "SERIAL LOCAL REMOTE" line
// per forward.
func parseForwards(text string) []Forward {
	var out []Forward
	for line := range strings.Lines(text) {
		f := strings.Fields(line)
		if len(f) != 3 {
			continue
		}
		out = append(out, Forward{Serial: f[0], Local: f[1], Remote: f[2]})
	}
	return out
}
