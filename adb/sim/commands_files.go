package sim

import (
	"io/fs"
	"path"
	"regexp"
	"strconv"
)

// Commands of a phone's toybox and framework that tools outside FixThis run: mobilecli
// (what mobile-mcp drives) pushes its agent to /data/local/tmp as NAME.tmp, renames it
// with `mv -f`, copies it into a debuggable app's data directory with `run-as PKG pwd`,
// `mkdir -p`, `cp` and `chmod`, and clears old agents with `pkill -f` and `appops set`
// before each start. Without them the phone answered "inaccessible or not found",
// which no real phone does. Output and exit codes follow toybox on Android 14.

func init() {
	commands["mv"] = cmdMv
	commands["cp"] = cmdCp
	commands["chmod"] = cmdChmod
	commands["pwd"] = func(e *cmdEnv) int { e.printf("%s\n", e.cwd); return 0 }
	commands["pkill"] = cmdPkill
	commands["appops"] = cmdAppops
}

// cmdPkill matches -f patterns against the command lines the phone runs; the shell
// user may stop only the app under test. Nothing matched: exit 1, silently.
func cmdPkill(e *cmdEnv) int {
	_, args := flags(e.args[1:])
	if len(args) != 1 {
		return e.errorf(1, "pkill: needs 1 argument\n")
	}
	re, err := regexp.Compile(args[0])
	if err != nil {
		return e.errorf(1, "pkill: bad regex '%s'\n", args[0])
	}
	pkg := e.dev.profile.App.Package
	if e.dev.appPid() == 0 || !re.MatchString(pkg) {
		return 1
	}
	e.dev.phone.ForceStop(pkg)
	e.dev.appPid() // logs the death
	return 0
}

// cmdAppops: `appops set PKG OP MODE` succeeds without output; the sim keeps no ops.
func cmdAppops(e *cmdEnv) int {
	if len(e.args) >= 5 && e.args[1] == "set" {
		return 0
	}
	if len(e.args) >= 3 && e.args[1] == "get" {
		e.printf("No operations.\n")
		return 0
	}
	return e.errorf(255, "AppOps service (appops) commands:\n  set [--user <USER_ID>] <PACKAGE | UID> <OP> <MODE>\n  get [--user <USER_ID>] <PACKAGE | UID> [<OP>]\n")
}

// copyFile writes src's bytes to dst (into dst when it is a directory) and returns
// the path written, or a toybox-style message.
func (e *cmdEnv) copyFile(name, src, dst string) (string, int) {
	if e.private(src) {
		return "", e.errorf(1, "%s: %s: Permission denied\n", name, src)
	}
	data, err := e.dev.fs.readFile(e.resolve(src))
	if err != nil {
		return "", e.errorf(1, "%s: %s: %v\n", name, src, err)
	}
	to := e.resolve(dst)
	if fi, err := e.dev.fs.stat(to); err == nil && fi.Dir {
		to = path.Join(to, path.Base(src))
	}
	if e.private(to) {
		return "", e.errorf(1, "%s: %s: Permission denied\n", name, dst)
	}
	mode := fs.FileMode(0o644)
	if fi, err := e.dev.fs.stat(e.resolve(src)); err == nil {
		mode = fs.FileMode(fi.Mode).Perm()
	}
	if err := e.dev.fs.writeFile(to, data, mode); err != nil {
		return "", e.errorf(1, "%s: %s: %v\n", name, dst, err)
	}
	return to, 0
}

func cmdCp(e *cmdEnv) int {
	_, args := flags(e.args[1:])
	if len(args) != 2 {
		return e.errorf(1, "cp: needs 2 arguments\n")
	}
	_, status := e.copyFile("cp", args[0], args[1])
	return status
}

func cmdMv(e *cmdEnv) int {
	_, args := flags(e.args[1:])
	if len(args) != 2 {
		return e.errorf(1, "mv: needs 2 arguments\n")
	}
	if _, status := e.copyFile("mv", args[0], args[1]); status != 0 {
		return status
	}
	if err := e.dev.fs.remove(e.resolve(args[0]), false); err != nil {
		return e.errorf(1, "mv: %s: %v\n", args[0], err)
	}
	return 0
}

// cmdChmod takes octal modes only, the form scripts use.
func cmdChmod(e *cmdEnv) int {
	if len(e.args) < 3 {
		return e.errorf(1, "chmod: needs 2 arguments\n")
	}
	m, err := strconv.ParseUint(e.args[1], 8, 32)
	if err != nil {
		return e.errorf(1, "chmod: bad mode '%s'\n", e.args[1])
	}
	status := 0
	for _, p := range e.args[2:] {
		if e.private(p) {
			status = e.errorf(1, "chmod: %s: Permission denied\n", p)
			continue
		}
		full := e.resolve(p)
		data, err := e.dev.fs.readFile(full)
		if err != nil {
			status = e.errorf(1, "chmod: %s: %v\n", p, err)
			continue
		}
		if err := e.dev.fs.writeFile(full, data, fs.FileMode(m)); err != nil {
			status = e.errorf(1, "chmod: %s: %v\n", p, err)
		}
	}
	return status
}
