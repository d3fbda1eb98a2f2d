// The device's own programs: the table registered into its shell, the wrapper
// that hands each program this Device, the shell's hooks (latency, pinned
// outputs, private app data), the file system a phone boots with, and the small
// programs that print the device's identity (getprop, id, whoami) or route to a
// service (cmd).
package android

import (
	"context"
	"io"
	"sort"
	"strings"

	"fixthis/sim/shell"
)

// cmdEnv is a shell.Env plus the device the program runs on.
type cmdEnv struct {
	*shell.Env
	dev *Device
}

type command func(e *cmdEnv) int

// commands are the Android programs of /system/bin, by name; the generic ones
// (echo, ls, grep, ...) are the shell's own.
var commands = map[string]command{
	"id": cmdID, "whoami": func(e *cmdEnv) int { e.Printf("shell\n"); return 0 },
	"getprop": cmdGetprop, "wm": cmdWm, "screencap": cmdScreencap, "screenrecord": cmdScreenrecord, "uiautomator": cmdUiautomator,
	"input": cmdInput, "am": cmdAm, "monkey": cmdMonkey, "pm": cmdPm, "pidof": cmdPidof,
	"logcat": cmdLogcat, "run-as": cmdRunAs, "dumpsys": cmdDumpsys, "cmd": cmdCmd,
	"settings": cmdSettings, "pkill": cmdPkill, "appops": cmdAppops, "log": cmdLog, "unzip": cmdUnzip,
}

// newShell is the device's shell: the generic programs, the Android ones, the
// latency model and pinned outputs before each command line, and app data
// readable only under run-as.
func (d *Device) newShell() *shell.Shell {
	sh := shell.New(d.fs)
	for name, fn := range commands {
		sh.Register(name, func(e *shell.Env) int { return fn(&cmdEnv{Env: e, dev: d}) })
	}
	sh.Before = d.beforeScript
	sh.Private = privateData
	return sh
}

// beforeScript costs a command line the device's shell latency, then answers it
// from a pinned output when one matches.
func (d *Device) beforeScript(ctx context.Context, script string, stdout io.Writer) (int, bool) {
	if err := d.delay(ctx, d.profile.Latency.Shell); err != nil {
		return 130, true
	}
	if err := d.pinnedDelay(ctx, script); err != nil {
		return 130, true
	}
	if out, ok := d.pinnedOutput(script); ok {
		_, _ = stdout.Write(out)
		return 0, true
	}
	return 0, false
}

// newDeviceFS is the file system of a booted phone with the app installed.
func newDeviceFS(p Profile) *shell.FS {
	m := shell.NewFS()
	for _, dir := range []string{
		"/sdcard", "/sdcard/Download", "/sdcard/DCIM", "/sdcard/Pictures", "/sdcard/Android",
		"/storage/emulated/0", "/data", "/data/local", "/data/local/tmp", "/system",
		"/system/bin", "/vendor", "/proc", "/dev", "/etc", "/data/app", "/data/user/0",
	} {
		m.MkdirAll(dir, 0o771)
	}
	m.WriteFile("/system/build.prop", []byte(buildProp(p)), 0o644)
	m.WriteFile("/proc/version", []byte("Linux version 5.15.123-android14-11 (build-user@build-host) #1 SMP PREEMPT\n"), 0o444)
	if p.App.Package != "" {
		m.MkdirAll("/data/app/"+p.App.Package+"-1", 0o755)
		m.WriteFile("/data/app/"+p.App.Package+"-1/base.apk", appAPK(p.App), 0o644)
	}
	return m
}

func buildProp(p Profile) string {
	keys := make([]string, 0, len(p.Props))
	for k := range p.Props {
		if strings.HasPrefix(k, "ro.") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("# begin build properties\n")
	for _, k := range keys {
		b.WriteString(k + "=" + p.Props[k] + "\n")
	}
	return b.String()
}

func cmdID(e *cmdEnv) int {
	e.Printf("uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),1078(ext_data_rw),1079(ext_obb_rw),3001(net_bt_admin),3002(net_bt),3003(inet),3006(net_bw_stats),3009(readproc),3011(uhid),3012(readtracefs) context=u:r:shell:s0\n")
	return 0
}

func cmdGetprop(e *cmdEnv) int {
	props := e.dev.profile.Props
	args := e.Args[1:]
	if len(args) == 0 {
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			e.Printf("[%s]: [%s]\n", k, props[k])
		}
		return 0
	}
	v, ok := props[args[0]]
	if !ok && len(args) > 1 {
		v = args[1]
	}
	e.Printf("%s\n", v)
	return 0
}

// cmdCmd is `cmd SERVICE ...`, the binder shell entry point most tools use now.
func cmdCmd(e *cmdEnv) int {
	if len(e.Args) < 2 {
		return e.Errorf(20, "cmd: No service specified; use -l to list all running services.\n")
	}
	switch e.Args[1] {
	case "uimode":
		return cmdUimode(e)
	case "locale":
		return cmdLocale(e)
	}
	target := map[string]string{"package": "pm", "activity": "am", "window": "wm", "input": "input"}[e.Args[1]]
	if target == "" {
		return e.Errorf(20, "cmd: Can't find service: %s\n", e.Args[1])
	}
	fn, _ := e.Shell.Lookup(target)
	sub := *e.Env
	sub.Args = append([]string{target}, e.Args[2:]...)
	return fn(&sub)
}
