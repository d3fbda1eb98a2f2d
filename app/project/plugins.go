package project

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// AppPluginID is the Android Gradle plugin that makes a module an installable app.
const AppPluginID = "com.android.application"

// conventions knows which plugin ids end up applying com.android.application: the
// plugin itself plus every convention plugin (in build-logic/, buildSrc/ or another
// included build) whose source applies one of them.
type conventions struct {
	app     map[string]string           // plugin id -> where it comes from, for "appliedVia"
	all     map[string]conventionPlugin // every convention plugin, by id
	cat     catalog
	sources []string // every build-logic source, for constants such as Plugins.App.id
}

// conventionPlugin is one plugin defined in a build-logic source tree.
type conventionPlugin struct {
	id     string
	source string // the plugin's code
	file   string // relative to the project root
}

// loadConventions scans the included builds and buildSrc for plugins, then keeps
// adding those that apply an already-known app plugin until nothing changes, so a
// convention plugin applying another convention plugin is found too.
func loadConventions(root string, builds []string, cat catalog) conventions {
	conv := conventions{app: map[string]string{AppPluginID: AppPluginID}, all: map[string]conventionPlugin{}, cat: cat}
	dirs := append([]string{"buildSrc"}, builds...)
	var plugins []conventionPlugin
	for _, d := range dirs {
		ps, sources := scanBuildLogic(root, d, cat)
		plugins = append(plugins, ps...)
		conv.sources = append(conv.sources, sources...)
	}
	for _, p := range plugins {
		conv.all[p.id] = p
	}
	for changed := true; changed; {
		changed = false
		for _, p := range plugins {
			if _, known := conv.app[p.id]; known {
				continue
			}
			if conv.appliedVia(p.source, conv.app) != "" {
				conv.app[p.id] = p.file
				changed = true
			}
		}
	}
	return conv
}

var (
	registerIDRE   = regexp.MustCompile(`\bid\s*(?:=\s*|\s)\s*(.+)`)
	implClassRE    = regexp.MustCompile(`implementationClass\s*(?:=\s*|\s)\s*["']([^"']+)["']`)
	classDeclRE    = regexp.MustCompile(`\bclass\s+([A-Za-z0-9_]+)`)
	packageDeclRE  = regexp.MustCompile(`(?m)^\s*package\s+([A-Za-z0-9_.]+)`)
	sourceFileExts = []string{".kt", ".java", ".groovy", ".gradle.kts", ".gradle"}
)

// scanBuildLogic finds the plugins a build-logic tree defines: precompiled script
// plugins (`my.android.application.gradle.kts` is plugin `my.android.application`)
// and classes registered in a `gradlePlugin { plugins { register(…) { id = …;
// implementationClass = … } } }` block.
func scanBuildLogic(root, dir string, cat catalog) ([]conventionPlugin, []string) {
	base := filepath.Join(root, dir)
	if st, err := os.Stat(base); err != nil || !st.IsDir() {
		return nil, nil
	}
	classes := map[string]conventionPlugin{} // class name -> source
	var out []conventionPlugin
	var sources []string
	var registrations []string
	_ = filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if name := d.Name(); name == "build" || name == ".gradle" || (strings.HasPrefix(name, ".") && p != base) {
				return filepath.SkipDir
			}
			return nil
		}
		name := d.Name()
		if name == "build.gradle.kts" || name == "build.gradle" {
			if data, err := os.ReadFile(p); err == nil {
				registrations = append(registrations, stripComments(string(data)))
			}
			return nil
		}
		if !strings.Contains(filepath.ToSlash(p), "/src/main/") || !hasAnySuffix(name, sourceFileExts) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		src := stripComments(string(data))
		sources = append(sources, src)
		rel, _ := filepath.Rel(root, p)
		switch {
		case strings.HasSuffix(name, ".gradle.kts") || strings.HasSuffix(name, ".gradle"):
			id := strings.TrimSuffix(strings.TrimSuffix(name, ".kts"), ".gradle")
			if m := packageDeclRE.FindStringSubmatch(src); m != nil && strings.HasSuffix(name, ".kts") {
				id = m[1] + "." + id
			}
			out = append(out, conventionPlugin{id: id, source: src, file: rel})
		default:
			for _, m := range classDeclRE.FindAllStringSubmatch(src, -1) {
				classes[m[1]] = conventionPlugin{source: src, file: rel}
			}
		}
		return nil
	})
	for _, reg := range registrations {
		for _, gp := range find(reg, "gradlePlugin") {
			for _, plugins := range find(gp, "plugins") {
				for _, c := range children(plugins) {
					out = append(out, registered(c.body, classes, cat)...)
				}
			}
		}
	}
	return out, sources
}

// registered turns one `register("x") { id = …; implementationClass = … }` body into
// a plugin whose source is its implementation class.
func registered(body string, classes map[string]conventionPlugin, cat catalog) []conventionPlugin {
	cm := implClassRE.FindStringSubmatch(body)
	im := registerIDRE.FindStringSubmatch(topLevel(body))
	if cm == nil || im == nil {
		return nil
	}
	cls := cm[1]
	if i := strings.LastIndex(cls, "."); i >= 0 {
		cls = cls[i+1:]
	}
	src, ok := classes[cls]
	if !ok {
		return nil
	}
	idExpr := strings.TrimSpace(im[1])
	var id string
	if lit, ok := (value{raw: idExpr}).literal(); ok {
		id = lit
	} else if refs := cat.pluginRefs(idExpr); len(refs) > 0 {
		id = refs[0] // id = libs.plugins.my.android.application.get().pluginId
	}
	if id == "" {
		return nil
	}
	src.id = id
	return []conventionPlugin{src}
}

func hasAnySuffix(s string, suffixes []string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

var (
	applyLineRE = regexp.MustCompile(`\b(?:id|apply|alias|plugin)\b`)
	idConstRE   = regexp.MustCompile(`\bid\(\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+)\s*\)`)
)

// appliedVia returns the plugin id (one of ids) that src applies, or "". It knows
// the forms Gradle accepts: `id("x")`, `id 'x'`, `apply(plugin = "x")`,
// `apply plugin: 'x'`, `pluginManager.apply("x")`, a catalog alias for x, and
// `id(Plugins.App.x)` naming a constant in build-logic. `apply false` (declared,
// not applied) and `withPlugin` (reacting to it) do not count.
func (c conventions) appliedVia(src string, ids map[string]string) string {
	for _, line := range strings.Split(src, "\n") {
		if !applyLineRE.MatchString(line) || strings.Contains(line, "apply false") || strings.Contains(line, "withPlugin") {
			continue
		}
		refs := quoted(line)
		refs = append(refs, c.cat.pluginRefs(line)...)
		for _, m := range idConstRE.FindAllStringSubmatch(line, -1) {
			if v, ok := c.constant(m[1]); ok {
				refs = append(refs, v)
			}
		}
		for _, id := range refs {
			if _, ok := ids[id]; ok {
				return id
			}
		}
	}
	return ""
}

// constant resolves `Outer.Inner.name` to the string of `const val name = "…"`
// inside `object Outer { object Inner { … } }` in build-logic sources.
func (c conventions) constant(path string) (string, bool) {
	parts := strings.Split(path, ".")
	for _, src := range c.sources {
		scopes := []string{src}
		for _, p := range parts[:len(parts)-1] {
			var next []string
			for _, s := range scopes {
				next = append(next, find(s, p)...)
			}
			scopes = next
		}
		for _, s := range scopes {
			for _, m := range constRE.FindAllStringSubmatch(topLevel(s), -1) {
				if m[1] == parts[len(parts)-1] {
					if v, ok := (value{raw: m[2]}).literal(); ok {
						return v, true
					}
				}
			}
		}
	}
	return "", false
}

// configuredBy returns the convention plugins src applies whose code mentions word
// (e.g. "Flavors", as in productFlavors or configureFlavors): settings the text
// reader cannot see.
func (c conventions) configuredBy(src, word string) []string {
	var out []string
	for id, p := range c.all {
		if strings.Contains(p.source, word) && c.appliedVia(src, map[string]string{id: ""}) != "" {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}
