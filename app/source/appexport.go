package source

import (
	"encoding/json"
	"sort"
	"strings"
)

// ExportAppIndex writes the project's index in the shape the FixThis Gradle plugin
// puts into a debug APK (schema 1.3, SourceIndexAssets.kt:5-64 and the entries of
// KotlinSourceScanner.kt): one entry per indexed code line, with its composable,
// shown text (string resources resolved through the default values/ files),
// descriptions, test tags, string resources, roles and the file's activities. It
// stands in for the plugin where no Gradle runs: the simulated phone's demo APK
// carries the export of examples/trailhead. RepoFile is relative to the project
// root; File to the module of gradlePath when the file is in it (SourcePath.kt:5-9).
func (idx *Index) ExportAppIndex(gradlePath string) *AppIndex {
	idx.mu.RLock()
	defer idx.mu.RUnlock()
	strs := map[string]string{} // R.string name → its default text
	paths := make([]string, 0, len(idx.files))
	for p, fi := range idx.files {
		paths = append(paths, p)
		if localizedValues(p) {
			continue
		}
		for _, e := range fi.Entries {
			if e.Kind == kindXMLString {
				strs[e.Key] = e.Value
			}
		}
	}
	sort.Strings(paths)
	moduleDir := strings.ReplaceAll(strings.TrimPrefix(gradlePath, ":"), ":", "/")
	ai := &AppIndex{SchemaVersion: AppIndexSchema, SourceRoot: &AppSourceRoot{Kind: "gradle-project", GradlePath: gradlePath, ProjectDir: moduleDir},
		TestTagConventions: []string{}, Entries: []AppEntry{}}
	for _, p := range paths {
		fi := idx.files[p]
		if fi.isTest() || fi.Layout != "" || !(strings.HasSuffix(p, ".kt") || strings.HasSuffix(p, ".java")) {
			continue
		}
		var activities []string
		for _, a := range fi.Activities {
			activities = append(activities, a.Name)
		}
		file := p
		if rel, ok := strings.CutPrefix(p, moduleDir+"/"); ok && moduleDir != "" {
			file = rel
		}
		byLine := map[int32]*AppEntry{}
		var lines []int32
		for _, e := range fi.Entries {
			ae := byLine[e.Line]
			if ae == nil {
				ae = &AppEntry{File: file, RepoFile: p, Line: int(e.Line), PackageName: fi.Package, ActivityNames: activities}
				if e.Owner >= 0 {
					name := fi.Defs[e.Owner].Name
					ae.Symbols = []string{name}
					ae.Signals = append(ae.Signals, AppSignal{Kind: SignalComposable, Value: name, ConfidenceWeight: 1})
				}
				byLine[e.Line] = ae
				lines = append(lines, e.Line)
			}
			exportEntry(ae, e, strs)
		}
		sort.Slice(lines, func(i, j int) bool { return lines[i] < lines[j] })
		for _, l := range lines {
			if ae := byLine[l]; len(ae.Signals) > len(ae.Symbols) {
				ai.Entries = append(ai.Entries, normalizedEntry(*ae))
			}
		}
	}
	return ai
}

// exportEntry adds one piece of evidence to the entry of its line, with the
// plugin's signal kinds and weights (SourceIndex.kt:45-75 in fixthis-compose-core).
func exportEntry(ae *AppEntry, e Entry, strs map[string]string) {
	sig := func(kind, v string, w float64) {
		ae.Signals = append(ae.Signals, AppSignal{Kind: kind, Value: v, ConfidenceWeight: w})
	}
	switch e.Kind {
	case kindText:
		ae.Text = append(ae.Text, e.Value)
		sig(SignalUIText, e.Value, 1)
	case kindCD:
		ae.ContentDescriptions = append(ae.ContentDescriptions, e.Value)
		sig(SignalContentDesc, e.Value, 1)
	case kindTag:
		ae.TestTags = append(ae.TestTags, e.Value)
		kind := SignalTestTag
		if compConvention.MatchString(e.Value) {
			kind = SignalStrictCompTag
		}
		sig(kind, e.Value, map[bool]float64{true: 1.15, false: 1}[kind == SignalStrictCompTag])
	case kindStringRes:
		ae.StringResources = append(ae.StringResources, e.Key)
		sig(SignalStringResource, e.Key, 0.85)
		if v, ok := strs[e.Key]; ok {
			switch e.Ctx {
			case kindCD:
				ae.ContentDescriptions = append(ae.ContentDescriptions, v)
			default:
				ae.Text = append(ae.Text, v)
			}
			sig(SignalStringResolved, v, 1)
		}
	case kindRole:
		ae.Roles = append(ae.Roles, e.Value)
		sig(SignalRole, e.Value, 0.85)
	case kindLiteral:
		sig(SignalArbitraryLiteral, e.Value, 0.35)
	}
}

// normalizedEntry gives every list a value, as the plugin's encoder (encodeDefaults)
// writes empty lists rather than leaving them out.
func normalizedEntry(e AppEntry) AppEntry {
	for _, l := range []*[]string{&e.Symbols, &e.Text, &e.ContentDescriptions, &e.TestTags, &e.StringResources, &e.Roles, &e.ActivityNames} {
		if *l == nil {
			*l = []string{}
		}
	}
	return e
}

// MarshalAppIndex encodes an index as the plugin writes the asset.
func MarshalAppIndex(ai *AppIndex) ([]byte, error) { return json.MarshalIndent(ai, "", "  ") }
