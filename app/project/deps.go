package project

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

var (
	projectDepRE  = regexp.MustCompile(`project\(\s*(?:path\s*[:=]\s*)?["'](:[^"']+)["']`)
	accessorDepRE = regexp.MustCompile(`\bprojects((?:\.[A-Za-z][A-Za-z0-9]*)+)`)
)

// dependencies returns the Gradle paths of the project modules src depends on:
// `project(":core")` and type-safe accessors (`projects.appCommon`).
func (ld loader) dependencies(src string) []string {
	var out []string
	for _, body := range find(src, "dependencies") {
		for _, m := range projectDepRE.FindAllStringSubmatch(body, -1) {
			out = append(out, m[1])
		}
		for _, m := range accessorDepRE.FindAllStringSubmatch(body, -1) {
			if p, ok := ld.accessorPath(m[1]); ok {
				out = append(out, p)
			}
		}
	}
	return out
}

// accessorPath maps `.feature.homeScreen` back to ":feature:home-screen" by
// comparing it with each included path's accessor form.
func (ld loader) accessorPath(acc string) (string, bool) {
	for _, p := range ld.set.includes {
		var parts []string
		for _, seg := range strings.Split(strings.TrimPrefix(p, ":"), ":") {
			parts = append(parts, camel(seg))
		}
		if "."+strings.Join(parts, ".") == acc {
			return p, true
		}
	}
	return "", false
}

// camel is Gradle's accessor name for a project name: "app-common" -> "appCommon".
func camel(s string) string {
	var b strings.Builder
	up := false
	for _, r := range s {
		if r == '-' || r == '_' {
			up = true
			continue
		}
		if up {
			b.WriteString(strings.ToUpper(string(r)))
			up = false
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// launcherFromDeps finds the launcher in the manifests of the modules src depends
// on directly, resolving relative names against that module's namespace.
func (ld loader) launcherFromDeps(src string) (activity, alias, from string) {
	for _, dep := range ld.dependencies(src) {
		dir := filepath.Join(ld.root, ld.set.moduleDir(dep))
		man, err := readManifest(filepath.Join(dir, "src", "main", "AndroidManifest.xml"))
		if err != nil || man.launcher == "" {
			continue
		}
		ns := man.pkg
		for _, name := range []string{"build.gradle.kts", "build.gradle"} {
			if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
				cfg := parseAndroid(stripComments(string(data)), resolver{cat: ld.cat, consts: cloneMap(ld.consts)})
				if cfg.namespace != "" {
					ns = cfg.namespace
				}
				break
			}
		}
		activity = qualify(ns, man.launcher)
		if man.alias != "" {
			alias = qualify(ns, man.alias)
		}
		return activity, alias, dep
	}
	return "", "", ""
}
