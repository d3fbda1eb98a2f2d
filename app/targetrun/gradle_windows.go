package targetrun

import (
	"os"
	"os/exec"
	"path/filepath"
)

// wrapperCommand is how to run the project's Gradle wrapper (gradlew.bat).
func wrapperCommand(projectDir string) (name string, args []string, err error) {
	bat := filepath.Join(projectDir, "gradlew.bat")
	if _, err := os.Stat(bat); err != nil {
		return "", nil, err
	}
	return bat, nil, nil
}

// stopWrapperOnCancel keeps exec's default on Windows: cancelling kills the
// wrapper's process. Killing its whole tree would also take the shared Gradle
// daemon it started.
func stopWrapperOnCancel(*exec.Cmd) {}
