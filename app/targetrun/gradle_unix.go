//go:build !windows

package targetrun

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// wrapperCommand is how to run the project's Gradle wrapper (gradlew).
func wrapperCommand(projectDir string) (name string, args []string, err error) {
	st, err := os.Stat(filepath.Join(projectDir, "gradlew"))
	if err != nil {
		return "", nil, err
	}
	if st.Mode()&0o111 == 0 {
		// A wrapper that lost its executable bit (a zip download) still runs with sh.
		return "/bin/sh", []string{"gradlew"}, nil
	}
	return "./gradlew", nil, nil
}

// stopWrapperOnCancel makes cancelling stop the wrapper and the JVM client it
// started, not the shared Gradle daemon: the process group gets SIGTERM.
func stopWrapperOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
}
