package project

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// catalog is the [versions] and [plugins] of the project's version catalogs, keyed by
// accessor: `libs.plugins.android.application` is plugins["libs"]["android.application"].
type catalog struct {
	plugins  map[string]map[string]string // accessor name -> alias (dotted) -> plugin id
	versions map[string]map[string]string // accessor name -> alias (dotted) -> version
}

// loadCatalogs reads gradle/*.versions.toml; each file's accessor is its name before
// ".versions.toml" (Gradle's default for gradle/libs.versions.toml is `libs`).
func loadCatalogs(root string) catalog {
	c := catalog{plugins: map[string]map[string]string{}, versions: map[string]map[string]string{}}
	files, _ := filepath.Glob(filepath.Join(root, "gradle", "*.versions.toml"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(f), ".versions.toml")
		c.plugins[name], c.versions[name] = parseCatalog(string(data))
	}
	return c
}

var (
	tomlKeyRE     = regexp.MustCompile(`^\s*([A-Za-z0-9_.\-"]+)\s*=\s*(.+?)\s*$`)
	tomlIDRE      = regexp.MustCompile(`\bid\s*=\s*"([^"]+)"`)
	tomlVersionRE = regexp.MustCompile(`^"([^"]*)"`)
)

// parseCatalog reads the two tables the model needs from a version catalog. Aliases
// are normalised to their accessor form: `android-application` and
// `android_application` are both `android.application`.
func parseCatalog(src string) (plugins, versions map[string]string) {
	plugins, versions = map[string]string{}, map[string]string{}
	section := ""
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if i := strings.Index(line, "#"); i >= 0 && !strings.Contains(line[:i], `"`) {
			line = strings.TrimSpace(line[:i])
		}
		if strings.HasPrefix(line, "[") {
			section = strings.Trim(line, "[] ")
			continue
		}
		m := tomlKeyRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		alias := accessor(strings.Trim(m[1], `"`))
		switch section {
		case "plugins":
			if id := tomlIDRE.FindStringSubmatch(m[2]); id != nil {
				plugins[alias] = id[1]
			} else if s := tomlVersionRE.FindStringSubmatch(m[2]); s != nil {
				// "com.android.application:8.5.2"
				id, _, _ := strings.Cut(s[1], ":")
				plugins[alias] = id
			}
		case "versions":
			if s := tomlVersionRE.FindStringSubmatch(m[2]); s != nil {
				versions[alias] = s[1]
			}
		}
	}
	return plugins, versions
}

func accessor(alias string) string {
	return strings.NewReplacer("-", ".", "_", ".").Replace(alias)
}

var (
	catalogPluginRE  = regexp.MustCompile(`\b([A-Za-z][A-Za-z0-9]*)\.plugins\.([A-Za-z0-9.]+?)(?:\.asProvider\(\))?(?:\.get\(\)(?:\.pluginId)?)?(?:[^A-Za-z0-9.]|$)`)
	findPluginRE     = regexp.MustCompile(`findPlugin\(\s*"([^"]+)"\s*\)`)
	catalogVersionRE = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9]*)\.versions\.([A-Za-z0-9.]+?)(?:\.get\(\))?(?:\.toInt\(\)|\.toInteger\(\))?$`)
)

// pluginRefs returns the plugin ids that text names through a catalog accessor
// (`libs.plugins.android.application`, `libs.findPlugin("android-application")`).
func (c catalog) pluginRefs(text string) []string {
	var ids []string
	for _, m := range catalogPluginRE.FindAllStringSubmatch(text, -1) {
		if id, ok := c.plugins[m[1]][strings.TrimSuffix(m[2], ".")]; ok {
			ids = append(ids, id)
		}
	}
	for _, m := range findPluginRE.FindAllStringSubmatch(text, -1) {
		for _, p := range c.plugins {
			if id, ok := p[accessor(m[1])]; ok {
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// version resolves `libs.versions.minSdk.get().toInt()` to the catalog's value.
func (c catalog) version(expr string) (string, bool) {
	m := catalogVersionRE.FindStringSubmatch(strings.TrimSpace(expr))
	if m == nil {
		return "", false
	}
	v, ok := c.versions[m[1]][m[2]]
	return v, ok
}
