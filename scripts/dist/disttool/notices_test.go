package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func names(cs []component) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name+"@"+c.Version)
	}
	return out
}

func TestLicenseFilesPicksLicenceAndNoticeFiles(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"LICENSE":              "MIT\r\nline two\r\n\r\n",
		"LICENSE-APACHE":       "Apache",
		"licence.md":           "British spelling",
		"COPYING":              "GPL text",
		"NOTICE.txt":           "notice",
		"PATENTS":              "grant",
		"license.go":           "package x",
		"license.json":         "{}",
		"README.md":            "readme",
		"UNLICENSE":            "   \n",
		"sub/LICENSE":          "a nested package's, not this module's",
		"LICENSE-3RD-PARTY.md": "bundled",
	})
	files, err := licenseFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Name)
	}
	want := []string{"COPYING", "LICENSE", "LICENSE-3RD-PARTY.md", "LICENSE-APACHE", "NOTICE.txt", "PATENTS", "licence.md"}
	if !slices.Equal(got, want) {
		t.Fatalf("licence files = %v, want %v", got, want)
	}
	if files[1].Text != "MIT\nline two" {
		t.Errorf("LICENSE text = %q, want CRLF made LF and the trailing blank lines cut", files[1].Text)
	}
}

func TestGoComponentsLooksUpEachModulesLicence(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"a/LICENSE": "licence of a",
		"b/LICENSE": "licence of b",
		"b/NOTICE":  "notice of b",
	})
	mods := []modRef{{"example.com/a", "v1.0.0"}, {"example.com/b/v2", "v2.1.0"}}
	resolve := func(m []modRef) (map[modRef]string, error) {
		return map[modRef]string{m[0]: filepath.Join(root, "a"), m[1]: filepath.Join(root, "b")}, nil
	}
	cs, err := goComponents(mods, resolve)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(cs); !slices.Equal(got, []string{"example.com/a@v1.0.0", "example.com/b/v2@v2.1.0"}) {
		t.Fatalf("components = %v", got)
	}
	if len(cs[1].Files) != 2 || cs[1].Files[0].Text != "licence of b" || cs[1].Files[1].Text != "notice of b" {
		t.Errorf("b's files = %+v", cs[1].Files)
	}
}

func TestGoComponentsNamesTheModuleWithoutLicence(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"a/LICENSE": "ok", "b/README": "no licence here"})
	mods := []modRef{{"example.com/a", "v1.0.0"}, {"example.com/nolicence", "v0.3.0"}}
	resolve := func(m []modRef) (map[modRef]string, error) {
		return map[modRef]string{m[0]: filepath.Join(root, "a"), m[1]: filepath.Join(root, "b")}, nil
	}
	_, err := goComponents(mods, resolve)
	if !errors.Is(err, errNoLicense) || !strings.Contains(err.Error(), "example.com/nolicence@v0.3.0") {
		t.Fatalf("err = %v, want a missing-licence error naming example.com/nolicence@v0.3.0", err)
	}
}

// The test binary links this module's dependencies, so reading it exercises the
// real build-info and `go mod download` path against the module cache.
func TestLinkedModulesOfARealBinary(t *testing.T) {
	bin, err := linkedModules(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, m := range bin.Mods {
		paths = append(paths, m.String())
	}
	if !slices.IsSorted(paths) {
		t.Errorf("modules not sorted: %v", paths)
	}
	var image modRef
	for _, m := range bin.Mods {
		if m.Path == "golang.org/x/image" {
			image = m
		}
	}
	if image.Version == "" || !strings.Contains(bin.Platform, "/") || !strings.HasPrefix(bin.GoVersion, "go") {
		t.Fatalf("build info = %+v, want golang.org/x/image among the modules", bin)
	}
	cs, err := goComponents([]modRef{image}, func(m []modRef) (map[modRef]string, error) { return moduleDirs(".", m) })
	if err != nil {
		t.Fatal(err)
	}
	if len(cs[0].Files) != 2 || cs[0].Files[0].Name != "LICENSE" || cs[0].Files[1].Name != "PATENTS" ||
		!strings.Contains(cs[0].Files[0].Text, "Copyright") {
		t.Errorf("golang.org/x/image files = %+v", cs[0].Files)
	}
	std, err := goStdlib(".", bin.GoVersion)
	if err != nil || len(std.Files) == 0 || std.Files[0].Name != "LICENSE" {
		t.Errorf("standard library = %+v, %v", std, err)
	}
}

func TestModuleDirsNamesAModuleThatDoesNotExist(t *testing.T) {
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	_, err := moduleDirs(".", []modRef{{"example.invalid/none", "v0.0.1"}})
	if err == nil || !strings.Contains(err.Error(), "example.invalid/none@v0.0.1") {
		t.Fatalf("err = %v, want one naming example.invalid/none@v0.0.1", err)
	}
}

func TestPackageDir(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"../../node_modules/svelte/src/internal/client/runtime.js", "/w/node_modules/svelte"},
		{"../../node_modules/@sveltejs/kit/src/x.js", "/w/node_modules/@sveltejs/kit"},
		{"../../node_modules/a/node_modules/@s/b/index.js", "/w/node_modules/a/node_modules/@s/b"},
		{"/abs/node_modules/clsx/dist/clsx.mjs", "/abs/node_modules/clsx"},
		{"../../src/App.svelte", ""},
		{"\x00vite/modulepreload-polyfill.js", ""},
		{"../../node_modules/@scope", ""},
		{"../../node_modules/loose.js", ""},
	} {
		got, ok := packageDir("/w/dist/assets", "", tc.src)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("packageDir(%q) = %q, %v; want %q", tc.src, got, ok, tc.want)
		}
	}
	if got, _ := packageDir("/w/out/assets", "../..", "node_modules/esm-env/false.js"); got != "/w/node_modules/esm-env" {
		t.Errorf("with sourceRoot: %q", got)
	}
}

// consoleTree lays out a node_modules folder and a source-mapped build of a console
// that uses some of it.
func consoleTree(t *testing.T, polyfill bool) (root string) {
	root = t.TempDir()
	js := "console.log(1)"
	if polyfill {
		js = `(function(){const e=document.createElement("link").relList;if(e&&e.supports&&e.supports("modulepreload"))return})();`
	}
	writeFiles(t, root, map[string]string{
		"node_modules/svelte/package.json":                `{"name":"svelte","version":"5.1.0","license":"MIT"}`,
		"node_modules/svelte/LICENSE.md":                  "svelte licence",
		"node_modules/clsx/package.json":                  `{"name":"clsx","version":"2.1.1","license":{"type":"MIT"}}`,
		"node_modules/clsx/license":                       "clsx licence",
		"node_modules/@scope/pkg/package.json":            `{"name":"@scope/pkg","version":"1.0.0","licenses":[{"type":"MIT"},{"type":"Apache-2.0"}]}`,
		"node_modules/@scope/pkg/LICENSE":                 "scoped licence",
		"node_modules/x/node_modules/svelte/package.json": `{"name":"svelte","version":"5.1.0","license":"MIT"}`,
		"node_modules/x/node_modules/svelte/LICENSE.md":   "svelte licence",
		"node_modules/unused/package.json":                `{"name":"unused","version":"1.0.0","license":"MIT"}`,
		"node_modules/unused/LICENSE":                     "not bundled",
		"node_modules/vite/package.json":                  `{"name":"vite","version":"7.0.0","license":"MIT"}`,
		"node_modules/vite/LICENSE.md":                    "vite licence",
		"node_modules/tinyh264/package.json":              `{"name":"tinyh264","version":"0.0.7","license":"Apache-2.0"}`,
		"node_modules/tinyh264/LICENSE":                   "tinyh264 licence",
		"out/assets/index.js":                             js,
		// Vite writes a worker's sources relative to the worker's own build: from the
		// map's folder they name a node_modules that does not exist.
		"out/assets/worker.js.map": `{"version":3,"sources":["../node_modules/tinyh264/es/TinyH264.js"]}`,
	})
	sm, _ := json.Marshal(map[string]any{"version": 3, "sources": []string{
		"../../node_modules/svelte/src/index.js",
		"../../src/App.svelte",
		"../../node_modules/svelte/src/internal/client/runtime.js",
		"../../node_modules/clsx/dist/clsx.mjs",
		"../../node_modules/@scope/pkg/index.js",
		"../../node_modules/x/node_modules/svelte/src/index.js",
	}})
	writeFiles(t, root, map[string]string{"out/assets/index.js.map": string(sm)})
	return root
}

func TestNpmComponentsFromSourceMaps(t *testing.T) {
	root := consoleTree(t, true)
	cs, err := npmComponents(filepath.Join(root, "out"), filepath.Join(root, "node_modules/vite"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"@scope/pkg@1.0.0", "clsx@2.1.1", "svelte@5.1.0", "tinyh264@0.0.7", "vite@7.0.0"}
	if got := names(cs); !slices.Equal(got, want) {
		t.Fatalf("packages = %v, want %v (sorted, deduplicated, unused left out)", got, want)
	}
	if cs[0].License != "MIT OR Apache-2.0" || cs[1].License != "MIT" || cs[1].Files[0].Text != "clsx licence" {
		t.Errorf("declared licences / files: %+v %+v", cs[0], cs[1])
	}

	// Without Vite's runtime in the bundle, Vite is not listed.
	root = consoleTree(t, false)
	cs, err = npmComponents(filepath.Join(root, "out"), filepath.Join(root, "node_modules/vite"))
	if err != nil {
		t.Fatal(err)
	}
	if got := names(cs); slices.Contains(got, "vite@7.0.0") {
		t.Errorf("vite listed without its runtime in the bundle: %v", got)
	}
}

func TestNpmComponentsNamesThePackageWithoutLicence(t *testing.T) {
	root := consoleTree(t, false)
	if err := os.Remove(filepath.Join(root, "node_modules/clsx/license")); err != nil {
		t.Fatal(err)
	}
	_, err := npmComponents(filepath.Join(root, "out"), "")
	if !errors.Is(err, errNoLicense) || !strings.Contains(err.Error(), "clsx@2.1.1") {
		t.Fatalf("err = %v, want a missing-licence error naming clsx@2.1.1", err)
	}
}

func TestNpmComponentsNeedsSourceMaps(t *testing.T) {
	if _, err := npmComponents(t.TempDir(), ""); err == nil || !strings.Contains(err.Error(), "no .map files") {
		t.Fatalf("err = %v", err)
	}
}

// The whole command on this test binary and a fake console: the file names every
// component with its licence text, and two runs give the same bytes.
func TestRunNoticesWritesADeterministicFile(t *testing.T) {
	root := consoleTree(t, true)
	run := func(out string) string {
		err := runNotices([]string{"-binary", os.Args[0], "-sourcemaps", filepath.Join(root, "out"),
			"-vite", filepath.Join(root, "node_modules/vite"), "-out", out})
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	text := run(filepath.Join(root, "a"))
	if again := run(filepath.Join(root, "b")); again != text {
		t.Error("two runs wrote different files")
	}
	if !strings.HasPrefix(text, "THIRD-PARTY SOFTWARE NOTICES for FixThis Desktop (") {
		t.Errorf("header: %.100q", text)
	}
	for _, want := range []string{
		"\nGo standard library and runtime go1.", "\ngolang.org/x/image v0.", "\n--- PATENTS ---\n",
		"\nsvelte 5.1.0\nDeclared licence: MIT\n", "\n--- LICENSE.md ---\n\nsvelte licence\n",
		"\n@scope/pkg 1.0.0\n", "scoped licence", "clsx licence", "vite licence",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("notices lack %q", want)
		}
	}
	// The index lists npm packages in sorted order.
	i, j, k := strings.Index(text, "  @scope/pkg "), strings.Index(text, "  clsx "), strings.Index(text, "  svelte ")
	if i < 0 || !(i < j && j < k) {
		t.Errorf("index not sorted: %d %d %d", i, j, k)
	}
}

func TestWrap(t *testing.T) {
	got := wrap("aa bb cc dd", 5)
	if got != "aa bb\ncc dd\n" {
		t.Errorf("wrap = %q", got)
	}
	var b bytes.Buffer
	b.WriteString(wrap(strings.Repeat("word ", 40), 20))
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if len(line) > 20 {
			t.Errorf("line longer than 20: %q", line)
		}
	}
}
