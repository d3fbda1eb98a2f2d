// pm: list, path, install, uninstall, clear, and `dumpsys package`.
package android

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"fixthis/sim/shell"
)

// systemPackages are listed by `pm list packages` besides the installed apps.
var systemPackages = []string{
	"android", "com.android.systemui", "com.android.settings", "com.android.shell",
	"com.android.providers.settings", "com.google.android.apps.nexuslauncher",
	"com.google.android.gms", "com.android.chrome", "com.google.android.inputmethod.latin",
}

func cmdPm(e *cmdEnv) int {
	if len(e.Args) < 2 {
		return e.Errorf(255, "Package manager (package) commands:\n  path PACKAGE\n  list packages [-3] [FILTER]\n  install [-r] [-t] [-d] [-S SIZE] [PATH]\n  uninstall PACKAGE\n")
	}
	db := &e.dev.pkgs
	switch e.Args[1] {
	case "path":
		if len(e.Args) < 3 {
			return e.Errorf(255, "Error: no package specified\n")
		}
		p, ok := db.get(e.Args[2])
		if !ok {
			return 1
		}
		e.Printf("package:%s/base.apk\n", p.codePath)
		return 0
	case "list":
		if len(e.Args) < 3 || e.Args[2] != "packages" {
			return e.Errorf(255, "Error: unknown list type\n")
		}
		f, rest := shell.Flags(e.Args[3:])
		filter := ""
		if len(rest) > 0 {
			filter = rest[0]
		}
		pkgs := db.names()
		if !f['3'] {
			pkgs = append(pkgs, systemPackages...)
		}
		for _, p := range pkgs {
			if strings.Contains(p, filter) {
				e.Printf("package:%s\n", p)
			}
		}
		return 0
	case "install", "install-streamed":
		return pmInstall(e)
	case "uninstall":
		if len(e.Args) < 3 {
			return e.Errorf(255, "Error: package name not specified\n")
		}
		if !e.dev.uninstall(e.Args[len(e.Args)-1]) {
			e.Printf("Failure [DELETE_FAILED_INTERNAL_ERROR]\n")
			return 1
		}
		e.Printf("Success\n")
		return 0
	case "clear":
		e.Printf("Success\n")
		return 0
	}
	return e.Errorf(255, "Unknown command: %s\n", e.Args[1])
}

// pmInstall is `pm install [-r] [-t] [-d] [-g] -S SIZE` (the APK streamed on stdin,
// what `adb install` sends over exec:) or `pm install FILE` (after a push). Like
// the real command it prints "Success" or "Failure [CODE: detail]" on stdout.
func pmInstall(e *cmdEnv) int {
	args := e.Args[2:]
	size := -1
	var file string
	var opts installOptions
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "-S" && i+1 < len(args):
			size, _ = strconv.Atoi(args[i+1])
			i++
		case args[i] == "-d":
			opts.allowDowngrade = true
		case args[i] == "-i" || args[i] == "--user" || args[i] == "--install-location":
			i++ // flags with a value the sim does not act on
		case strings.HasPrefix(args[i], "-"):
		default:
			file = args[i]
		}
	}
	var data []byte
	switch {
	case size >= 0:
		data = make([]byte, size)
		if _, err := io.ReadFull(e.Stdin, data); err != nil {
			e.Printf("Failure [INSTALL_FAILED_MEDIA_UNAVAILABLE: short read: %v]\n", err)
			return 1
		}
	case file != "":
		var err error
		if data, err = e.dev.fs.ReadFile(e.Resolve(file)); err != nil {
			e.Printf("Failure [INSTALL_FAILED_INVALID_URI: %s: %v]\n", file, err)
			return 1
		}
	default:
		return e.Errorf(1, "Error: APK content must be streamed\n")
	}
	if err := e.dev.install(data, opts); err != nil {
		e.Printf("%s\n", err)
		return 1
	}
	e.Printf("Success\n")
	return 0
}

// dumpPackage is `dumpsys package PKG` in the layout Android 7+ prints: the
// resolver entry of the launcher activity, then the package's record.
func dumpPackage(e *cmdEnv, d *Device) int {
	if len(e.Args) < 3 {
		e.Printf("Package Manager dumps.\n")
		return 0
	}
	p, ok := d.pkgs.get(e.Args[2])
	if !ok {
		e.Printf("Unable to find package: %s\n", e.Args[2])
		return 0
	}
	if p.launcher != "" {
		e.Printf("Activity Resolver Table:\n  Non-Data Actions:\n      android.intent.action.MAIN:\n        7f3e2a1 %s filter 5d1c0b2\n          Action: \"android.intent.action.MAIN\"\n          Category: \"android.intent.category.LAUNCHER\"\n\n",
			shortComponent(p.name, p.launcher))
	}
	fmt.Fprintf(e.Stdout, `Packages:
  Package [%[1]s] (a41b9c2):
    userId=10187
    pkg=Package{3e9d1f0 %[1]s}
    codePath=%[2]s
    resourcePath=%[2]s
    legacyNativeLibraryDir=%[2]s/lib
    primaryCpuAbi=arm64-v8a
    secondaryCpuAbi=null
    versionCode=%[3]d minSdk=%[4]d targetSdk=%[5]d
    versionName=%[6]s
    splits=[base]
    apkSigningVersion=2
    applicationInfo=ApplicationInfo{29cb2a4 %[1]s}
    flags=[ HAS_CODE ALLOW_CLEAR_USER_DATA DEBUGGABLE ALLOW_BACKUP ]
    privateFlags=[ PRIVATE_FLAG_ACTIVITIES_RESIZE_MODE_RESIZEABLE_VIA_SDK_VERSION ]
    dataDir=/data/user/0/%[1]s
    supportsScreens=[small, medium, large, xlarge, resizeable, anyDensity]
    timeStamp=%[7]s
    firstInstallTime=%[8]s
    lastUpdateTime=%[7]s
    installerPackageName=null
    signatures=PackageSignatures{9fe380d [53ea108d]}
    installPermissionsFixed=true installStatus=1
    pkgFlags=[ HAS_CODE ALLOW_CLEAR_USER_DATA DEBUGGABLE ALLOW_BACKUP ]
    User 0: ceDataInode=81921 installed=true hidden=false suspended=false stopped=false notLaunched=false enabled=0
      runtime permissions:
`, p.name, p.codePath, p.versionCode, max(p.minSdk, 1), d.profile.SDK, p.versionName,
		deviceTime(p.lastUpdate), deviceTime(p.firstInstall))
	return 0
}
