package display

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"fixthis/adb"
	"fixthis/app/errcode"
)

// Shell runs one device command line (adb.Handle satisfies it).
type Shell interface {
	Shell(ctx context.Context, cmd string) (adb.ShellResult, error)
}

// Target is the phone a call runs on and the app whose locale it sets.
type Target struct {
	Shell  Shell
	Serial string
	// SDK is the phone's API level (0: read with getprop).
	SDK int
	// Package is the app whose locale is read and set ("" leaves locales alone).
	Package string
}

// The animation scales Developer options set together.
var animationKeys = []string{"animator_duration_scale", "window_animation_scale", "transition_animation_scale"}

// run runs args as one command line and returns stdout; a failed exit status or
// an exception on stderr is the phone refusing, with what it said.
func run(ctx context.Context, sh Shell, args ...string) (string, error) {
	line := adb.Command(args...)
	res, err := sh.Shell(ctx, line)
	if err != nil {
		return "", errcode.Wrap(errcode.DeviceNotAvailable, err, "run `%s`: %v", clip(line, maxCommandEcho), err)
	}
	stderr := strings.TrimSpace(string(res.Stderr))
	if res.ExitCode != 0 || strings.Contains(stderr, "Exception") || strings.HasPrefix(stderr, "Error") {
		said := stderr
		if said == "" {
			said = strings.TrimSpace(string(res.Stdout))
		}
		if said == "" {
			said = "exit status " + strconv.Itoa(res.ExitCode)
		}
		return "", refused(line, said)
	}
	return string(res.Stdout), nil
}

// sdkOf is `getprop ro.build.version.sdk`.
func sdkOf(ctx context.Context, t Target) (int, error) {
	if t.SDK > 0 {
		return t.SDK, nil
	}
	out, err := run(ctx, t.Shell, "getprop", "ro.build.version.sdk")
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil {
		return 0, fmt.Errorf("getprop ro.build.version.sdk: %q is not a number", strings.TrimSpace(out))
	}
	return n, nil
}

// raw is a phone's settings as they read, kept to restore them exactly: a
// setting that was never written is "" and is deleted again on restore.
type raw struct {
	NightMode       string            `json:"nightMode"` // yes, no, auto, custom…
	FontScale       string            `json:"fontScale"`
	DensityOverride int               `json:"densityOverride"` // 0: none
	PhysicalDensity int               `json:"physicalDensity"`
	Package         string            `json:"package,omitempty"`
	Locales         *string           `json:"locales,omitempty"` // nil: not read (old Android, no app)
	Animation       map[string]string `json:"animation"`
	// Size is `wm size` (nil in a file written before sizes were kept: restore
	// then leaves the size alone).
	Size *keptSize `json:"size,omitempty"`
	// LocaleRefused is what the phone said when it would not tell the app's
	// languages (an app it does not have): the rest of the read still stands.
	LocaleRefused error `json:"-"`
}

// readRaw reads every setting, in parallel: `cmd uimode night`, `settings get
// system font_scale`, `wm density`, `wm size`, `cmd locale get-app-locales PKG` (Android 13+)
// and `settings get global` of each animation scale.
func readRaw(ctx context.Context, t Target, sdk int) (raw, error) {
	var (
		r    = raw{Animation: map[string]string{}}
		mu   sync.Mutex
		wg   sync.WaitGroup
		errs []error
	)
	do := func(f func() error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f(); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		}()
	}
	// read runs one command and keeps what its output says in r, under the lock.
	// A failed command or a parse error fails the whole read.
	read := func(keep func(out string) error, args ...string) {
		do(func() error {
			out, err := run(ctx, t.Shell, args...)
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			return keep(out)
		})
	}
	read(func(out string) (err error) {
		r.NightMode, err = ParseNightMode(out)
		return err
	}, "cmd", "uimode", "night")
	read(func(out string) error {
		r.FontScale, _ = ParseSetting(out)
		return nil
	}, "settings", "get", "system", "font_scale")
	read(func(out string) (err error) {
		r.PhysicalDensity, r.DensityOverride, err = adb.ParseWMDensities(out)
		return err
	}, "wm", "density")
	read(func(out string) error {
		p, o, err := adb.ParseWMSizes(out)
		r.Size = &keptSize{Physical: p, Override: o}
		return err
	}, "wm", "size")
	if t.Package != "" && sdk >= LocaleSDK {
		do(func() error {
			if err := adb.CheckPackage(t.Package); err != nil {
				return errcode.Wrap(errcode.InvalidInput, err, "%v", err)
			}
			out, err := run(ctx, t.Shell, "cmd", "locale", "get-app-locales", t.Package)
			if err == nil {
				var tags string
				if tags, err = ParseAppLocales(out); err == nil {
					mu.Lock()
					r.Package, r.Locales = t.Package, &tags
					mu.Unlock()
					return nil
				}
				err = refused("cmd locale get-app-locales "+t.Package, err.Error())
			}
			if ctx.Err() != nil {
				return err
			}
			mu.Lock()
			r.Package, r.LocaleRefused = t.Package, err
			mu.Unlock()
			return nil
		})
	}
	for _, k := range animationKeys {
		read(func(out string) error {
			r.Animation[k], _ = ParseSetting(out)
			return nil
		}, "settings", "get", "global", k)
	}
	wg.Wait()
	if len(errs) > 0 {
		return raw{}, errs[0]
	}
	return r, nil
}

// readPhone reads the phone's API level (unless t names it), then every setting.
func readPhone(ctx context.Context, t Target) (raw, int, error) {
	sdk, err := sdkOf(ctx, t)
	if err != nil {
		return raw{}, 0, err
	}
	r, err := readRaw(ctx, t, sdk)
	return r, sdk, err
}

// state is what r means to a user.
func (r raw) state(sdk int) State {
	s := State{Night: r.NightMode == "yes", FontScale: 1, PhysicalDensity: r.PhysicalDensity,
		Density: r.PhysicalDensity, AnimationScale: 1, Package: r.Package, LocaleSupported: sdk >= LocaleSDK}
	if f, err := scaleValue(r.FontScale); err == nil {
		s.FontScale = f
	}
	if r.DensityOverride > 0 {
		s.Density = r.DensityOverride
	}
	if r.Locales != nil {
		s.Locale, _, _ = strings.Cut(*r.Locales, ",")
	}
	if f, err := scaleValue(r.Animation[animationKeys[0]]); err == nil {
		s.AnimationScale = f
	}
	if !s.LocaleSupported {
		s.LocaleReason = fmt.Sprintf("per-app languages need Android 13 (API %d); this phone runs API %d", LocaleSDK, sdk)
	} else if r.LocaleRefused != nil {
		s.LocaleSupported, s.LocaleReason = false, reasonOf(r.LocaleRefused)
	}
	return s
}

// reasonOf is an error's message without its code's prefix, for a sentence that
// has its own.
func reasonOf(err error) string {
	var ce *errcode.Error
	if errors.As(err, &ce) {
		return ce.Msg
	}
	return err.Error()
}

// setNight is `cmd uimode night yes|no|auto|custom`, which answers with the mode now
// in effect ("Night mode: yes").
func setNight(ctx context.Context, sh Shell, mode string) error {
	out, err := run(ctx, sh, "cmd", "uimode", "night", mode)
	if err != nil {
		return err
	}
	if got, err := ParseNightMode(out); err != nil || !strings.HasPrefix(got, mode) {
		return refused("cmd uimode night "+mode, strings.TrimSpace(out))
	}
	return nil
}

// putSetting is `settings put NAMESPACE KEY VALUE`, or `settings delete NAMESPACE
// KEY` for "" (a setting that was never written before FixThis wrote it).
func putSetting(ctx context.Context, sh Shell, namespace, key, value string) error {
	if value == "" {
		_, err := run(ctx, sh, "settings", "delete", namespace, key)
		return err
	}
	_, err := run(ctx, sh, "settings", "put", namespace, key, value)
	return err
}

// setDensity is `wm density N`, or `wm density reset` for 0.
func setDensity(ctx context.Context, sh Shell, d int) error {
	arg := "reset"
	if d > 0 {
		arg = strconv.Itoa(d)
	}
	_, err := run(ctx, sh, "wm", "density", arg)
	return err
}

// setSize is `wm size WxH`, or `wm size reset` for the zero size.
func setSize(ctx context.Context, sh Shell, s adb.Size) error {
	arg := "reset"
	if s.W > 0 && s.H > 0 {
		arg = strconv.Itoa(s.W) + "x" + strconv.Itoa(s.H)
	}
	_, err := run(ctx, sh, "wm", "size", arg)
	return err
}

// setLocales is `cmd locale set-app-locales PKG --locales TAGS`, without
// --locales for "" (the system's locales again). It prints "Unknown package …" and
// exits 0 for an app that is not installed, which is a refusal here.
func setLocales(ctx context.Context, sh Shell, pkg, tags string) error {
	if err := adb.CheckPackage(pkg); err != nil {
		return errcode.Wrap(errcode.InvalidInput, err, "%v", err)
	}
	args := []string{"cmd", "locale", "set-app-locales", pkg}
	if tags != "" {
		args = append(args, "--locales", tags)
	}
	out, err := run(ctx, sh, args...)
	if err != nil {
		return err
	}
	if l := strings.TrimSpace(out); strings.HasPrefix(l, "Unknown package") || strings.HasPrefix(l, "Remote Exception") {
		return refused(adb.Command(args...), l)
	}
	return nil
}
