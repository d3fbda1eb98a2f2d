package targetrun

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"fixthis/adb"
	"fixthis/capture"
)

// LaunchResult is what `am start -W` reported.
type LaunchResult struct {
	Activity    string // the component that came up
	LaunchState string // COLD | WARM | HOT
	TotalMs     int    // time to the first frame; 0 when the device did not say
}

var (
	amFieldRE = regexp.MustCompile(`(?m)^(Status|LaunchState|Activity|TotalTime|ThisTime|WaitTime): *(.*?)\s*$`)
	amErrorRE = regexp.MustCompile(`(?m)^Error: (.*)$`)
)

// ParseAmStart reads `am start -W` output (Android 5 to 15 formats).
func ParseAmStart(out string) (LaunchResult, error) {
	out = strings.ReplaceAll(out, "\r", "")
	if m := amErrorRE.FindStringSubmatch(out); m != nil {
		return LaunchResult{}, errors.New(firstBytes(m[1], detailMax))
	}
	var r LaunchResult
	status := ""
	for _, m := range amFieldRE.FindAllStringSubmatch(out, -1) {
		switch m[1] {
		case "Status":
			status = m[2]
		case "LaunchState":
			r.LaunchState = m[2]
		case "Activity":
			r.Activity = m[2]
		case "TotalTime":
			r.TotalMs, _ = strconv.Atoi(m[2])
		case "ThisTime":
			if r.TotalMs == 0 {
				r.TotalMs, _ = strconv.Atoi(m[2])
			}
		}
	}
	if status != "ok" {
		if status == "" {
			return r, fmt.Errorf("am start printed no status: %s", firstBytes(strings.TrimSpace(out), detailMax))
		}
		return r, fmt.Errorf("am start status %s", firstBytes(status, detailMax))
	}
	return r, nil
}

// Launch starts component the way the launcher does (MAIN/LAUNCHER intent) and
// waits for its first frame: `am start -W -n PKG/CLS -a MAIN -c LAUNCHER`.
func Launch(ctx context.Context, dev Device, component string) (LaunchResult, error) {
	if err := adb.CheckComponent(component); err != nil {
		return LaunchResult{}, err
	}
	res, err := dev.Shell(ctx, adb.Command("am", "start", "-W", "-n", component,
		"-a", "android.intent.action.MAIN", "-c", "android.intent.category.LAUNCHER"))
	if err != nil {
		return LaunchResult{}, fmt.Errorf("am start %s: %w", component, err)
	}
	r, perr := ParseAmStart(string(res.Stdout) + string(res.Stderr))
	if perr != nil {
		if strings.Contains(perr.Error(), "does not exist") {
			return r, fmt.Errorf("launch %s: %v The installed build has no such activity: is it older than the manifest? Run without --no-build", component, perr)
		}
		return r, fmt.Errorf("launch %s: %w", component, perr)
	}
	return r, nil
}

// Focus is the window that has input focus and the package it belongs to.
type Focus struct {
	Package, Window string
	Keyguard        bool
}

// ReadFocus reads mCurrentFocus and the keyguard from `dumpsys window`. All sections:
// Android 10+ prints mCurrentFocus under displays, older versions under windows, and
// the keyguard is in the policy section.
func ReadFocus(ctx context.Context, dev Device) (Focus, error) {
	res, err := dev.Shell(ctx, "dumpsys window")
	if err != nil {
		return Focus{}, fmt.Errorf("dumpsys window: %w", err)
	}
	w := capture.ParseWindow(string(res.Stdout))
	f := Focus{Package: w.FocusPackage, Window: w.FocusWindow, Keyguard: w.Keyguard}
	if f.Package == "" && strings.Contains(w.FocusWindow, "NotificationShade") {
		f.Package = "com.android.systemui"
	}
	return f, nil
}

// WaitForeground polls the focused window until pkg has it, or fails saying what is
// in front instead: the lock screen, a crash dialog, or another app.
func WaitForeground(ctx context.Context, dev Device, pkg string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	var last Focus
	for {
		f, err := ReadFocus(ctx, dev)
		if err != nil {
			return err
		}
		last = f
		if f.Package == pkg && !f.Keyguard {
			return nil
		}
		if strings.Contains(f.Window, "Application Error") || strings.Contains(f.Window, "Application Not Responding") {
			return fmt.Errorf("%s did not come up: %q has the focus (it crashed or hung on launch; `adb logcat -b crash` shows why)", pkg, f.Window)
		}
		if time.Now().After(deadline) {
			break
		}
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-time.After(200 * time.Millisecond):
		}
	}
	switch {
	case last.Keyguard:
		return fmt.Errorf("%s was launched but the lock screen is in front; unlock the phone", pkg)
	case last.Package == "":
		return fmt.Errorf("%s was launched but no window has focus after %s (focus: %q)", pkg, timeout, last.Window)
	}
	return fmt.Errorf("%s was launched but %s is in front after %s (window %s)", pkg, last.Package, timeout, last.Window)
}
