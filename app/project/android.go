package project

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// androidConfig is what a module's `android { }` blocks set, as far as text tells.
type androidConfig struct {
	applicationID string
	namespace     string
	versionName   string
	versionCode   int
	minSdk        int

	debugSuffix          string
	debugSuffixDynamic   bool // set, but computed or conditional
	applicationIDDynamic bool

	dimensions []string
	flavors    []Flavor
}

// androidBlockHeads are the ways a build script opens the Android extension.
var androidBlockHeads = []string{"android", "configure<ApplicationExtension>", "configure<com.android.build.api.dsl.ApplicationExtension>",
	"extensions.configure<ApplicationExtension>", "configure<BaseAppModuleExtension>", "configure<com.android.build.gradle.AppExtension>"}

// resolver turns an expression into a value when the text allows: a literal, a
// catalog version, or a `val`/`def`/`ext` constant in the same script, or a
// gradle.properties entry read with property("x").
type resolver struct {
	cat    catalog
	consts map[string]string
}

var (
	constRE    = regexp.MustCompile(`(?m)^\s*(?:(?:(?:private|internal|final|const)\s+)*(?:val|var|def)\b|ext\.|project\.ext\.)\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?::\s*String\s*)?=\s*(["'][^"'\n$]*["'])\s*$`)
	propertyRE = regexp.MustCompile(`^(?:project\.)?(?:property|findProperty|providers\.gradleProperty)\(\s*["']([^"']+)["']\s*\)(?:\.get\(\))?(?:\s+as\s+String|\.toString\(\))?!*$`)
)

func (r resolver) resolve(v value) (string, bool) {
	if s, ok := v.literal(); ok {
		return s, true
	}
	raw := strings.TrimSpace(v.raw)
	if s, ok := r.cat.version(raw); ok {
		return s, true
	}
	if m := propertyRE.FindStringSubmatch(raw); m != nil {
		s, ok := r.consts["prop:"+m[1]]
		return s, ok
	}
	s, ok := r.consts[raw]
	return s, ok
}

// readGradleProperties loads root's gradle.properties as "prop:KEY" constants.
func readGradleProperties(root string, into map[string]string) {
	data, err := os.ReadFile(filepath.Join(root, "gradle.properties"))
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		if k, v, ok := strings.Cut(line, "="); ok {
			into["prop:"+strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
}

// parseAndroid reads the android blocks of one module script (with `apply from`
// scripts already spliced in), later blocks overriding earlier ones as in Gradle.
func parseAndroid(src string, r resolver) androidConfig {
	var cfg androidConfig
	for _, m := range constRE.FindAllStringSubmatch(src, -1) {
		if s, ok := (value{raw: m[2]}).literal(); ok {
			r.consts[m[1]] = s
		}
	}
	for _, body := range find(src, androidBlockHeads...) {
		cfg.merge(body, r)
	}
	return cfg
}

func (cfg *androidConfig) merge(body string, r resolver) {
	last := func(src, key string) (value, bool) {
		vs := assignments(src, key)
		if len(vs) == 0 {
			return value{}, false
		}
		return vs[len(vs)-1], true
	}
	if v, ok := last(body, "namespace"); ok {
		if s, ok := r.resolve(v); ok {
			cfg.namespace = s
		}
	}
	for _, dc := range find(body, "defaultConfig") {
		if v, ok := last(dc, "applicationId"); ok {
			s, ok := r.resolve(v)
			cfg.applicationID, cfg.applicationIDDynamic = s, !ok
		}
		if v, ok := last(dc, "versionName"); ok {
			cfg.versionName, _ = r.resolve(v)
		}
		if v, ok := last(dc, "versionCode"); ok {
			if s, ok := r.resolve(v); ok {
				cfg.versionCode, _ = strconv.Atoi(s)
			}
		}
		for _, key := range []string{"minSdk", "minSdkVersion"} {
			if v, ok := last(dc, key); ok {
				if s, ok := r.resolve(v); ok {
					cfg.minSdk, _ = strconv.Atoi(s)
				}
			}
		}
	}
	for _, bt := range findNested(body, 2, "buildTypes") {
		for _, debug := range find(bt, "debug") {
			n := deepAssignments(debug, "applicationIdSuffix")
			if n == 0 {
				continue
			}
			vs := assignments(debug, "applicationIdSuffix")
			s, ok := "", false
			if n == 1 && len(vs) == 1 {
				s, ok = r.resolve(vs[0])
			}
			cfg.debugSuffix, cfg.debugSuffixDynamic = s, !ok
		}
	}
	// flavorDimensions "a", "b" | flavorDimensions += listOf("a") | flavorDimensions = ["a"]
	for _, scope := range append([]string{body}, find(body, "defaultConfig")...) {
		for _, v := range assignments(scope, "flavorDimensions") {
			cfg.dimensions = append(cfg.dimensions, quoted(v.raw)...)
		}
	}
	for _, pf := range findNested(body, 2, "productFlavors") {
		for _, c := range children(pf) {
			f := Flavor{Name: blockName(c.head)}
			if v, ok := last(c.body, "dimension"); ok {
				f.Dimension, _ = r.resolve(v)
			}
			if v, ok := last(c.body, "applicationIdSuffix"); ok {
				f.ApplicationIDSuffix, _ = r.resolve(v)
			}
			if v, ok := last(c.body, "applicationId"); ok {
				f.ApplicationID, _ = r.resolve(v)
			}
			if v, ok := last(c.body, "isDefault"); ok {
				f.Default = strings.TrimSpace(v.raw) == "true"
			}
			cfg.flavors = append(cfg.flavors, f)
		}
		// Kotlin DSL flavors without a body: create("free")
		for _, m := range bareFlavorRE.FindAllStringSubmatch(topLevel(pf), -1) {
			cfg.flavors = append(cfg.flavors, Flavor{Name: m[1]})
		}
	}
}

var (
	bareFlavorRE = regexp.MustCompile(`(?m)(?:create|register|maybeCreate)\s*\(\s*["']([A-Za-z0-9_]+)["']\s*\)\s*$`)
)

// applyFromRE finds `apply from: "x.gradle"` (Groovy) and `apply(from = "x.gradle.kts")`.
var applyFromRE = regexp.MustCompile(`(?m)^\s*apply\s*\(?\s*from\s*[:=]\s*(?:file\(\s*)?["']([^"']+)["']\s*\)?\s*\)?\s*$`)

// spliceApplied replaces each `apply from` line with the script it names (two levels
// deep), so settings shared through a common.gradle count for the module.
func spliceApplied(src, moduleDir, root string, depth int) string {
	if depth > 2 {
		return src
	}
	return applyFromRE.ReplaceAllStringFunc(src, func(line string) string {
		m := applyFromRE.FindStringSubmatch(line)
		p := strings.NewReplacer("${rootDir}", root, "$rootDir", root, "${rootProject.projectDir}", root,
			"$rootProject.projectDir", root, "${projectDir}", moduleDir, "$projectDir", moduleDir).Replace(m[1])
		if strings.Contains(p, "://") {
			return line
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(moduleDir, p)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return line
		}
		return "\n" + spliceApplied(stripComments(string(data)), filepath.Dir(p), root, depth+1) + "\n"
	})
}
