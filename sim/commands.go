package sim

import (
	"bufio"
	"bytes"
	"io"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// commands is the device's /system/bin, by name.
var commands map[string]commandFunc

func init() {
	commands = map[string]commandFunc{
		"echo": cmdEcho, "true": func(*cmdEnv) int { return 0 }, "false": func(*cmdEnv) int { return 1 },
		"exit": cmdExit, "sleep": cmdSleep, "ls": cmdLs, "cat": cmdCat, "rm": cmdRm, "mkdir": cmdMkdir,
		"touch": cmdTouch, "id": cmdID, "whoami": func(e *cmdEnv) int { e.printf("shell\n"); return 0 },
		"date": cmdDate, "grep": cmdGrep, "head": cmdHead, "tail": cmdTail, "wc": cmdWc,
		"getprop": cmdGetprop, "wm": cmdWm, "screencap": cmdScreencap, "screenrecord": cmdScreenrecord, "uiautomator": cmdUiautomator,
		"input": cmdInput, "am": cmdAm, "monkey": cmdMonkey, "pm": cmdPm, "pidof": cmdPidof,
		"logcat": cmdLogcat, "run-as": cmdRunAs, "dumpsys": cmdDumpsys, "cmd": cmdCmd,
		"settings": cmdSettings,
	}
}

// resolve makes a path absolute against the command's working directory.
func (e *cmdEnv) resolve(p string) string {
	if strings.HasPrefix(p, "/") {
		return p
	}
	return path.Join(e.cwd, p)
}

// private reports whether p is inside an app's data directory, which only run-as
// may touch.
func (e *cmdEnv) private(p string) bool {
	c := cleanPath(e.resolve(p))
	return strings.HasPrefix(c, "/data/user/0/") && !e.runAs
}

func cmdEcho(e *cmdEnv) int {
	args := e.args[1:]
	newline := true
	if len(args) > 0 && args[0] == "-n" {
		newline = false
		args = args[1:]
	}
	e.printf("%s", strings.Join(args, " "))
	if newline {
		e.printf("\n")
	}
	return 0
}

func cmdExit(e *cmdEnv) int {
	status := 0
	if len(e.args) > 1 {
		n, err := strconv.Atoi(e.args[1])
		if err != nil {
			return e.errorf(2, "/system/bin/sh: exit: Illegal number: %s\n", e.args[1])
		}
		status = n & 0xff
	}
	panic(exitRequest{status})
}

func cmdSleep(e *cmdEnv) int {
	if len(e.args) < 2 {
		return e.errorf(1, "usage: sleep DURATION\n")
	}
	secs, err := strconv.ParseFloat(strings.TrimSuffix(e.args[1], "s"), 64)
	if err != nil || secs < 0 {
		return e.errorf(1, "sleep: invalid number '%s'\n", e.args[1])
	}
	t := time.NewTimer(time.Duration(secs * float64(time.Second)))
	defer t.Stop()
	select {
	case <-t.C:
		return 0
	case <-e.ctx.Done():
		return 130
	}
}

// flags splits leading single-letter flags ("-la") from operands.
func flags(args []string) (map[rune]bool, []string) {
	f := map[rune]bool{}
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		for _, r := range a[1:] {
			f[r] = true
		}
	}
	return f, args[i:]
}

func cmdLs(e *cmdEnv) int {
	f, paths := flags(e.args[1:])
	if len(paths) == 0 {
		paths = []string{e.cwd}
	}
	status := 0
	for _, p := range paths {
		if e.private(p) {
			status = e.errorf(1, "ls: %s: Permission denied\n", p)
			continue
		}
		entries, err := e.dev.fs.list(e.resolve(p))
		if err != nil {
			status = e.errorf(1, "ls: %s: %v\n", p, err)
			continue
		}
		for _, en := range entries {
			if strings.HasPrefix(en.Name, ".") && !f['a'] {
				continue
			}
			if f['l'] {
				kind, perm := "-", en.Mode&0o777
				if en.Dir {
					kind = "d"
				}
				e.printf("%s%s 1 shell shell %8d %s %s\n", kind, permString(perm), en.Size, en.MTime.Format("2006-01-02 15:04"), en.Name)
			} else {
				e.printf("%s\n", en.Name)
			}
		}
	}
	return status
}

func permString(p uint32) string {
	const rwx = "rwxrwxrwx"
	b := []byte("---------")
	for i := 0; i < 9; i++ {
		if p&(1<<(8-i)) != 0 {
			b[i] = rwx[i]
		}
	}
	return string(b)
}

func cmdCat(e *cmdEnv) int {
	if len(e.args) == 1 {
		io.Copy(e.stdout, e.stdin)
		return 0
	}
	status := 0
	for _, p := range e.args[1:] {
		if p == "-" {
			io.Copy(e.stdout, e.stdin)
			continue
		}
		if e.private(p) {
			status = e.errorf(1, "cat: %s: Permission denied\n", p)
			continue
		}
		data, err := e.dev.fs.readFile(e.resolve(p))
		if err != nil {
			status = e.errorf(1, "cat: %s: %v\n", p, err)
			continue
		}
		e.stdout.Write(data)
	}
	return status
}

func cmdRm(e *cmdEnv) int {
	f, paths := flags(e.args[1:])
	status := 0
	for _, p := range paths {
		if err := e.dev.fs.remove(e.resolve(p), f['r'] || f['R']); err != nil && !(f['f'] && err == errNotExist) {
			status = e.errorf(1, "rm: %s: %v\n", p, err)
		}
	}
	return status
}

func cmdMkdir(e *cmdEnv) int {
	f, paths := flags(e.args[1:])
	status := 0
	for _, p := range paths {
		full := e.resolve(p)
		if _, err := e.dev.fs.stat(full); err == nil && !f['p'] {
			status = e.errorf(1, "mkdir: '%s': File exists\n", p)
			continue
		}
		if _, err := e.dev.fs.stat(path.Dir(cleanPath(full))); err != nil && !f['p'] {
			status = e.errorf(1, "mkdir: '%s': %v\n", p, err)
			continue
		}
		if err := e.dev.fs.mkdirAll(full, 0o771); err != nil {
			status = e.errorf(1, "mkdir: '%s': %v\n", p, err)
		}
	}
	return status
}

func cmdTouch(e *cmdEnv) int {
	status := 0
	for _, p := range e.args[1:] {
		full := e.resolve(p)
		if _, err := e.dev.fs.stat(full); err == nil {
			e.dev.fs.setMTime(full, time.Now())
			continue
		}
		if err := e.dev.fs.writeFile(full, nil, 0o644); err != nil {
			status = e.errorf(1, "touch: '%s': %v\n", p, err)
		}
	}
	return status
}

func cmdID(e *cmdEnv) int {
	e.printf("uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),1078(ext_data_rw),1079(ext_obb_rw),3001(net_bt_admin),3002(net_bt),3003(inet),3006(net_bw_stats),3009(readproc),3011(uhid),3012(readtracefs) context=u:r:shell:s0\n")
	return 0
}

func cmdDate(e *cmdEnv) int {
	if len(e.args) > 1 && strings.HasPrefix(e.args[1], "+") {
		e.printf("%s\n", strftime(e.args[1][1:], time.Now()))
		return 0
	}
	e.printf("%s\n", time.Now().Format("Mon Jan _2 15:04:05 MST 2006"))
	return 0
}

// input reads the command's operands as files, or stdin when there are none.
func (e *cmdEnv) input(files []string) ([]byte, int) {
	if len(files) == 0 {
		b, _ := io.ReadAll(e.stdin)
		return b, 0
	}
	var buf bytes.Buffer
	status := 0
	for _, p := range files {
		data, err := e.dev.fs.readFile(e.resolve(p))
		if err != nil {
			status = e.errorf(2, "%s: %s: %v\n", e.args[0], p, err)
			continue
		}
		buf.Write(data)
	}
	return buf.Bytes(), status
}

func cmdGrep(e *cmdEnv) int {
	var invert, ignoreCase, fixed, count bool
	args := e.args[1:]
	var pattern string
	havePattern := false
	var files []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-e" && i+1 < len(args):
			pattern, havePattern = args[i+1], true
			i++
		case len(a) > 1 && a[0] == '-' && !havePattern:
			for _, r := range a[1:] {
				switch r {
				case 'v':
					invert = true
				case 'i':
					ignoreCase = true
				case 'F':
					fixed = true
				case 'c':
					count = true
				}
			}
		case !havePattern:
			pattern, havePattern = a, true
		default:
			files = append(files, a)
		}
	}
	if !havePattern {
		return e.errorf(2, "usage: grep [-civEF] PATTERN [FILE...]\n")
	}
	if fixed {
		pattern = regexp.QuoteMeta(pattern)
	}
	if ignoreCase {
		pattern = "(?i)" + pattern
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return e.errorf(2, "grep: bad regex '%s': %v\n", pattern, err)
	}
	data, status := e.input(files)
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		if re.MatchString(sc.Text()) != invert {
			n++
			if !count {
				e.printf("%s\n", sc.Text())
			}
		}
	}
	if count {
		e.printf("%d\n", n)
	}
	if status != 0 {
		return status
	}
	if n == 0 {
		return 1
	}
	return 0
}

// lineCount parses head/tail's "-n N" or "-N".
func lineCount(args []string) (int, []string) {
	n := 10
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-n" && i+1 < len(args):
			n, _ = strconv.Atoi(args[i+1])
			i++
		case strings.HasPrefix(a, "-n"):
			n, _ = strconv.Atoi(a[2:])
		case len(a) > 1 && a[0] == '-' && isDigits(a[1:]):
			n, _ = strconv.Atoi(a[1:])
		default:
			rest = append(rest, a)
		}
	}
	return n, rest
}

func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	lines := strings.SplitAfter(string(b), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func cmdHead(e *cmdEnv) int {
	n, files := lineCount(e.args[1:])
	data, status := e.input(files)
	lines := splitLines(data)
	e.printf("%s", strings.Join(lines[:min(n, len(lines))], ""))
	return status
}

func cmdTail(e *cmdEnv) int {
	n, files := lineCount(e.args[1:])
	data, status := e.input(files)
	lines := splitLines(data)
	e.printf("%s", strings.Join(lines[max(0, len(lines)-n):], ""))
	return status
}

func cmdWc(e *cmdEnv) int {
	f, files := flags(e.args[1:])
	data, status := e.input(files)
	lines, words, chars := bytes.Count(data, []byte("\n")), len(strings.Fields(string(data))), len(data)
	switch {
	case f['l']:
		e.printf("%d\n", lines)
	case f['w']:
		e.printf("%d\n", words)
	case f['c']:
		e.printf("%d\n", chars)
	default:
		e.printf("%d %d %d\n", lines, words, chars)
	}
	return status
}

func cmdGetprop(e *cmdEnv) int {
	props := e.dev.profile.Props
	args := e.args[1:]
	if len(args) == 0 {
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			e.printf("[%s]: [%s]\n", k, props[k])
		}
		return 0
	}
	v, ok := props[args[0]]
	if !ok && len(args) > 1 {
		v = args[1]
	}
	e.printf("%s\n", v)
	return 0
}

// cmdCmd is `cmd SERVICE ...`, the binder shell entry point most tools use now.
func cmdCmd(e *cmdEnv) int {
	if len(e.args) < 2 {
		return e.errorf(20, "cmd: No service specified; use -l to list all running services.\n")
	}
	switch e.args[1] {
	case "uimode":
		return cmdUimode(e)
	case "locale":
		return cmdLocale(e)
	}
	target := map[string]string{"package": "pm", "activity": "am", "window": "wm", "input": "input"}[e.args[1]]
	if target == "" {
		return e.errorf(20, "cmd: Can't find service: %s\n", e.args[1])
	}
	sub := *e
	sub.args = append([]string{target}, e.args[2:]...)
	return commands[target](&sub)
}
