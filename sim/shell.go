package sim

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// cmdEnv is what one simple command runs with.
type cmdEnv struct {
	ctx    context.Context
	dev    *Device
	args   []string // args[0] is the command name
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	cwd    string // working directory for relative paths
	runAs  bool   // inside `run-as PKG`: the app's private files are readable
}

func (e *cmdEnv) printf(format string, a ...any) { fmt.Fprintf(e.stdout, format, a...) }

// errorf prints to stderr and returns the exit status, so commands can
// `return e.errorf(1, ...)`.
func (e *cmdEnv) errorf(status int, format string, a ...any) int {
	fmt.Fprintf(e.stderr, format, a...)
	return status
}

type commandFunc func(e *cmdEnv) int

// exitRequest unwinds the script on `exit N`.
type exitRequest struct{ status int }

// runScript runs a command line the way /system/bin/sh -c would and returns its
// exit status.
func (d *Device) runScript(ctx context.Context, script string, stdin io.Reader, stdout, stderr io.Writer) int {
	pls, err := parseShell(script)
	if err != nil {
		fmt.Fprintf(stderr, "/system/bin/sh: %v\n", err)
		return 2
	}
	if err := d.delay(ctx, d.profile.Latency.Shell); err != nil {
		return 130
	}
	if err := d.pinnedDelay(ctx, script); err != nil {
		return 130
	}
	if out, ok := d.pinnedOutput(script); ok {
		_, _ = stdout.Write(out)
		return 0
	}
	status := 0
	run := true
	for _, pl := range pls {
		if run {
			pl = d.substitute(ctx, expandStatus(pl, status), stderr)
			st, exit := d.runPipeline(ctx, pl, stdin, stdout, stderr)
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
func (d *Device) substitute(ctx context.Context, pl pipeline, stderr io.Writer) pipeline {
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
			d.runScript(ctx, w[i+len(substOpen):i+j], bytes.NewReader(nil), &out, stderr)
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
func (d *Device) runPipeline(ctx context.Context, pl pipeline, stdin io.Reader, stdout, stderr io.Writer) (status int, exit bool) {
	in := stdin
	for i, c := range pl.cmds {
		out := stdout
		var buf *bytes.Buffer
		if i < len(pl.cmds)-1 {
			buf = &bytes.Buffer{}
			out = buf
		}
		status, exit = d.runSimple(ctx, c, in, out, stderr)
		if exit {
			return status, true
		}
		if buf != nil {
			in = buf
		}
	}
	return status, false
}

func (d *Device) runSimple(ctx context.Context, c simpleCommand, stdin io.Reader, stdout, stderr io.Writer) (status int, exit bool) {
	var files []func() error
	for _, r := range c.redirs {
		var w io.Writer
		switch {
		case r.op == "<":
			if r.target == "/dev/null" {
				stdin = bytes.NewReader(nil)
				continue
			}
			data, err := d.fs.readFile(r.target)
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
			f := &fileWriter{fs: d.fs, name: r.target, appendTo: r.op == ">>"}
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
	env := &cmdEnv{ctx: ctx, dev: d, args: c.args, stdin: stdin, stdout: stdout, stderr: stderr, cwd: "/"}
	fn, ok := commands[c.args[0]]
	if !ok {
		fmt.Fprintf(stderr, "/system/bin/sh: %s: inaccessible or not found\n", c.args[0])
		return 127, false
	}
	return fn(env), false
}

// fileWriter collects a redirect's output and stores it when the command ends.
type fileWriter struct {
	fs       *memFS
	name     string
	appendTo bool
	buf      bytes.Buffer
}

func (f *fileWriter) open() error {
	if f.appendTo {
		if _, err := f.fs.stat(f.name); err == nil {
			return nil
		}
	}
	return f.fs.writeFile(f.name, nil, 0o644)
}

func (f *fileWriter) Write(p []byte) (int, error) { return f.buf.Write(p) }

func (f *fileWriter) close() error {
	if f.appendTo {
		return f.fs.appendFile(f.name, f.buf.Bytes())
	}
	return f.fs.writeFile(f.name, f.buf.Bytes(), 0o644)
}

// bufPipe is an unbounded pipe: the host's stdin is queued without blocking the
// stream reader, whether or not the command ever reads it.
type bufPipe struct {
	mu     sync.Mutex
	cond   *sync.Cond
	buf    []byte
	closed bool
}

func newBufPipe() *bufPipe {
	p := &bufPipe{}
	p.cond = sync.NewCond(&p.mu)
	return p
}

func (p *bufPipe) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return 0, io.ErrClosedPipe
	}
	p.buf = append(p.buf, b...)
	p.cond.Broadcast()
	return len(b), nil
}

func (p *bufPipe) Read(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.buf) == 0 && !p.closed {
		p.cond.Wait()
	}
	if len(p.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(b, p.buf)
	p.buf = p.buf[n:]
	return n, nil
}

// CloseWrite ends the input: readers get io.EOF once the queue is drained.
func (p *bufPipe) CloseWrite() {
	p.mu.Lock()
	p.closed = true
	p.cond.Broadcast()
	p.mu.Unlock()
}

// syncWriter serialises writes from stdout and stderr that share one sink.
type syncWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (s syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
