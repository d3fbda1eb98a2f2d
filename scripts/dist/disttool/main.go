// Command disttool makes the parts of a FixThis release that need more than a shell:
// the hicolor icon sizes for Linux, the Windows resource object (icon, manifest,
// version) linked into fixthis.exe, the NSIS installer built from the templates that
// ship with the Wails module in use, a check that an executable is a 64-bit GUI
// program, a check that an installer shows the licence, THIRD_PARTY_NOTICES, the
// licences of everything a binary is built from, and the Homebrew formula for the
// macOS tarballs.
//
// It lives in its own module so the app's go.mod does not carry build-only
// dependencies.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "icons":
		err = runIcons(os.Args[2:])
	case "resources":
		err = runResources(os.Args[2:])
	case "installer":
		err = runInstaller(os.Args[2:])
	case "check-pe":
		err = runCheckPE(os.Args[2:])
	case "check-license-page":
		err = runCheckLicensePage(os.Args[2:])
	case "notices":
		err = runNotices(os.Args[2:])
	case "formula":
		err = runFormula(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "disttool %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, `usage:
  disttool icons -icon PNG -out DIR [-sizes 16,32,…]
  disttool resources -wails DIR -project wails.json -version V -icon PNG -syso OUT.syso -ico OUT.ico
  disttool installer -wails DIR -project wails.json -version V -exe fixthis.exe -ico icon.ico -out SETUP.exe [-notices FILE] [-license FILE]
  disttool check-pe FILE.exe
  disttool check-license-page -license FILE SETUP.exe
  disttool notices -binary BIN -sourcemaps DIR [-vite DIR] [-module-dir DIR] -out FILE
  disttool formula -version V -url BASE [-homepage URL] -arm64 TARBALL -amd64 TARBALL -out fixthis.rb`)
	os.Exit(2)
}

// projectData mirrors what Wails' build-asset templates expect ({{.Name}},
// {{.Info.ProductVersion}}, …), filled from wails.json.
type projectData struct {
	Name           string `json:"name"`
	OutputFilename string `json:"outputfilename"`
	Info           struct {
		CompanyName      string `json:"companyName"`
		ProductName      string `json:"productName"`
		ProductVersion   string `json:"productVersion"`
		Copyright        string `json:"copyright"`
		Comments         string `json:"comments"`
		FileAssociations []struct {
			Ext, Name, Description, IconName string
		} `json:"fileAssociations"`
		Protocols []struct {
			Scheme, Description string
		} `json:"protocols"`
	} `json:"info"`
}

// commonFlags are the inputs every template needs.
type commonFlags struct {
	wailsDir, project, version string
}

func (c *commonFlags) register(f *flag.FlagSet) {
	f.StringVar(&c.wailsDir, "wails", "", "directory of the github.com/wailsapp/wails/v2 module (go list -m -f '{{.Dir}}')")
	f.StringVar(&c.project, "project", "wails.json", "the project's wails.json")
	f.StringVar(&c.version, "version", "", "release version, e.g. 1.2.0 or 1.2.0-3-gabcdef")
}

// load reads wails.json and sets the product version to the numeric part of the
// release version: Windows version resources and NSIS only take dotted numbers.
func (c *commonFlags) load() (projectData, error) {
	var p projectData
	if c.wailsDir == "" || c.version == "" {
		return p, fmt.Errorf("-wails and -version are required")
	}
	raw, err := os.ReadFile(c.project)
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return p, fmt.Errorf("%s: %w", c.project, err)
	}
	num, err := numericVersion(c.version)
	if err != nil {
		return p, err
	}
	p.Info.ProductVersion = num
	return p, nil
}

// wailsAsset is the path of one of Wails' Windows build-asset templates.
func (c *commonFlags) wailsAsset(name string) string {
	return filepath.Join(c.wailsDir, "pkg", "buildassets", "build", "windows", filepath.FromSlash(name))
}

var leadingVersion = regexp.MustCompile(`^v?(\d+)\.(\d+)\.(\d+)`)

// numericVersion turns "v1.2.3-4-gabc" or "0.1.0-dev+abc" into "1.2.3" / "0.1.0".
func numericVersion(v string) (string, error) {
	m := leadingVersion.FindStringSubmatch(v)
	if m == nil {
		return "", fmt.Errorf("version %q does not start with MAJOR.MINOR.PATCH", v)
	}
	return m[1] + "." + m[2] + "." + m[3], nil
}
