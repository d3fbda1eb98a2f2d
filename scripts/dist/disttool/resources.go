package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"text/template"

	"github.com/tc-hib/winres"
	"github.com/tc-hib/winres/version"
)

// iconSizes are the sizes Windows picks from for the taskbar, Explorer and shortcuts.
var iconSizes = []int{256, 128, 64, 48, 32, 24, 16}

// runResources writes the .syso object that go build links into the executable (icon,
// manifest, version information) and the same icon as an .ico file for the installer.
func runResources(args []string) error {
	f := flag.NewFlagSet("resources", flag.ContinueOnError)
	var c commonFlags
	c.register(f)
	iconPNG := f.String("icon", "build/appicon.png", "square PNG app icon")
	sysoPath := f.String("syso", "", "resource object to write (e.g. fixthis_windows_amd64.syso)")
	icoPath := f.String("ico", "", "icon file to write for the installer")
	if err := f.Parse(args); err != nil {
		return err
	}
	if *sysoPath == "" || *icoPath == "" {
		return fmt.Errorf("-syso and -ico are required")
	}
	p, err := c.load()
	if err != nil {
		return err
	}
	icon, err := loadIcon(*iconPNG)
	if err != nil {
		return err
	}
	var rs winres.ResourceSet
	if err := rs.SetIcon(winres.RT_ICON, icon); err != nil {
		return err
	}
	manifest, err := renderTemplate(c.wailsAsset("wails.exe.manifest"), p)
	if err != nil {
		return err
	}
	m, err := winres.AppManifestFromXML(manifest)
	if err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	rs.SetManifest(m)
	info, err := renderTemplate(c.wailsAsset("info.json"), p)
	if err != nil {
		return err
	}
	var vi version.Info
	if err := vi.UnmarshalJSON(info); err != nil {
		return fmt.Errorf("version info: %w", err)
	}
	// The fixed part is numeric; the strings carry the full release version so
	// Explorer's Details tab shows what `fixthis version` prints.
	for _, key := range []string{"ProductVersion", "FileVersion"} {
		if err := vi.Set(version.LangNeutral, key, strings.TrimPrefix(c.version, "v")); err != nil {
			return err
		}
	}
	if err := vi.Set(version.LangNeutral, "OriginalFilename", p.OutputFilename+".exe"); err != nil {
		return err
	}
	rs.SetVersionInfo(vi)

	if err := writeWith(*sysoPath, func(w *os.File) error { return rs.WriteObject(w, winres.ArchAMD64) }); err != nil {
		return err
	}
	return writeWith(*icoPath, func(w *os.File) error { return icon.SaveICO(w) })
}

func loadIcon(path string) (*winres.Icon, error) {
	img, err := decodePNG(path)
	if err != nil {
		return nil, err
	}
	return winres.NewIconFromResizedImage(img, iconSizes)
}

// renderTemplate executes one of Wails' build-asset templates with the project data,
// as `wails build` does.
func renderTemplate(path string, p projectData) ([]byte, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	tmpl, err := template.New(path).Parse(string(raw))
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := tmpl.Execute(&out, p); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out.Bytes(), nil
}

// writeWith creates path, lets write fill it, and reports the first error.
func writeWith(path string, write func(*os.File) error) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(fh); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}
