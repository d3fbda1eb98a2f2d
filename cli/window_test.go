package cli

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"fixthis/app/desktop"
)

func writeExec(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), mode); err != nil {
		t.Fatal(err)
	}
}

func TestFindWindow(t *testing.T) {
	root := t.TempDir()
	exe := filepath.Join(root, "usr", "bin", "fixthis")
	writeExec(t, exe, 0o755)

	_, err := findWindow(exe, "fixthis-window")
	if err == nil || !strings.HasPrefix(err.Error(), "the window is not installed: ") ||
		!strings.Contains(err.Error(), filepath.Join(root, "usr", "lib", "fixthis", "fixthis-window")) {
		t.Fatalf("missing window: %v", err)
	}

	// A file that cannot be run is not the window.
	lib := filepath.Join(root, "usr", "lib", "fixthis", "fixthis-window")
	writeExec(t, lib, 0o644)
	if _, err := findWindow(exe, "fixthis-window"); err == nil {
		t.Fatal("a non-executable file was taken for the window")
	}
	// The .deb layout: /usr/lib/fixthis beside /usr/bin.
	os.Chmod(lib, 0o755)
	if got, err := findWindow(exe, "fixthis-window"); err != nil || got != lib {
		t.Fatalf("deb layout: %q, %v", got, err)
	}
	// Beside the binary (build/bin, the tarball) wins.
	beside := filepath.Join(root, "usr", "bin", "fixthis-window")
	writeExec(t, beside, 0o755)
	if got, err := findWindow(exe, "fixthis-window"); err != nil || got != beside {
		t.Fatalf("beside: %q, %v", got, err)
	}
	// A link on PATH to an unpacked tarball finds the window next to the real binary.
	link := filepath.Join(root, "home", "bin", "fixthis")
	os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink(exe, link); err != nil {
		t.Fatal(err)
	}
	if got, err := findWindow(link, "fixthis-window"); err != nil || got != beside {
		t.Fatalf("through a symlink: %q, %v", got, err)
	}
}

// withoutLinkedWindow sets windowBinary to name for the test; a test binary that links
// the window itself (built with the desktop tag) skips, as it never looks for one.
func withoutLinkedWindow(t *testing.T, name string) {
	t.Helper()
	if desktop.Available {
		t.Skip("this test binary links the window")
	}
	old := windowBinary
	windowBinary = name
	t.Cleanup(func() { windowBinary = old })
}

// A window program missing from its install is no dead end: the desktop command says
// why, serves the console, names its URL and tries the browser.
func TestDesktopWithoutInstalledWindow(t *testing.T) {
	withoutLinkedWindow(t, "fixthis-window-not-here")
	dir := t.TempDir()
	code, stdout, stderr := run(t, map[string]string{"DISPLAY": ":99", "WAYLAND_DISPLAY": "wayland-0"}, "desktop", "--project-dir", dir, "--no-demo")
	for _, want := range []string{"fixthis: the window is not installed: no executable fixthis-window-not-here",
		"serving the console in your browser instead", "opening the console in your default browser"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q: %q", want, stderr)
		}
	}
	if code != 0 || !strings.HasPrefix(stdout, "FixThis console: http://127.0.0.1:") || !strings.Contains(stdout, "/#token=") {
		t.Fatalf("exit %d, stdout %q", code, stdout)
	}
	// Without a display there is no browser to open either: the console is only served.
	code, stdout, stderr = run(t, nil, "desktop", "--project-dir", dir, "--no-demo")
	if code != 0 || strings.Contains(stderr, "not installed") || strings.Contains(stderr, "opening the console") ||
		!strings.HasPrefix(stdout, "FixThis console: ") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// A build without any window (the macOS download, a plain go build) serves the
// console and opens it in the browser, saying so.
func TestDesktopInBuildWithoutWindow(t *testing.T) {
	withoutLinkedWindow(t, "")
	code, stdout, stderr := run(t, map[string]string{"DISPLAY": ":99"}, "desktop", "--project-dir", t.TempDir(), "--no-demo")
	if code != 0 || !strings.Contains(stderr, "this build has no desktop window ("+noWindowReason+")") ||
		!strings.Contains(stderr, "opening the console in your default browser") || !strings.HasPrefix(stdout, "FixThis console: ") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestDesktopRunsWindowProgram runs a copy of this test binary next to a stand-in
// window program: the desktop command must replace the process with it, passing the
// arguments and the environment.
func TestDesktopRunsWindowProgram(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows links the window into fixthis.exe")
	}
	if os.Getenv("FIXTHIS_TEST_WINDOW_CHILD") == "1" {
		windowBinary = "fixthis-window"
		os.Stdout.WriteString("pid " + strconv.Itoa(os.Getpid()) + "\n")
		code := Run(t.Context(), Env{Stdout: os.Stdout, Stderr: os.Stderr, Getenv: func(k string) string {
			return map[string]string{"DISPLAY": ":99"}[k]
		}}, []string{"--project-dir", os.Getenv("FIXTHIS_TEST_PROJECT"), "--no-demo"})
		t.Fatalf("Run returned %d instead of replacing the process", code)
	}
	dir := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	copyFile(t, self, filepath.Join(dir, "fixthis"))
	script := "#!/bin/sh\necho \"window pid $$ args $* env $FIXTHIS_TEST_MARK\"\n"
	if err := os.WriteFile(filepath.Join(dir, "fixthis-window"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	project := t.TempDir()
	cmd := exec.Command(filepath.Join(dir, "fixthis"), "-test.run=^TestDesktopRunsWindowProgram$")
	cmd.Env = append(os.Environ(), "FIXTHIS_TEST_WINDOW_CHILD=1", "FIXTHIS_TEST_MARK=kept", "FIXTHIS_TEST_PROJECT="+project)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	pid := strings.TrimPrefix(lines[0], "pid ")
	want := "window pid " + pid + " args desktop --project-dir " + project + " --no-demo env kept"
	if len(lines) != 2 || lines[1] != want {
		t.Fatalf("output %q, want the window's line %q", out, want)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
