// Package project reads an Android Gradle project's structure without running Gradle:
// which modules are apps, their applicationId, namespace, debug suffix, version,
// flavors and launcher activity. `fixthis project` prints it; `fixthis run` and the
// console use it to build, install and launch the app.
package project

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Project is an Android Gradle project as its files describe it.
type Project struct {
	Dir      string   `json:"projectDir"`
	Gradlew  bool     `json:"gradlew"`
	Modules  []Module `json:"modules"`
	Warnings []string `json:"warnings"`
}

// Module is one application module.
type Module struct {
	Path string `json:"path"` // Gradle path, ":app"
	// Label is the app's name from the manifest's android:label (resolved from
	// strings.xml); "" when the text does not say.
	Label         string `json:"label,omitempty"`
	ApplicationID string `json:"applicationId"`
	Namespace     string `json:"namespace"`
	// DebugApplicationIDSuffix is set when the debug build type's suffix is a literal.
	// When the build computes it, DebugSuffixUnresolved is true and the installed
	// package tells (see InstalledPackage).
	DebugApplicationIDSuffix string `json:"debugApplicationIdSuffix,omitempty"`
	DebugSuffixUnresolved    bool   `json:"debugSuffixUnresolved,omitempty"`
	// LauncherActivity is the fully qualified class of the MAIN/LAUNCHER activity (an
	// activity-alias's targetActivity); LauncherAlias names the alias when the
	// launcher is one, which is what `am start` must be given.
	LauncherActivity string `json:"launcherActivity"`
	LauncherAlias    string `json:"launcherAlias,omitempty"`
	// LauncherFrom names the module whose manifest declares the launcher when it is
	// not the app module's own (manifests merge at build time).
	LauncherFrom string   `json:"launcherFrom,omitempty"`
	VersionName  string   `json:"versionName,omitempty"`
	VersionCode  int      `json:"versionCode,omitempty"`
	MinSdk       int      `json:"minSdk,omitempty"`
	Flavors      []string `json:"flavors"`
	// AppliedVia says how the module applies com.android.application: the plugin id
	// itself or the convention plugin (and its source file) that does.
	AppliedVia string `json:"appliedVia"`

	Dir        string   `json:"-"` // absolute
	Dimensions []string `json:"-"`
	FlavorSpec []Flavor `json:"-"`
}

// Flavor is one product flavor.
type Flavor struct {
	Name, Dimension, ApplicationID, ApplicationIDSuffix string
	Default                                             bool // isDefault: Studio's pick for its dimension
}

// ErrNoAppModule is wrapped by Load's error when no module applies the app plugin.
var ErrNoAppModule = errors.New("no Android application module")

// Load reads the project at dir. It fails when dir has no Android application
// module, saying where it looked.
func Load(dir string) (*Project, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("project directory %s: %w", dir, err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("project directory %s is not a directory", dir)
	}
	p := &Project{Dir: abs, Warnings: []string{}, Modules: []Module{}}
	if st, err := os.Stat(filepath.Join(abs, "gradlew")); err == nil && !st.IsDir() {
		p.Gradlew = true
	}
	set, err := readSettings(abs)
	if err != nil {
		return nil, err
	}
	if set.dynamic {
		p.Warnings = append(p.Warnings, set.file+" includes modules computed at build time; only literal include() paths were read")
	}
	cat := loadCatalogs(abs)
	conv := loadConventions(abs, set.builds, cat)
	consts := map[string]string{}
	readGradleProperties(abs, consts)

	ld := loader{root: abs, set: set, conv: conv, cat: cat, consts: consts}
	paths := append([]string{":"}, set.includes...) // the root project can be the app
	seen := map[string]bool{}
	for _, path := range paths {
		if seen[path] {
			continue
		}
		seen[path] = true
		dirRel := set.moduleDir(path)
		if path == ":" {
			dirRel = "."
		}
		m, ok, warn := ld.module(path, filepath.Join(abs, dirRel))
		p.Warnings = append(p.Warnings, warn...)
		if ok {
			p.Modules = append(p.Modules, m)
		}
	}
	if len(p.Modules) == 0 {
		where := "no settings.gradle(.kts), so only the root build file was read"
		if set.file != "" {
			where = fmt.Sprintf("%s includes %d module(s): %s", set.file, len(set.includes), strings.Join(set.includes, ", "))
			if len(set.includes) == 0 {
				where = set.file + " includes no modules"
			}
		}
		return p, fmt.Errorf("%w in %s: looked for a build.gradle(.kts) applying %s (directly, through a version-catalog alias, or through a convention plugin in build-logic/buildSrc); %s",
			ErrNoAppModule, abs, AppPluginID, where)
	}
	return p, nil
}

// loader holds what every module's reading needs.
type loader struct {
	root   string
	set    settings
	conv   conventions
	cat    catalog
	consts map[string]string
}

// module reads one module; ok is false when it is not an application module.
func (ld loader) module(path, dir string) (Module, bool, []string) {
	root, conv, cat := ld.root, ld.conv, ld.cat
	var src, file string
	for _, name := range []string{"build.gradle.kts", "build.gradle"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err == nil {
			src, file = stripComments(string(data)), name
			break
		}
	}
	if file == "" {
		return Module{}, false, nil
	}
	via := pluginsApplied(src, conv)
	if via == "" {
		return Module{}, false, nil
	}
	m := Module{Path: path, Dir: dir, Flavors: []string{}, AppliedVia: via}
	if from := conv.app[via]; from != via {
		m.AppliedVia = via + " (" + filepath.ToSlash(from) + ")"
	}
	var warns []string
	warn := func(format string, args ...any) { warns = append(warns, path+": "+fmt.Sprintf(format, args...)) }

	full := spliceApplied(src, dir, root, 0)
	cfg := parseAndroid(full, resolver{cat: cat, consts: cloneMap(ld.consts)})
	man, err := readManifest(filepath.Join(dir, "src", "main", "AndroidManifest.xml"))
	if err != nil {
		warn("%v", err)
	}
	m.Label = appLabel(dir, man.label)
	m.Namespace = cfg.namespace
	if m.Namespace == "" {
		m.Namespace = man.pkg // before AGP 7 the manifest's package attribute was the namespace
	}
	m.ApplicationID = cfg.applicationID
	switch {
	case cfg.applicationIDDynamic:
		warn("applicationId is computed in %s; using the namespace %q until the build or the device tells", file, m.Namespace)
		m.ApplicationID = m.Namespace
	case m.ApplicationID == "":
		m.ApplicationID = m.Namespace // AGP's default when defaultConfig sets none
	}
	if m.Namespace == "" {
		warn("no namespace in %s and no package in src/main/AndroidManifest.xml", file)
	}
	m.DebugApplicationIDSuffix, m.DebugSuffixUnresolved = cfg.debugSuffix, cfg.debugSuffixDynamic
	if m.DebugSuffixUnresolved {
		warn("the debug applicationIdSuffix is computed in %s; the installed package on the device tells which it is", file)
	}
	m.VersionName, m.VersionCode, m.MinSdk = cfg.versionName, cfg.versionCode, cfg.minSdk
	m.Dimensions, m.FlavorSpec = cfg.dimensions, cfg.flavors
	for _, f := range cfg.flavors {
		m.Flavors = append(m.Flavors, f.Name)
	}
	if len(m.Flavors) == 0 {
		plugins := strings.Join(find(src, "plugins"), "\n")
		if by := conv.configuredBy(plugins, "Flavors"); len(by) > 0 {
			warn("product flavors come from %s, which this reader does not run; pass --variant with the full variant name", strings.Join(by, ", "))
		} else if strings.Contains(full, "productFlavors") {
			warn("product flavors are declared in code this reader does not run; pass --variant with the full variant name")
		}
	}
	m.LauncherActivity = qualify(m.Namespace, man.launcher)
	if man.alias != "" {
		m.LauncherAlias = qualify(m.Namespace, man.alias)
	}
	if m.LauncherActivity == "" {
		// The launcher may come from a library module's manifest (merged at build).
		if act, alias, from := ld.launcherFromDeps(full); act != "" {
			m.LauncherActivity, m.LauncherAlias = act, alias
			m.LauncherFrom = from
		} else {
			warn("no activity with MAIN and LAUNCHER in src/main/AndroidManifest.xml or the manifests of the project modules it depends on")
		}
	}
	return m, true, warns
}

// pluginsApplied returns the app plugin id the script's plugins block (or an
// `apply plugin:` line) applies, or "".
func pluginsApplied(src string, conv conventions) string {
	text := strings.Join(find(src, "plugins"), "\n")
	for _, line := range strings.Split(src, "\n") {
		if strings.Contains(line, "apply") && strings.Contains(line, "plugin") {
			text += "\n" + line
		}
	}
	return conv.appliedVia(text, conv.app)
}

func cloneMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Module returns the module with the Gradle path, or the only (first) app module
// when path is empty.
func (p *Project) Module(path string) (*Module, error) {
	if path == "" {
		return &p.Modules[0], nil
	}
	if !strings.HasPrefix(path, ":") {
		path = ":" + path
	}
	var names []string
	for i := range p.Modules {
		if p.Modules[i].Path == path {
			return &p.Modules[i], nil
		}
		names = append(names, p.Modules[i].Path)
	}
	sort.Strings(names)
	return nil, fmt.Errorf("%s is not an application module of %s; application modules: %s", path, p.Dir, strings.Join(names, ", "))
}
