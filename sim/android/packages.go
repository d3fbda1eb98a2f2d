// The package manager's database: the packages a phone boots with, APK parsing,
// install and uninstall.
package android

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The package manager of the simulated phone: what is installed, with the fields
// `dumpsys package` and `pm` report. The scenario's app is installed at boot; an
// APK installed over adb (streamed `cmd package install -S`, or `pm install FILE`)
// adds or replaces a package.
//
// The sim reads an APK's AndroidManifest.xml as text XML (package, versionCode,
// versionName, minSdkVersion, the MAIN/LAUNCHER activity) and treats the digest of
// its META-INF/*.RSA|DSA|EC entries as the signature. Real APKs hold binary XML,
// which it refuses with an INSTALL_PARSE_FAILED error; the APKs tests build are
// zip files with a text manifest.

// installedPackage is one package the package manager knows.
type installedPackage struct {
	name         string
	versionName  string
	versionCode  int
	minSdk       int
	launcher     string // fully qualified class, or "" when the app has none
	signature    string // "" for the preinstalled scenario app: any key may update it
	firstInstall time.Time
	lastUpdate   time.Time
	codePath     string
}

type packageDB struct {
	mu   sync.Mutex
	pkgs map[string]*installedPackage
	seq  int
}

func (db *packageDB) get(name string) (installedPackage, bool) {
	db.mu.Lock()
	defer db.mu.Unlock()
	p, ok := db.pkgs[name]
	if !ok {
		return installedPackage{}, false
	}
	return *p, true
}

func (db *packageDB) names() []string {
	db.mu.Lock()
	defer db.mu.Unlock()
	out := make([]string, 0, len(db.pkgs))
	for n := range db.pkgs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// bootPackages installs the scenario's app as a phone that had it installed before.
func (d *Device) bootPackages(now time.Time) {
	d.pkgs.pkgs = map[string]*installedPackage{}
	app := d.profile.App
	if app.Package == "" {
		return
	}
	d.pkgs.pkgs[app.Package] = &installedPackage{
		name: app.Package, versionName: app.VersionName, versionCode: app.VersionCode, minSdk: 24,
		launcher: activityClass(app.Package, app.LauncherActivity), firstInstall: now, lastUpdate: now,
		codePath: "/data/app/" + app.Package + "-1",
	}
}

// apkInfo is what the sim reads from an APK.
type apkInfo struct {
	pkg, versionName, launcher, signature string
	versionCode, minSdk                   int
}

type apkManifest struct {
	Package     string `xml:"package,attr"`
	VersionCode string `xml:"versionCode,attr"`
	VersionName string `xml:"versionName,attr"`
	UsesSdk     struct {
		MinSdk string `xml:"minSdkVersion,attr"`
	} `xml:"uses-sdk"`
	Activities []struct {
		Name    string `xml:"name,attr"`
		Filters []struct {
			Actions []struct {
				Name string `xml:"name,attr"`
			} `xml:"action"`
			Categories []struct {
				Name string `xml:"name,attr"`
			} `xml:"category"`
		} `xml:"intent-filter"`
	} `xml:"application>activity"`
}

// installError is a `Failure [CODE: detail]` line.
type installError struct{ code, detail string }

func (e installError) Error() string {
	if e.detail == "" {
		return "Failure [" + e.code + "]"
	}
	return "Failure [" + e.code + ": " + e.detail + "]"
}

func parseAPK(data []byte, tmpPath string) (apkInfo, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return apkInfo{}, installError{"INSTALL_PARSE_FAILED_NOT_APK", "Failed to parse " + tmpPath + ": not a zip archive"}
	}
	var manifest []byte
	sig := sha256.New()
	for _, f := range zr.File {
		name := f.Name
		isCert := strings.HasPrefix(name, "META-INF/") && (strings.HasSuffix(name, ".RSA") || strings.HasSuffix(name, ".DSA") || strings.HasSuffix(name, ".EC"))
		if name != "AndroidManifest.xml" && !isCert {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return apkInfo{}, installError{"INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION", err.Error()}
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		if isCert {
			sig.Write(b)
		} else {
			manifest = b
		}
	}
	if manifest == nil {
		return apkInfo{}, installError{"INSTALL_PARSE_FAILED_BAD_MANIFEST", "Failed to parse " + tmpPath + ": AndroidManifest.xml is missing"}
	}
	if !bytes.HasPrefix(bytes.TrimSpace(manifest), []byte("<")) {
		return apkInfo{}, installError{"INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION", "Failed to parse " + tmpPath + ": the simulated device reads text manifests only"}
	}
	var m apkManifest
	if err := xml.Unmarshal(manifest, &m); err != nil || m.Package == "" {
		return apkInfo{}, installError{"INSTALL_PARSE_FAILED_MANIFEST_MALFORMED", "Failed to parse " + tmpPath + ": <manifest> has no package"}
	}
	info := apkInfo{pkg: m.Package, versionName: m.VersionName, signature: hex.EncodeToString(sig.Sum(nil))}
	info.versionCode, _ = strconv.Atoi(m.VersionCode)
	info.minSdk, _ = strconv.Atoi(m.UsesSdk.MinSdk)
	for _, a := range m.Activities {
		for _, f := range a.Filters {
			main, launcher := false, false
			for _, ac := range f.Actions {
				main = main || ac.Name == "android.intent.action.MAIN"
			}
			for _, c := range f.Categories {
				launcher = launcher || c.Name == "android.intent.category.LAUNCHER"
			}
			if main && launcher && info.launcher == "" {
				info.launcher = activityClass(m.Package, a.Name)
			}
		}
	}
	return info, nil
}

// installOptions are the `pm install` flags the sim honours.
type installOptions struct {
	allowDowngrade bool // -d
}

// install adds or replaces a package, with the checks PackageManagerService makes.
// Replacing a package stops its process, as on a phone.
func (d *Device) install(data []byte, opts installOptions) error {
	d.pkgs.mu.Lock()
	d.pkgs.seq++
	tmp := fmt.Sprintf("/data/app/vmdl%d.tmp/base.apk", 1021380000+d.pkgs.seq)
	d.pkgs.mu.Unlock()
	info, err := parseAPK(data, tmp)
	if err != nil {
		return err
	}
	if info.minSdk > d.profile.SDK {
		return installError{"INSTALL_FAILED_OLDER_SDK", fmt.Sprintf("Failed parse during installPackageLI: %s (at Binary XML file line #7): Requires newer sdk version #%d (current version is #%d)", tmp, info.minSdk, d.profile.SDK)}
	}
	now := time.Now()
	d.pkgs.mu.Lock()
	old, exists := d.pkgs.pkgs[info.pkg]
	if exists {
		if old.signature != "" && old.signature != info.signature {
			d.pkgs.mu.Unlock()
			return installError{"INSTALL_FAILED_UPDATE_INCOMPATIBLE", fmt.Sprintf("Existing package %s signatures do not match newer version; ignoring!", info.pkg)}
		}
		if info.versionCode < old.versionCode && !opts.allowDowngrade {
			d.pkgs.mu.Unlock()
			return installError{"INSTALL_FAILED_VERSION_DOWNGRADE", fmt.Sprintf("Downgrade detected: Update version code %d is older than current %d", info.versionCode, old.versionCode)}
		}
	}
	p := &installedPackage{
		name: info.pkg, versionName: info.versionName, versionCode: info.versionCode, minSdk: info.minSdk,
		launcher: info.launcher, signature: info.signature, firstInstall: now, lastUpdate: now,
		codePath: fmt.Sprintf("/data/app/%s-%d", info.pkg, d.pkgs.seq),
	}
	if exists {
		p.firstInstall = old.firstInstall
	}
	d.pkgs.pkgs[info.pkg] = p
	d.pkgs.mu.Unlock()
	d.phone.ForceStop(info.pkg)
	d.appPid() // logs the death when the app was running
	d.log("I", "PackageManager", 1423, fmt.Sprintf("Package %s codePath changed; installed version %d", info.pkg, info.versionCode))
	return nil
}

// uninstall removes a package and stops it.
func (d *Device) uninstall(name string) bool {
	d.pkgs.mu.Lock()
	_, ok := d.pkgs.pkgs[name]
	delete(d.pkgs.pkgs, name)
	d.pkgs.mu.Unlock()
	if ok {
		d.phone.ForceStop(name)
		d.appPid()
	}
	return ok
}

// deviceTime formats t as dumpsys does: the phone's local time, no zone.
func deviceTime(t time.Time) string { return t.Local().Format("2006-01-02 15:04:05") }
