package targetrun

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"fixthis/app/project"
)

// APK is a built APK and what AGP's output-metadata.json says about it.
type APK struct {
	Path          string
	ApplicationID string // the final id, suffixes applied; "" when unknown
	VersionName   string
	VersionCode   int
}

// outputMetadata is AGP's build/outputs/apk/<variant>/output-metadata.json.
type outputMetadata struct {
	ApplicationID string `json:"applicationId"`
	VariantName   string `json:"variantName"`
	Elements      []struct {
		Type        string `json:"type"` // SINGLE | UNIVERSAL | ONE_OF_MANY
		VersionCode int    `json:"versionCode"`
		VersionName string `json:"versionName"`
		OutputFile  string `json:"outputFile"`
	} `json:"elements"`
}

func readOutputMetadata(dir string) (APK, error) {
	data, err := os.ReadFile(filepath.Join(dir, "output-metadata.json"))
	if err != nil {
		return APK{}, err
	}
	var m outputMetadata
	if err := json.Unmarshal(data, &m); err != nil {
		return APK{}, err
	}
	// Prefer the one APK that runs everywhere; per-ABI splits come after.
	for _, pass := range []func(string) bool{
		func(t string) bool { return t == "SINGLE" || t == "UNIVERSAL" },
		func(string) bool { return true },
	} {
		for _, e := range m.Elements {
			p := filepath.Join(dir, e.OutputFile)
			if pass(e.Type) && fileExists(p) {
				return APK{Path: p, ApplicationID: m.ApplicationID, VersionName: e.VersionName, VersionCode: e.VersionCode}, nil
			}
		}
	}
	return APK{}, errors.New("output-metadata.json lists no APK that exists")
}

// newestAPK looks under moduleDir/build/outputs/apk for the newest metadata (or
// APK) of the variant written after since. AGP writes a variant to
// apk/<flavors>/<buildType>/, so "demoDebug" is apk/demo/debug; a variant whose
// flavors the scripts did not tell is found that way too.
func newestAPK(moduleDir string, v project.Variant, since time.Time) (APK, error) {
	return newestIn(moduleDir, since, func(dir string) bool { return variantDir(dir, v) })
}

// newestAPKOfType is newestAPK for any flavor of the build type: what a bare
// `assembleDebug` of a module with flavors the scripts did not tell produced.
func newestAPKOfType(moduleDir, buildType string, since time.Time) (APK, error) {
	return newestIn(moduleDir, since, func(dir string) bool { return filepath.Base(dir) == buildType })
}

func newestIn(moduleDir string, since time.Time, match func(dir string) bool) (APK, error) {
	var best APK
	var bestTime time.Time
	root := filepath.Join(moduleDir, "build", "outputs", "apk")
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !match(filepath.Dir(p)) {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.ModTime().Before(since) || !info.ModTime().After(bestTime) {
			return nil
		}
		if ext := filepath.Ext(p); ext != ".json" && ext != ".apk" {
			return nil
		}
		// The metadata beside an APK knows its final applicationId.
		if apk, err := readOutputMetadata(filepath.Dir(p)); err == nil {
			best, bestTime = apk, info.ModTime()
		} else if filepath.Ext(p) == ".apk" {
			best, bestTime = APK{Path: p}, info.ModTime()
		}
		return nil
	})
	if best.Path == "" {
		return APK{}, fs.ErrNotExist
	}
	return best, nil
}

// variantDir reports whether dir (…/apk/<flavors>/<buildType>) holds variant v.
func variantDir(dir string, v project.Variant) bool {
	base, parent := filepath.Base(dir), filepath.Base(filepath.Dir(dir))
	if parent == "apk" {
		return base == v.Name || base == v.BuildType
	}
	return parent+strings.ToUpper(base[:1])+base[1:] == v.Name
}
