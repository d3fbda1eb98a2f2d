// Package childtest reruns the running test binary as a child process, so that a
// test can SIGKILL a FixThis part way through a save and then check, in the
// parent, what a restart finds.
package childtest

import (
	"bufio"
	"os"
	"os/exec"
	"testing"
)

// Start runs test (a test function's name) again in a child with env=value set,
// which the test reads to know it is the child. It answers the running child and
// its standard output, a line at a time; the channel closes when the child's
// output ends. The child is killed and reaped when the test ends, also when it
// fails before its planned kill, so no child keeps saving behind a failed test.
func Start(t testing.TB, test, env, value string) (*exec.Cmd, <-chan string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env+"="+value)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	return cmd, lines
}
