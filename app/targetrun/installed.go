package targetrun

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"fixthis/adb"
)

// Installed is what the device says about an installed package.
type Installed struct {
	Package      string    `json:"package"`
	VersionName  string    `json:"versionName,omitempty"`
	VersionCode  int       `json:"versionCode,omitempty"`
	FirstInstall time.Time `json:"firstInstallTime,omitzero"`
	LastUpdate   time.Time `json:"lastUpdateTime,omitzero"`
}

var (
	pkgHeaderRE = regexp.MustCompile(`(?m)^\s*Package \[([^\]]+)\]`)
	pkgFieldRE  = regexp.MustCompile(`(?m)^\s*(versionCode|versionName|firstInstallTime|lastUpdateTime)=(\S+(?: \d\d:\d\d:\d\d)?)`)
)

// ParsePackageDump reads `dumpsys package PKG`: the version and install times of
// the first "Package [PKG]" record. A system app updated by the user has a second
// record for the factory build under "Hidden system packages:"; the first is the
// build that runs. Times are the device's local wall clock, so loc is the device's
// zone. ok is false when no record is the package's.
func ParsePackageDump(out, pkg string, loc *time.Location) (Installed, bool) {
	out = strings.ReplaceAll(out, "\r", "")
	var rec string
	found := false
	heads := pkgHeaderRE.FindAllStringSubmatchIndex(out, -1)
	for i, h := range heads {
		if out[h[2]:h[3]] != pkg {
			continue
		}
		end := len(out)
		if i+1 < len(heads) {
			end = heads[i+1][0]
		}
		rec, found = out[h[1]:end], true
		break
	}
	if !found {
		return Installed{}, false
	}
	in := Installed{Package: pkg}
	for _, m := range pkgFieldRE.FindAllStringSubmatch(rec, -1) {
		switch m[1] {
		case "versionCode":
			if in.VersionCode == 0 {
				in.VersionCode, _ = strconv.Atoi(m[2])
			}
		case "versionName":
			if in.VersionName == "" {
				in.VersionName = m[2]
			}
		case "firstInstallTime":
			in.FirstInstall, _ = time.ParseInLocation("2006-01-02 15:04:05", m[2], loc)
		case "lastUpdateTime":
			in.LastUpdate, _ = time.ParseInLocation("2006-01-02 15:04:05", m[2], loc)
		}
	}
	return in, true
}

var zoneRE = regexp.MustCompile(`^([+-])(\d\d)(\d\d)$`)

// DeviceZone reads the device's UTC offset with `date +%z`; UTC when it cannot.
func DeviceZone(ctx context.Context, dev Device) *time.Location {
	res, err := dev.Shell(ctx, "date +%z")
	out := res.Stdout
	m := zoneRE.FindStringSubmatch(strings.TrimSpace(string(out)))
	if err != nil || m == nil {
		return time.UTC
	}
	h, _ := strconv.Atoi(m[2])
	mins, _ := strconv.Atoi(m[3])
	off := h*3600 + mins*60
	if m[1] == "-" {
		off = -off
	}
	return time.FixedZone(strings.TrimSpace(string(out)), off)
}

// ReadInstalled asks the device about pkg; ok is false when it is not installed.
func ReadInstalled(ctx context.Context, dev Device, pkg string) (Installed, bool, error) {
	if err := adb.CheckPackage(pkg); err != nil {
		return Installed{}, false, err
	}
	res, err := dev.Shell(ctx, adb.Command("dumpsys", "package", pkg))
	out := res.Stdout
	if err != nil {
		return Installed{}, false, fmt.Errorf("dumpsys package %s: %w", pkg, err)
	}
	in, ok := ParsePackageDump(string(out), pkg, DeviceZone(ctx, dev))
	return in, ok, nil
}
