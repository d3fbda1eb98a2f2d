package targetrun

import (
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"fixthis/adb"
)

// InstallError is a `Failure [CODE: detail]` from the package manager, with a
// sentence saying what it means and what to do.
type InstallError struct {
	Code, Detail, Advice string
}

func (e *InstallError) Error() string {
	msg := "install failed: " + e.Code
	if e.Detail != "" {
		msg += " (" + e.Detail + ")"
	}
	return msg + ". " + e.Advice
}

// installAdvice is what each failure means for someone running their debug build.
var installAdvice = map[string]string{
	"INSTALL_FAILED_UPDATE_INCOMPATIBLE":             "A build signed with another key is installed (often one from another machine or the store). Run again with --reinstall to uninstall it first; the app's data on the device goes with it.",
	"INSTALL_FAILED_VERSION_DOWNGRADE":               "The device has a build with a higher versionCode. Raise versionCode, or run again with --reinstall to uninstall it first; the app's data on the device goes with it.",
	"INSTALL_FAILED_ALREADY_EXISTS":                  "The package is already installed and may not be replaced. Run again with --reinstall; the app's data on the device goes with it.",
	"INSTALL_FAILED_INSUFFICIENT_STORAGE":            "The device is out of storage. Free some space on it and run again.",
	"INSTALL_FAILED_OLDER_SDK":                       "The app's minSdk is higher than the device's Android version. Use a newer device or lower minSdk.",
	"INSTALL_FAILED_NO_MATCHING_ABIS":                "The APK's native libraries are not built for this device's CPU (ABI). Build for the device's ABI or use an emulator image that matches.",
	"INSTALL_FAILED_TEST_ONLY":                       "The APK is marked testOnly and the device refused it. Install it with -t, or build it without android:testOnly.",
	"INSTALL_FAILED_USER_RESTRICTED":                 "The device refused the install: confirm it on the phone's screen, or turn on \"Install via USB\" in Developer options (MIUI and some others require it).",
	"INSTALL_FAILED_VERIFICATION_FAILURE":            "Package verification rejected the APK. Turn off \"Verify apps over USB\" in Developer options and run again.",
	"INSTALL_FAILED_DUPLICATE_PERMISSION":            "Another installed app defines the same custom permission. Uninstall that app (often another build variant of this one) and run again.",
	"INSTALL_FAILED_CONFLICTING_PROVIDER":            "Another installed app uses the same content provider authority. Uninstall it (often another variant of this app), or give each variant its own authority.",
	"INSTALL_FAILED_MISSING_SHARED_LIBRARY":          "The app needs a shared library the device does not have (a <uses-library> in the manifest). Use a device that has it or mark it android:required=\"false\".",
	"INSTALL_FAILED_INVALID_APK":                     "The device could not read the APK. Rebuild it (a clean build helps) and run again.",
	"INSTALL_FAILED_MEDIA_UNAVAILABLE":               "The APK did not arrive whole. Check the USB or Wi-Fi connection and run again.",
	"INSTALL_FAILED_ABORTED":                         "The install was cancelled on the device. Run again and accept it on the phone if it asks.",
	"INSTALL_FAILED_DEXOPT":                          "The device failed to optimise the app's code. Free storage on the device, or rebuild, and run again.",
	"INSTALL_FAILED_INTERNAL_ERROR":                  "The package manager hit an internal error. Reboot the device if it keeps happening.",
	"INSTALL_PARSE_FAILED_NOT_APK":                   "The file is not an APK. Rebuild it and run again.",
	"INSTALL_PARSE_FAILED_NO_CERTIFICATES":           "The APK is not signed. Debug builds are signed with the debug key; check the signingConfig of this build type.",
	"INSTALL_PARSE_FAILED_INCONSISTENT_CERTIFICATES": "The APK's signatures disagree with each other. Rebuild it cleanly.",
	"INSTALL_PARSE_FAILED_MANIFEST_MALFORMED":        "The device rejected the APK's manifest (on Android 12+ every activity with an intent filter needs android:exported). Fix the manifest and rebuild.",
	"INSTALL_PARSE_FAILED_BAD_MANIFEST":              "The device could not read the APK's manifest. Rebuild it and run again.",
	"INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION":      "The device could not parse the APK. Rebuild it and run again.",
}

var failureRE = regexp.MustCompile(`Failure \[([A-Z_]+)(?::\s*(.*?))?\]`)

// detailMax bounds the package manager's text an install error repeats: a verdict
// is one line, and a device printing megabytes must not make a megabyte error.
const detailMax = 300

// firstBytes is s cut to at most n bytes, on a rune boundary, marked when cut.
func firstBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// parseInstallOutput turns `pm install` output into nil or an *InstallError.
func parseInstallOutput(out string) error {
	if strings.Contains(out, "Success") {
		return nil
	}
	m := failureRE.FindStringSubmatch(out)
	if m == nil {
		return &InstallError{Code: "INSTALL_FAILED_UNKNOWN", Detail: firstBytes(strings.TrimSpace(out), detailMax), Advice: "The package manager gave no verdict; check the device and run again."}
	}
	advice, ok := installAdvice[m[1]]
	if !ok {
		advice = "The package manager refused the APK; the code above names the reason."
	}
	return &InstallError{Code: m[1], Detail: firstBytes(m[2], detailMax), Advice: advice}
}

// Install puts apk on the device: streamed into `cmd package install -S SIZE` over
// exec: when the device has the cmd service (Android 7+), else pushed to
// /data/local/tmp and installed with `pm install`. -r replaces an installed build,
// -t accepts debug builds marked testOnly.
func Install(ctx context.Context, dev Device, apk string, report func(Progress)) error {
	f, err := os.Open(apk)
	if err != nil {
		return fmt.Errorf("open APK: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	size := st.Size()
	counter := &progressReader{r: f, total: size, report: report, msg: fmt.Sprintf("installing %s (%s)", path.Base(apk), humanSize(size))}
	report(Progress{Stage: StageInstall, Message: counter.msg, Fraction: 0})
	feats, _ := dev.Features(ctx)
	if slices.Contains(feats, "cmd") {
		out, err := dev.ExecInput(ctx, adb.Command("cmd", "package", "install", "-r", "-t", "-S", strconv.FormatInt(size, 10)), counter)
		if err != nil {
			return fmt.Errorf("stream the APK to the device: %w", err)
		}
		return parseInstallOutput(string(out))
	}
	remote := "/data/local/tmp/fixthis-" + path.Base(apk)
	if err := adb.CheckPath(remote); err != nil {
		return err
	}
	if err := dev.Push(ctx, counter, remote, 0o644, st.ModTime()); err != nil {
		return fmt.Errorf("push the APK to %s: %w", remote, err)
	}
	res, err := dev.Shell(ctx, adb.Command("pm", "install", "-r", "-t", remote))
	dev.Shell(context.WithoutCancel(ctx), adb.Command("rm", "-f", remote))
	out := res.Stdout
	if err != nil {
		return fmt.Errorf("pm install: %w", err)
	}
	return parseInstallOutput(string(out))
}

// Uninstall removes pkg and its data. A package that is not installed is fine.
func Uninstall(ctx context.Context, dev Device, pkg string) error {
	if err := adb.CheckPackage(pkg); err != nil {
		return err
	}
	res, err := dev.Shell(ctx, adb.Command("pm", "uninstall", pkg))
	out := res.Stdout
	if err != nil {
		return fmt.Errorf("uninstall %s: %w", pkg, err)
	}
	if s := string(out); !strings.Contains(s, "Success") && !strings.Contains(s, "DELETE_FAILED_INTERNAL_ERROR") {
		return fmt.Errorf("uninstall %s: %s", pkg, strings.TrimSpace(s))
	}
	return nil
}

// progressReader reports install progress about every 5%.
type progressReader struct {
	r           io.Reader
	total, sent int64
	lastPct     int64
	report      func(Progress)
	msg         string
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.sent += int64(n)
	if p.total > 0 {
		if pct := p.sent * 100 / p.total; pct >= p.lastPct+5 || (pct == 100 && p.lastPct != 100) {
			p.lastPct = pct
			p.report(Progress{Stage: StageInstall, Message: p.msg, Fraction: float64(p.sent) / float64(p.total)})
		}
	}
	return n, err
}

func humanSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
