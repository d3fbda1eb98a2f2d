// Package shell is the device's small POSIX-like shell: it parses a command line
// (quoting, `;`, `&&`, `||`, pipes, redirections, `$?`, command substitution), runs
// each simple command from a table of named programs, and keeps the in-memory file
// system those programs and the redirections read and write. It holds the generic
// programs (echo, ls, cat, grep, ...); the device's own ones are registered by the
// layer above.
package shell

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Env is what one simple command runs with.
type Env struct {
	Ctx    context.Context
	Shell  *Shell   // the shell running it, for programs that run other programs
	Args   []string // Args[0] is the command name
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Cwd    string // working directory for relative paths
	RunAs  bool   // inside `run-as PKG`: the app's private files are readable
}

// Printf prints to stdout.
func (e *Env) Printf(format string, a ...any) { fmt.Fprintf(e.Stdout, format, a...) }

// Errorf prints to stderr and returns the exit status, so commands can
// `return e.Errorf(1, ...)`.
func (e *Env) Errorf(status int, format string, a ...any) int {
	fmt.Fprintf(e.Stderr, format, a...)
	return status
}

// Command is one program of the device's /system/bin: it returns its exit status.
type Command func(e *Env) int

// exitRequest unwinds the script on `exit N`.
type exitRequest struct{ status int }

// Shell runs command lines against its file system and program table.
type Shell struct {
	FS       *FS
	commands map[string]Command
	// Before runs when a command line (or a substitution's) has parsed and before
	// any of it runs; done answers the whole line with status instead. The device
	// uses it for its latency model and pinned outputs.
	Before func(ctx context.Context, script string, stdout io.Writer) (status int, done bool)
	// Private reports whether a path (clean, absolute) may only be read under
	// run-as; nil makes every path readable.
	Private func(path string) bool
}

// New is a shell over fs with the generic programs (builtins.go) installed.
func New(fs *FS) *Shell {
	sh := &Shell{FS: fs, commands: map[string]Command{}}
	for name, fn := range builtins {
		sh.commands[name] = fn
	}
	return sh
}

// Register installs a program under name, replacing any program of that name.
func (sh *Shell) Register(name string, fn Command) { sh.commands[name] = fn }

// Lookup finds the program called name.
func (sh *Shell) Lookup(name string) (Command, bool) {
	fn, ok := sh.commands[name]
	return fn, ok
}

// Run runs a command line the way /system/bin/sh -c would and returns its exit
// status.
func (sh *Shell) Run(ctx context.Context, script string, stdin io.Reader, stdout, stderr io.Writer) int {
	pls, err := parseShell(script)
	if err != nil {
		fmt.Fprintf(stderr, "/system/bin/sh: %v\n", err)
		return 2
	}
	if sh.Before != nil {
		if status, done := sh.Before(ctx, script, stdout); done {
			return status
		}
	}
	status := 0
	run := true
	for _, pl := range pls {
		if run {
			pl = sh.substitute(ctx, expandStatus(pl, status), stderr)
			st, exit := sh.runPipeline(ctx, pl, stdin, stdout, stderr)
			status = st
			if exit || ctx.Err() != nil {
				return status
			}
		}
		switch pl.next {
		case "&&":
			run = status == 0
		case "||":
			run = status != 0
		default:
			run = true
		}
	}
	return status
}

// expandStatus substitutes `$?` with the previous status.
func expandStatus(pl pipeline, status int) pipeline {
	out := pipeline{next: pl.next}
	for _, c := range pl.cmds {
		nc := simpleCommand{redirs: slices.Clone(c.redirs)}
		for _, a := range c.args {
			nc.args = append(nc.args, strings.ReplaceAll(a, statusMarker, strconv.Itoa(status)))
		}
		out.cmds = append(out.cmds, nc)
	}
	return out
}

// substitute runs the command substitutions of pl's words and redirect targets and
// puts their output, without trailing newlines, in their place. The result is not
// split into fields: one word stays one word.
func (sh *Shell) substitute(ctx context.Context, pl pipeline, stderr io.Writer) pipeline {
	expand := func(w string) string {
		for {
			i := strings.Index(w, substOpen)
			if i < 0 {
				return w
			}
			j := strings.Index(w[i:], substClose)
			if j < 0 {
				return w
			}
			var out bytes.Buffer
			sh.Run(ctx, w[i+len(substOpen):i+j], bytes.NewReader(nil), &out, stderr)
			w = w[:i] + strings.TrimRight(out.String(), "\n") + w[i+j+len(substClose):]
		}
	}
	for ci := range pl.cmds {
		c := &pl.cmds[ci]
		for ai, a := range c.args {
			c.args[ai] = expand(a)
		}
		for ri := range c.redirs {
			c.redirs[ri].target = expand(c.redirs[ri].target)
		}
	}
	return pl
}

// runPipeline runs each stage after the one before it, buffering the output between
// them: every command here finishes on its own, so streaming buys nothing.
func (sh *Shell) runPipeline(ctx context.Context, pl pipeline, stdin io.Reader, stdout, stderr io.Writer) (status int, exit bool) {
	in := stdin
	for i, c := range pl.cmds {
		out := stdout
		var buf *bytes.Buffer
		if i < len(pl.cmds)-1 {
			buf = &bytes.Buffer{}
			out = buf
		}
		status, exit = sh.runSimple(ctx, c, in, out, stderr)
		if exit {
			return status, true
		}
		if buf != nil {
			in = buf
		}
	}
	return status, false
}

func (sh *Shell) runSimple(ctx context.Context, c simpleCommand, stdin io.Reader, stdout, stderr io.Writer) (status int, exit bool) {
	var files []func() error
	for _, r := range c.redirs {
		var w io.Writer
		switch {
		case r.op == "<":
			if r.target == "/dev/null" {
				stdin = bytes.NewReader(nil)
				continue
			}
			data, err := sh.FS.ReadFile(r.target)
			if err != nil {
				fmt.Fprintf(stderr, "/system/bin/sh: %s: %v\n", r.target, err)
				return 1, false
			}
			stdin = bytes.NewReader(data)
			continue
		case r.op == ">&":
			switch r.target {
			case "1":
				w = stdout
			case "2":
				w = stderr
			default:
				fmt.Fprintf(stderr, "/system/bin/sh: %s: bad file descriptor\n", r.target)
				return 1, false
			}
		case r.target == "/dev/null":
			w = io.Discard
		case r.target == "/dev/tty" || r.target == "/dev/stdout":
			w = stdout
		case r.target == "/dev/stderr":
			w = stderr
		default:
			f := &fileWriter{fs: sh.FS, name: r.target, appendTo: r.op == ">>"}
			if err := f.open(); err != nil {
				fmt.Fprintf(stderr, "/system/bin/sh: can't create %s: %v\n", r.target, err)
				return 1, false
			}
			files = append(files, f.close)
			w = f
		}
		switch r.fd {
		case 1:
			stdout = w
		case 2:
			stderr = w
		case -1:
			stdout, stderr = w, w
		}
	}
	defer func() {
		for _, f := range files {
			if err := f(); err != nil {
				fmt.Fprintf(stderr, "/system/bin/sh: write: %v\n", err)
			}
		}
	}()
	defer func() {
		if r := recover(); r != nil {
			ex, ok := r.(exitRequest)
			if !ok {
				panic(r)
			}
			status, exit = ex.status, true
		}
	}()
	env := &Env{Ctx: ctx, Shell: sh, Args: c.args, Stdin: stdin, Stdout: stdout, Stderr: stderr, Cwd: "/"}
	fn, ok := sh.commands[c.args[0]]
	if !ok {
		fmt.Fprintf(stderr, "/system/bin/sh: %s: inaccessible or not found\n", c.args[0])
		return 127, false
	}
	return fn(env), false
}

// fileWriter collects a redirect's output and stores it when the command ends.
type fileWriter struct {
	fs       *FS
	name     string
	appendTo bool
	buf      bytes.Buffer
}

func (f *fileWriter) open() error {
	if f.appendTo {
		if _, err := f.fs.Stat(f.name); err == nil {
			return nil
		}
	}
	return f.fs.WriteFile(f.name, nil, 0o644)
}

func (f *fileWriter) Write(p []byte) (int, error) { return f.buf.Write(p) }

func (f *fileWriter) close() error {
	if f.appendTo {
		return f.fs.AppendFile(f.name, f.buf.Bytes())
	}
	return f.fs.WriteFile(f.name, f.buf.Bytes(), 0o644)
}

// Interactive is `adb shell` without a command: a prompt, one command per line,
// until in ends or the line is `exit`.
func (sh *Shell) Interactive(ctx context.Context, prompt string, in io.Reader, stdout, stderr io.Writer, echo bool) {
	r := bufio.NewReader(in)
	for ctx.Err() == nil {
		fmt.Fprint(stdout, prompt)
		line, err := r.ReadString('\n')
		line = strings.TrimRight(line, "\r\n")
		if echo && line != "" {
			fmt.Fprintln(stdout, line)
		}
		if line != "" {
			var exitStatus bool
			pls, perr := parseShell(line)
			if perr == nil && len(pls) == 1 && len(pls[0].cmds) == 1 && pls[0].cmds[0].args[0] == "exit" {
				exitStatus = true
			}
			sh.Run(ctx, line, bytes.NewReader(nil), stdout, stderr)
			if exitStatus {
				return
			}
		}
		if err != nil {
			return
		}
	}
}
