package project

import (
	"sort"
	"strings"
)

// InstalledPackage picks the package on the device that is this app: the expected
// applicationId when installed, else the package that starts with the module's
// applicationId plus a suffix (".debug", ".demo.debug") — how a suffix the scripts
// compute is resolved. Among several, the shortest wins (fewest suffixes). When the
// variant's id is fully known (v.SuffixUnresolved false) only that id counts. It
// returns "" when none is installed.
func InstalledPackage(installed []string, m *Module, v Variant) string {
	var candidates []string
	for _, p := range installed {
		if p == v.ApplicationID {
			return p
		}
		if v.SuffixUnresolved && (p == m.ApplicationID || strings.HasPrefix(p, m.ApplicationID+".")) {
			candidates = append(candidates, p)
		}
	}
	if len(candidates) == 0 {
		return ""
	}
	sort.Slice(candidates, func(i, j int) bool {
		if len(candidates[i]) != len(candidates[j]) {
			return len(candidates[i]) < len(candidates[j])
		}
		return candidates[i] < candidates[j]
	})
	return candidates[0]
}

// ParsePackageList reads `pm list packages` output ("package:com.x" lines).
func ParsePackageList(out string) []string {
	var pkgs []string
	for _, line := range strings.Split(strings.ReplaceAll(out, "\r", ""), "\n") {
		if p, ok := strings.CutPrefix(strings.TrimSpace(line), "package:"); ok && p != "" {
			pkgs = append(pkgs, p)
		}
	}
	return pkgs
}
