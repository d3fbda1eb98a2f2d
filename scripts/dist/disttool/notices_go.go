package main

import (
	"bytes"
	"debug/buildinfo"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// component is one piece of third-party software in a release and the licence and
// notice files it ships.
type component struct {
	Name, Version string
	License       string // the SPDX expression a package declares, when it declares one
	Files         []licenseFile
}

type licenseFile struct {
	Name, Text string
}

// modRef is a module path and version as the go command spells them.
type modRef struct {
	Path, Version string
}

func (m modRef) String() string { return m.Path + "@" + m.Version }

// linkedModules reads the module list the Go linker records in a binary (what
// `go version -m` prints), for any GOOS. A replaced module is looked up under its
// replacement, whose files are the ones that were compiled in.
func linkedModules(binary string) (linked, error) {
	bi, err := buildinfo.ReadFile(binary)
	if err != nil {
		return linked{}, err
	}
	l := linked{GoVersion: bi.GoVersion}
	var goos, goarch string
	for _, s := range bi.Settings {
		switch s.Key {
		case "GOOS":
			goos = s.Value
		case "GOARCH":
			goarch = s.Value
		}
	}
	l.Platform = goos + "/" + goarch
	for _, d := range bi.Deps {
		m := modRef{d.Path, d.Version}
		if d.Replace != nil {
			if d.Replace.Version == "" {
				return linked{}, fmt.Errorf("module %s is replaced by the local directory %s; its licence cannot be looked up in the module cache", d.Path, d.Replace.Path)
			}
			m = modRef{d.Replace.Path, d.Replace.Version}
		}
		l.Mods = append(l.Mods, m)
	}
	sort.Slice(l.Mods, func(i, j int) bool { return l.Mods[i].String() < l.Mods[j].String() })
	return l, nil
}

// linked is what a Go binary records about its build.
type linked struct {
	GoVersion string // go1.26.8
	Platform  string // linux/amd64
	Mods      []modRef
}

// moduleDirs finds each module's extracted directory in the module cache with one
// `go mod download -json` run in the main module's directory (so its go.sum
// vouches for the versions and a filled cache needs no network).
func moduleDirs(moduleDir string, mods []modRef) (map[modRef]string, error) {
	if len(mods) == 0 {
		return map[modRef]string{}, nil
	}
	args := []string{"mod", "download", "-json"}
	for _, m := range mods {
		args = append(args, m.String())
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = moduleDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	// The go command prints a JSON object per module, with an Error field for the ones
	// it could not fetch, and exits non-zero if any failed: name those modules.
	dirs := map[modRef]string{}
	var failed []string
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var r struct{ Path, Version, Dir, Error string }
		if err := dec.Decode(&r); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go mod download: %v (%s)", err, strings.TrimSpace(stderr.String()))
		}
		m := modRef{r.Path, r.Version}
		switch {
		case strings.Contains(r.Error, m.String()):
			failed = append(failed, r.Error)
		case r.Error != "":
			failed = append(failed, m.String()+": "+r.Error)
		case r.Dir == "":
			failed = append(failed, m.String()+": no directory in the module cache")
		default:
			dirs[m] = r.Dir
		}
	}
	if len(failed) > 0 {
		return nil, fmt.Errorf("go mod download could not provide: %s", strings.Join(failed, "; "))
	}
	if runErr != nil {
		return nil, fmt.Errorf("go mod download: %v (%s)", runErr, strings.TrimSpace(stderr.String()))
	}
	for _, m := range mods {
		if dirs[m] == "" {
			return nil, fmt.Errorf("go mod download did not report %s", m)
		}
	}
	return dirs, nil
}

// licenseName matches the files a package keeps its licence and notices in:
// LICENSE, LICENCE.md, COPYING, LICENSE-APACHE, LICENSE-3RD-PARTY.md, NOTICE,
// golang.org/x's PATENTS grant, UNLICENSE, in any case.
var licenseName = regexp.MustCompile(`(?i)^(licen[cs]e|copying|notice|patents|unlicense)([._-].*)?$`)

// codeExt marks files that share a licence file's name but are code (license.go).
var codeExt = map[string]bool{".go": true, ".js": true, ".mjs": true, ".cjs": true, ".ts": true, ".json": true, ".html": true}

// licenseFiles reads the licence and notice files at the top of a module or package
// directory, sorted by name, with line ends made uniform so the output is the same
// whichever platform checked the files out.
func licenseFiles(dir string) ([]licenseFile, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []licenseFile
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !licenseName.MatchString(name) || codeExt[strings.ToLower(filepath.Ext(name))] {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		text := strings.TrimRight(strings.ReplaceAll(string(raw), "\r\n", "\n"), "\n \t")
		if strings.TrimSpace(text) == "" {
			continue
		}
		files = append(files, licenseFile{Name: name, Text: text})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	return files, nil
}

// errNoLicense is wrapped by every "this component ships no licence file" error.
var errNoLicense = errors.New("no licence file")

// goComponents looks up the licence files of each module. resolve maps modules to
// their directories (moduleDirs outside tests).
func goComponents(mods []modRef, resolve func([]modRef) (map[modRef]string, error)) ([]component, error) {
	dirs, err := resolve(mods)
	if err != nil {
		return nil, err
	}
	var out []component
	var missing []string
	for _, m := range mods {
		files, err := licenseFiles(dirs[m])
		if err != nil {
			return nil, fmt.Errorf("module %s: %w", m, err)
		}
		if len(files) == 0 {
			missing = append(missing, fmt.Sprintf("%s (%s)", m, dirs[m]))
			continue
		}
		out = append(out, component{Name: m.Path, Version: m.Version, Files: files})
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w in Go module %s", errNoLicense, strings.Join(missing, ", "))
	}
	return out, nil
}

// goStdlib is the Go standard library and runtime, which every Go binary links and
// whose BSD licence asks for its notice too. The licence comes from the toolchain
// the go command selects in moduleDir, which must be the one that built the binary.
func goStdlib(moduleDir, goVersion string) (component, error) {
	cmd := exec.Command("go", "env", "GOROOT", "GOVERSION")
	cmd.Dir = moduleDir
	out, err := cmd.Output()
	if err != nil {
		return component{}, fmt.Errorf("go env: %w", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 {
		return component{}, fmt.Errorf("go env printed %q", out)
	}
	goroot, have := lines[0], strings.TrimSpace(lines[1])
	if have != goVersion {
		return component{}, fmt.Errorf("the binary was built with %s but the go command here is %s", goVersion, have)
	}
	files, err := licenseFiles(goroot)
	if err != nil {
		return component{}, err
	}
	if len(files) == 0 {
		return component{}, fmt.Errorf("%w in GOROOT %s", errNoLicense, goroot)
	}
	return component{Name: "Go standard library and runtime", Version: goVersion, Files: files}, nil
}
