// Toybox's file programs that tools outside FixThis send (mv, cp, chmod, pwd) and
// the two sh builtins the adb client itself sends (export, exec).
package shell

import (
	"io/fs"
	"path"
	"strconv"
)

// mobilecli (what mobile-mcp drives) pushes its agent to /data/local/tmp as
// NAME.tmp, renames it with `mv -f`, and copies it into a debuggable app's data
// directory with `run-as PKG pwd`, `mkdir -p`, `cp` and `chmod`; `adb logcat ARGS`
// runs `export ANDROID_LOG_TAGS="''"; exec logcat ARGS`. Without these the phone
// answered "inaccessible or not found", which no real phone does. Output and exit
// codes follow toybox on Android 14. The shell keeps no environment, so export
// only has to succeed.

func cmdPwd(e *Env) int { e.Printf("%s\n", e.Cwd); return 0 }

func cmdExport(*Env) int { return 0 }

// cmdExec runs the command in place, as sh would.
func cmdExec(e *Env) int {
	if len(e.Args) < 2 {
		return 0
	}
	fn, ok := e.Shell.Lookup(e.Args[1])
	if !ok {
		return e.Errorf(127, "/system/bin/sh: exec: %s: inaccessible or not found\n", e.Args[1])
	}
	sub := *e
	sub.Args = e.Args[1:]
	return fn(&sub)
}

// copyFile writes src's bytes to dst (into dst when it is a directory) and returns
// the path written, or a toybox-style message.
func (e *Env) copyFile(name, src, dst string) (string, int) {
	if e.private(src) {
		return "", e.Errorf(1, "%s: %s: Permission denied\n", name, src)
	}
	from := e.Resolve(src)
	data, err := e.Shell.FS.ReadFile(from)
	if err != nil {
		return "", e.Errorf(1, "%s: %s: %v\n", name, src, err)
	}
	to := e.Resolve(dst)
	if fi, err := e.Shell.FS.Stat(to); err == nil && fi.IsDir() {
		to = path.Join(to, path.Base(src))
	}
	if e.private(to) {
		return "", e.Errorf(1, "%s: %s: Permission denied\n", name, dst)
	}
	mode := fs.FileMode(0o644)
	if fi, err := e.Shell.FS.Stat(from); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := e.Shell.FS.WriteFile(to, data, mode); err != nil {
		return "", e.Errorf(1, "%s: %s: %v\n", name, dst, err)
	}
	return to, 0
}

func cmdCp(e *Env) int {
	_, args := Flags(e.Args[1:])
	if len(args) != 2 {
		return e.Errorf(1, "cp: needs 2 arguments\n")
	}
	_, status := e.copyFile("cp", args[0], args[1])
	return status
}

func cmdMv(e *Env) int {
	_, args := Flags(e.Args[1:])
	if len(args) != 2 {
		return e.Errorf(1, "mv: needs 2 arguments\n")
	}
	if _, status := e.copyFile("mv", args[0], args[1]); status != 0 {
		return status
	}
	if err := e.Shell.FS.Remove(e.Resolve(args[0]), false); err != nil {
		return e.Errorf(1, "mv: %s: %v\n", args[0], err)
	}
	return 0
}

// cmdChmod takes octal modes only, the form scripts use.
func cmdChmod(e *Env) int {
	if len(e.Args) < 3 {
		return e.Errorf(1, "chmod: needs 2 arguments\n")
	}
	m, err := strconv.ParseUint(e.Args[1], 8, 32)
	if err != nil {
		return e.Errorf(1, "chmod: bad mode '%s'\n", e.Args[1])
	}
	status := 0
	for _, p := range e.Args[2:] {
		if e.private(p) {
			status = e.Errorf(1, "chmod: %s: Permission denied\n", p)
			continue
		}
		full := e.Resolve(p)
		data, err := e.Shell.FS.ReadFile(full)
		if err != nil {
			status = e.Errorf(1, "chmod: %s: %v\n", p, err)
			continue
		}
		if err := e.Shell.FS.WriteFile(full, data, fs.FileMode(m)); err != nil {
			status = e.Errorf(1, "chmod: %s: %v\n", p, err)
		}
	}
	return status
}
