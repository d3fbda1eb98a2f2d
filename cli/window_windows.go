package cli

import (
	"errors"
	"os"
	"os/exec"
)

// runWindow runs the window program with the desktop command and the same arguments,
// environment and standard streams, and exits with its status: Windows has no exec
// that keeps the process. (Windows builds link the window into fixthis.exe, whose
// WebView2 loads only when the window opens, so this runs only for a split build.)
func runWindow(path string, args []string) error {
	cmd := exec.Command(path, append([]string{"desktop"}, args...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		os.Exit(exit.ExitCode())
	}
	return err
}
