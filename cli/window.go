package cli

import (
	"fmt"
	"os"
	"path/filepath"
)

// windowBinary names the program that opens the desktop window when this binary is
// built without it, as on Linux: linking GTK and WebKitGTK made every command pay
// ~70 ms to load and initialise ~170 libraries it never used, so
// `fixthis` is built without them and runs fixthis-window for the desktop command
// only. The Makefile and the release build set it with
// -X fixthis/cli.windowBinary=fixthis-window; empty means this build has no window to
// find (a plain `go build`), and the desktop command serves the console instead.
var windowBinary string

// windowDirs are where the window program is looked for, relative to the directory of
// this executable: beside it (build/bin, the tarball) and in ../lib/fixthis (the .deb's
// /usr/lib/fixthis, `make install`'s ~/.local/lib/fixthis).
var windowDirs = []string{".", filepath.Join("..", "lib", "fixthis")}

// findWindow returns the path of the window program name for the executable exe
// (symlinks resolved, so a link on PATH to an unpacked tarball works), or an error
// that says where it looked.
func findWindow(exe, name string) (string, error) {
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	dir := filepath.Dir(exe)
	var tried []string
	for _, d := range windowDirs {
		p := filepath.Join(dir, d, name)
		tried = append(tried, p)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("the window is not installed: no executable %s at %v; reinstall FixThis to get it back", name, tried)
}

// installedWindow finds this build's window program; ok is false when the build has
// none to find (windowBinary unset).
func installedWindow() (path string, ok bool, err error) {
	if windowBinary == "" {
		return "", false, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", true, fmt.Errorf("the window is not installed: cannot locate this executable: %w", err)
	}
	path, err = findWindow(exe, windowBinary)
	return path, true, err
}
