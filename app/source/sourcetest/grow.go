// Package sourcetest builds app source indexes of a chosen size for benchmarks.
package sourcetest

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"

	"fixthis/app/source"
)

// DemoIndexPath is the demo APK's index, relative to a package two levels below the
// repository root (app/source, app/device).
const DemoIndexPath = "../../sim/scenario/demo/" + source.SourceIndexFileName

// GrowDemoIndex is the demo APK's index with its entries repeated under new file
// names, as large as it can be without passing limit bytes.
func GrowDemoIndex(limit int) ([]byte, error) {
	raw, err := os.ReadFile(DemoIndexPath)
	if err != nil {
		return nil, err
	}
	ai, err := source.ParseAppIndex(raw)
	if err != nil {
		return nil, err
	}
	base := ai.Entries
	var out []byte
	for n := 1; ; n++ {
		e := base[n%len(base)]
		prefix := "gen/" + strconv.Itoa(n) + "/"
		e.File, e.RepoFile = prefix+e.File, prefix+e.RepoFile
		ai.Entries = append(ai.Entries, e)
		if n%256 != 0 {
			continue
		}
		next, err := json.Marshal(ai)
		if err != nil {
			return nil, err
		}
		if len(next) > limit {
			if out == nil {
				return nil, fmt.Errorf("the demo index alone is over %d bytes", limit)
			}
			return out, nil
		}
		out = next
	}
}
