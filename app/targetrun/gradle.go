package targetrun

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"
)

// ErrNoGradlew is wrapped when the project has no Gradle wrapper.
var ErrNoGradlew = errors.New("no gradlew")

// BuildError is a failed Gradle build: its exit code and the error lines Gradle and
// the compilers printed (the compiler's own message, not only "BUILD FAILED").
type BuildError struct {
	Task     string
	ExitCode int
	Lines    []string
}

func (e *BuildError) Error() string {
	msg := fmt.Sprintf("gradle %s failed (exit %d)", e.Task, e.ExitCode)
	if len(e.Lines) > 0 {
		msg += ":\n" + strings.Join(e.Lines, "\n")
	}
	return msg
}

// taskCounts remembers how many tasks a build printed, per project and task, so the
// next build of the same task can show a fraction instead of a task counter.
var taskCounts sync.Map

var (
	taskLineRE = regexp.MustCompile(`^> Task (:\S+)`)
	// Error lines worth showing: Kotlin (`e: file.kt:3:5 msg`), javac
	// (`File.java:12: error: msg`), AAPT and R8 (`ERROR: …`), and Gradle's summary.
	errorLineRE = regexp.MustCompile(`^(e: |ERROR:|.*\.(java|kt|xml):\d+(:\d+)?: error: |.*AAPT: error)`)
)

// build runs the project's wrapper for task, streaming every output line to
// progress, and returns a *BuildError with the error lines when it fails.
func build(ctx context.Context, projectDir, task string, report func(Progress)) error {
	name, args, err := wrapperCommand(projectDir)
	if err != nil {
		return fmt.Errorf("%w: %s has no gradlew; FixThis builds with the project's Gradle wrapper. Create one with `gradle wrapper` in that folder, or install the app yourself and run with --no-build",
			ErrNoGradlew, projectDir)
	}
	args = append(args, task, "--console=plain")
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = projectDir
	stopWrapperOnCancel(cmd)
	cmd.WaitDelay = 5 * time.Second
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s in %s: %w", name, projectDir, err)
	}
	key := projectDir + "\x00" + task
	expected, _ := taskCounts.Load(key)
	var lines, errLines []string
	tasks := 0
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		inWrong := false
		for sc.Scan() {
			line := strings.TrimRight(sc.Text(), "\r")
			lines = append(lines, line)
			p := Progress{Stage: StageBuild, Line: line, Fraction: -1, Tasks: tasks}
			if m := taskLineRE.FindStringSubmatch(line); m != nil {
				tasks++
				p.Tasks, p.Task = tasks, m[1]
			}
			if n, ok := expected.(int); ok && n > 0 {
				p.Fraction = min(0.99, float64(tasks)/float64(n))
			}
			switch {
			case strings.HasPrefix(line, "* What went wrong:"):
				inWrong = true
			case strings.HasPrefix(line, "* Try:"), strings.HasPrefix(line, "* Exception is:"):
				inWrong = false
			case inWrong && strings.TrimSpace(line) != "":
				errLines = append(errLines, line)
			case errorLineRE.MatchString(line):
				errLines = append(errLines, line)
			}
			report(p)
		}
		io.Copy(io.Discard, pr)
	}()
	werr := cmd.Wait()
	pw.Close()
	<-done
	if werr == nil {
		taskCounts.Store(key, tasks)
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("gradle %s: %w", task, context.Cause(ctx))
	}
	be := &BuildError{Task: task, ExitCode: -1, Lines: errLines}
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		be.ExitCode = ee.ExitCode()
	}
	if len(be.Lines) == 0 {
		be.Lines = lastLines(lines, 15) // no recognisable error line: the tail tells
	}
	return be
}

func lastLines(lines []string, n int) []string {
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}
