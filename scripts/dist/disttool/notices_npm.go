package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// bundledPackageDirs reads every source map under mapsDir and returns the directories
// of the npm packages whose files the bundle was made from: for each source inside a
// node_modules folder, the package directory right after the last node_modules
// (two segments for a scoped @scope/name package). The console's own sources and
// virtual modules are skipped.
func bundledPackageDirs(mapsDir string) ([]string, error) {
	seen := map[string]bool{}
	maps := 0
	err := filepath.WalkDir(mapsDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".map") {
			return err
		}
		maps++
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var sm struct {
			SourceRoot string   `json:"sourceRoot"`
			Sources    []string `json:"sources"`
		}
		if err := json.Unmarshal(raw, &sm); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		base := filepath.ToSlash(filepath.Dir(p))
		for _, src := range sm.Sources {
			if dir, ok := packageDir(base, sm.SourceRoot, src); ok {
				seen[filepath.FromSlash(dir)] = true
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if maps == 0 {
		return nil, fmt.Errorf("no .map files under %s (build the console with --sourcemap)", mapsDir)
	}
	dirs := make([]string, 0, len(seen))
	for d := range seen {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	return dirs, nil
}

// packageDir resolves one source-map source (relative to the map's directory and
// its sourceRoot) and returns the npm package directory holding it.
func packageDir(mapDir, sourceRoot, src string) (string, bool) {
	// Rollup marks generated modules with a NUL byte; URLs are not files on disk.
	if strings.HasPrefix(src, "\x00") || strings.Contains(src, "://") {
		return "", false
	}
	p := src
	if !path.IsAbs(p) {
		p = path.Join(mapDir, sourceRoot, p)
	}
	const nm = "/node_modules/"
	i := strings.LastIndex(p, nm)
	if i < 0 {
		return "", false
	}
	rest := strings.Split(p[i+len(nm):], "/")
	n := 1
	if strings.HasPrefix(rest[0], "@") {
		n = 2
	}
	if len(rest) <= n || rest[0] == "" || rest[n-1] == "" {
		return "", false // a file directly in node_modules or @scope is no package
	}
	return p[:i+len(nm)] + strings.Join(rest[:n], "/"), true
}

// locatePackage returns dir when it holds a package, or else the package of the same
// name in nodeModules. Vite writes a worker chunk's source paths relative to the
// worker's own build, not to the map file, so they resolve to a folder that does not
// exist; the package is the one the console was built with.
func locatePackage(dir, nodeModules string) string {
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err == nil {
		return dir
	}
	slashed := filepath.ToSlash(dir)
	const nm = "/node_modules/"
	i := strings.LastIndex(slashed, nm)
	if i < 0 {
		return dir
	}
	alt := filepath.Join(nodeModules, filepath.FromSlash(slashed[i+len(nm):]))
	if _, err := os.Stat(filepath.Join(alt, "package.json")); err == nil {
		return alt
	}
	return dir
}

// npmComponent reads a package's package.json (name, version, declared licence) and
// its licence files. A package without a licence file is an error that names it.
func npmComponent(dir string) (component, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return component{}, err
	}
	var pj struct {
		Name     string          `json:"name"`
		Version  string          `json:"version"`
		License  json.RawMessage `json:"license"`
		Licenses []struct {
			Type string `json:"type"`
		} `json:"licenses"`
	}
	if err := json.Unmarshal(raw, &pj); err != nil {
		return component{}, fmt.Errorf("%s/package.json: %w", dir, err)
	}
	if pj.Name == "" || pj.Version == "" {
		return component{}, fmt.Errorf("%s/package.json has no name or version", dir)
	}
	c := component{Name: pj.Name, Version: pj.Version, License: declaredLicense(pj.License)}
	if c.License == "" && len(pj.Licenses) > 0 {
		var types []string
		for _, l := range pj.Licenses {
			types = append(types, l.Type)
		}
		c.License = strings.Join(types, " OR ")
	}
	if c.Files, err = licenseFiles(dir); err != nil {
		return component{}, err
	}
	if len(c.Files) == 0 {
		return component{}, fmt.Errorf("%w in npm package %s@%s (%s, declared licence %q)", errNoLicense, c.Name, c.Version, dir, c.License)
	}
	return c, nil
}

// declaredLicense reads package.json's "license", a string ("MIT") or, in older
// packages, an object ({"type": "MIT"}).
func declaredLicense(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o struct{ Type string }
	if json.Unmarshal(raw, &o) == nil {
		return o.Type
	}
	return ""
}

// viteRuntime reports whether a built chunk carries Vite's module-preload polyfill.
// Vite injects it into the entry chunk without a source-map source, so the maps
// alone would leave Vite's own code out of the notices. The test is the feature
// check the polyfill starts with.
func viteRuntime(mapsDir string) (bool, error) {
	found := false
	err := filepath.WalkDir(mapsDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || found || !strings.HasSuffix(p, ".js") {
			return err
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		found = strings.Contains(string(raw), `supports("modulepreload")`)
		return nil
	})
	return found, err
}

// npmComponents returns the bundled packages, sorted by name and version. viteDir,
// when not empty, is the Vite package that built the bundle, added when its runtime
// code is in it.
func npmComponents(mapsDir, viteDir string) ([]component, error) {
	dirs, err := bundledPackageDirs(mapsDir)
	if err != nil {
		return nil, err
	}
	if viteDir != "" {
		withVite, err := viteRuntime(mapsDir)
		if err != nil {
			return nil, err
		}
		if withVite {
			dirs = append(dirs, viteDir)
		}
	}
	seen := map[string]bool{}
	var out []component
	for _, d := range dirs {
		if viteDir != "" {
			d = locatePackage(d, filepath.Dir(viteDir))
		}
		c, err := npmComponent(d)
		if err != nil {
			return nil, err
		}
		// Two paths can hold the same release (a hoisted and a nested copy).
		if key := c.Name + "@" + c.Version; !seen[key] {
			seen[key] = true
			out = append(out, c)
		}
	}
	sortComponents(out)
	return out, nil
}

func sortComponents(cs []component) {
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].Name != cs[j].Name {
			return cs[i].Name < cs[j].Name
		}
		return cs[i].Version < cs[j].Version
	})
}
