// The generic programs of the device's /system/bin (toybox's), and the helpers
// the device's own programs share with them.
package shell

import (
	"bufio"
	"bytes"
	"io"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// builtins are the programs every shell starts with: the generic ones of toybox
// that scripts sent over adb use.
var builtins = map[string]Command{
	"echo": cmdEcho, "true": func(*Env) int { return 0 }, "false": func(*Env) int { return 1 },
	"exit": cmdExit, "sleep": cmdSleep, "ls": cmdLs, "cat": cmdCat, "rm": cmdRm, "mkdir": cmdMkdir,
	"touch": cmdTouch, "date": cmdDate, "grep": cmdGrep, "head": cmdHead, "tail": cmdTail, "wc": cmdWc,
	"mv": cmdMv, "cp": cmdCp, "chmod": cmdChmod, "pwd": cmdPwd, "export": cmdExport, "exec": cmdExec,
	"dd": cmdDd, "stat": cmdStat,
}

// Resolve makes a path absolute against the command's working directory.
func (e *Env) Resolve(p string) string {
	if strings.HasPrefix(p, "/") {
		return p
	}
	return path.Join(e.Cwd, p)
}

// private reports whether p is one of the shell's private paths and the command
// does not run under run-as.
func (e *Env) private(p string) bool {
	return e.Shell.Private != nil && !e.RunAs && e.Shell.Private(Clean(e.Resolve(p)))
}

func cmdEcho(e *Env) int {
	args := e.Args[1:]
	newline := true
	if len(args) > 0 && args[0] == "-n" {
		newline = false
		args = args[1:]
	}
	e.Printf("%s", strings.Join(args, " "))
	if newline {
		e.Printf("\n")
	}
	return 0
}

func cmdExit(e *Env) int {
	status := 0
	if len(e.Args) > 1 {
		n, err := strconv.Atoi(e.Args[1])
		if err != nil {
			return e.Errorf(2, "/system/bin/sh: exit: Illegal number: %s\n", e.Args[1])
		}
		status = n & 0xff
	}
	panic(exitRequest{status})
}

func cmdSleep(e *Env) int {
	if len(e.Args) < 2 {
		return e.Errorf(1, "usage: sleep DURATION\n")
	}
	secs, err := strconv.ParseFloat(strings.TrimSuffix(e.Args[1], "s"), 64)
	if err != nil || secs < 0 {
		return e.Errorf(1, "sleep: invalid number '%s'\n", e.Args[1])
	}
	t := time.NewTimer(time.Duration(secs * float64(time.Second)))
	defer t.Stop()
	select {
	case <-t.C:
		return 0
	case <-e.Ctx.Done():
		return 130
	}
}

// Flags splits leading single-letter flags ("-la") from operands.
func Flags(args []string) (map[rune]bool, []string) {
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

func cmdLs(e *Env) int {
	f, paths := Flags(e.Args[1:])
	if len(paths) == 0 {
		paths = []string{e.Cwd}
	}
	status := 0
	for _, p := range paths {
		if e.private(p) {
			status = e.Errorf(1, "ls: %s: Permission denied\n", p)
			continue
		}
		entries, err := e.Shell.FS.List(e.Resolve(p))
		if err != nil {
			status = e.Errorf(1, "ls: %s: %v\n", p, err)
			continue
		}
		for _, en := range entries {
			if strings.HasPrefix(en.Name(), ".") && !f['a'] {
				continue
			}
			if f['l'] {
				kind, perm := "-", uint32(en.Mode().Perm())
				if en.IsDir() {
					kind = "d"
				}
				e.Printf("%s%s 1 shell shell %8d %s %s\n", kind, permString(perm), en.Size(), en.ModTime().Format("2006-01-02 15:04"), en.Name())
			} else {
				e.Printf("%s\n", en.Name())
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

func cmdCat(e *Env) int {
	if len(e.Args) == 1 {
		io.Copy(e.Stdout, e.Stdin)
		return 0
	}
	status := 0
	for _, p := range e.Args[1:] {
		if p == "-" {
			io.Copy(e.Stdout, e.Stdin)
			continue
		}
		if e.private(p) {
			status = e.Errorf(1, "cat: %s: Permission denied\n", p)
			continue
		}
		data, err := e.Shell.FS.ReadFile(e.Resolve(p))
		if err != nil {
			status = e.Errorf(1, "cat: %s: %v\n", p, err)
			continue
		}
		e.Stdout.Write(data)
	}
	return status
}

func cmdRm(e *Env) int {
	f, paths := Flags(e.Args[1:])
	status := 0
	for _, p := range paths {
		if err := e.Shell.FS.Remove(e.Resolve(p), f['r'] || f['R']); err != nil && !(f['f'] && err == ErrNotExist) {
			status = e.Errorf(1, "rm: %s: %v\n", p, err)
		}
	}
	return status
}

func cmdMkdir(e *Env) int {
	f, paths := Flags(e.Args[1:])
	status := 0
	for _, p := range paths {
		full := e.Resolve(p)
		if _, err := e.Shell.FS.Stat(full); err == nil && !f['p'] {
			status = e.Errorf(1, "mkdir: '%s': File exists\n", p)
			continue
		}
		if _, err := e.Shell.FS.Stat(path.Dir(Clean(full))); err != nil && !f['p'] {
			status = e.Errorf(1, "mkdir: '%s': %v\n", p, err)
			continue
		}
		if err := e.Shell.FS.MkdirAll(full, 0o771); err != nil {
			status = e.Errorf(1, "mkdir: '%s': %v\n", p, err)
		}
	}
	return status
}

func cmdTouch(e *Env) int {
	status := 0
	for _, p := range e.Args[1:] {
		full := e.Resolve(p)
		if _, err := e.Shell.FS.Stat(full); err == nil {
			e.Shell.FS.SetMTime(full, time.Now())
			continue
		}
		if err := e.Shell.FS.WriteFile(full, nil, 0o644); err != nil {
			status = e.Errorf(1, "touch: '%s': %v\n", p, err)
		}
	}
	return status
}

func cmdDate(e *Env) int {
	if len(e.Args) > 1 && strings.HasPrefix(e.Args[1], "+") {
		e.Printf("%s\n", strftime(e.Args[1][1:], time.Now()))
		return 0
	}
	e.Printf("%s\n", time.Now().Format("Mon Jan _2 15:04:05 MST 2006"))
	return 0
}

// Input reads the command's operands as files, or stdin when there are none.
func (e *Env) Input(files []string) ([]byte, int) {
	if len(files) == 0 {
		b, _ := io.ReadAll(e.Stdin)
		return b, 0
	}
	var buf bytes.Buffer
	status := 0
	for _, p := range files {
		data, err := e.Shell.FS.ReadFile(e.Resolve(p))
		if err != nil {
			status = e.Errorf(2, "%s: %s: %v\n", e.Args[0], p, err)
			continue
		}
		buf.Write(data)
	}
	return buf.Bytes(), status
}

func cmdGrep(e *Env) int {
	var invert, ignoreCase, fixed, count bool
	args := e.Args[1:]
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
		return e.Errorf(2, "usage: grep [-civEF] PATTERN [FILE...]\n")
	}
	if fixed {
		pattern = regexp.QuoteMeta(pattern)
	}
	if ignoreCase {
		pattern = "(?i)" + pattern
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return e.Errorf(2, "grep: bad regex '%s': %v\n", pattern, err)
	}
	data, status := e.Input(files)
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		if re.MatchString(sc.Text()) != invert {
			n++
			if !count {
				e.Printf("%s\n", sc.Text())
			}
		}
	}
	if count {
		e.Printf("%d\n", n)
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

func cmdHead(e *Env) int {
	n, files := lineCount(e.Args[1:])
	data, status := e.Input(files)
	lines := splitLines(data)
	e.Printf("%s", strings.Join(lines[:min(n, len(lines))], ""))
	return status
}

func cmdTail(e *Env) int {
	n, files := lineCount(e.Args[1:])
	data, status := e.Input(files)
	lines := splitLines(data)
	e.Printf("%s", strings.Join(lines[max(0, len(lines)-n):], ""))
	return status
}

func cmdWc(e *Env) int {
	f, files := Flags(e.Args[1:])
	data, status := e.Input(files)
	lines, words, chars := bytes.Count(data, []byte("\n")), len(strings.Fields(string(data))), len(data)
	switch {
	case f['l']:
		e.Printf("%d\n", lines)
	case f['w']:
		e.Printf("%d\n", words)
	case f['c']:
		e.Printf("%d\n", chars)
	default:
		e.Printf("%d %d %d\n", lines, words, chars)
	}
	return status
}

// strftimeLayouts maps the `date +FORMAT` conversions scripts use to Go layouts.
var strftimeLayouts = map[byte]string{
	'z': "-0700", 'Z': "MST", 'Y': "2006", 'm': "01", 'd': "02", 'H': "15", 'M': "04", 'S': "05",
}

// strftime formats t for `date +FORMAT` with the conversions scripts use.
func strftime(format string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' || i+1 == len(format) {
			b.WriteByte(format[i])
			continue
		}
		i++
		switch layout, ok := strftimeLayouts[format[i]]; {
		case ok:
			b.WriteString(t.Format(layout))
		case format[i] == 's':
			b.WriteString(strconv.FormatInt(t.Unix(), 10))
		case format[i] == '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(format[i])
		}
	}
	return b.String()
}
