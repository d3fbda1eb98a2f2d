//go:build !windows

package cli

import (
	"os"
	"syscall"
)

// runWindow replaces this process with the window program, running the desktop
// command with the same arguments and environment. The process id stays the same, so
// launchers, signals and scripts that wait for it see one program.
func runWindow(path string, args []string) error {
	argv := append([]string{path, "desktop"}, args...)
	return syscall.Exec(path, argv, os.Environ())
}
