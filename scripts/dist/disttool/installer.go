package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// runInstaller builds the NSIS installer from Wails' own installer templates, laid out
// the way `wails build -nsis` lays them out, so the installer behaves as any Wails
// app's does: Start-menu and desktop shortcuts, an uninstaller registered with
// Windows, and the WebView2 runtime bootstrapper when the runtime is missing.
func runInstaller(args []string) error {
	f := flag.NewFlagSet("installer", flag.ContinueOnError)
	var c commonFlags
	c.register(f)
	exe := f.String("exe", "", "the Windows executable to install")
	ico := f.String("ico", "", "the installer's icon (from `disttool resources`)")
	out := f.String("out", "", "installer to write")
	notices := f.String("notices", "", "THIRD_PARTY_NOTICES for this executable, installed next to it as THIRD_PARTY_NOTICES.txt")
	license := f.String("license", "", "the program's licence, shown as the installer's licence page and installed next to the executable as LICENSE.txt")
	if err := f.Parse(args); err != nil {
		return err
	}
	if *exe == "" || *ico == "" || *out == "" {
		return fmt.Errorf("-exe, -ico and -out are required")
	}
	p, err := c.load()
	if err != nil {
		return err
	}
	exeAbs, err := filepath.Abs(*exe)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "fixthis-nsis-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	// project.nsi refers to ..\icon.ico, tmp\MicrosoftEdgeWebview2Setup.exe and
	// ..\..\bin\ relative to the installer folder.
	installerDir := filepath.Join(work, "build", "windows", "installer")
	for _, dir := range []string{filepath.Join(installerDir, "tmp"), filepath.Join(work, "build", "bin")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	tools, err := renderTemplate(c.wailsAsset("installer/wails_tools.nsh"), p)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(installerDir, "wails_tools.nsh"), tools, 0o644); err != nil {
		return err
	}
	project, err := os.ReadFile(c.wailsAsset("installer/project.nsi"))
	if err != nil {
		return err
	}
	if *license != "" {
		// The licence page and Notepad both read CRLF text best.
		crlf := filepath.Join(work, "LICENSE.txt")
		if err := copyCRLF(*license, crlf); err != nil {
			return err
		}
		if project, err = showLicense(project, crlf); err != nil {
			return err
		}
		if project, err = installFile(project, crlf, "LICENSE.txt"); err != nil {
			return err
		}
	}
	if *notices != "" {
		if project, err = installFile(project, *notices, "THIRD_PARTY_NOTICES.txt"); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(installerDir, "project.nsi"), project, 0o644); err != nil {
		return err
	}
	copies := map[string]string{
		filepath.Join(c.wailsDir, "internal", "webview2runtime", "MicrosoftEdgeWebview2Setup.exe"): filepath.Join(installerDir, "tmp", "MicrosoftEdgeWebview2Setup.exe"),
		*ico: filepath.Join(work, "build", "windows", "icon.ico"),
	}
	for src, dst := range copies {
		if err := copyFile(src, dst); err != nil {
			return err
		}
	}
	// INFO_PROJECTNAME names the installed executable (fixthis.exe, the name agents'
	// MCP configs and the docs use) and the installer's output file.
	cmd := exec.Command("makensis", "-V2",
		"-DARG_WAILS_AMD64_BINARY="+exeAbs,
		"-DINFO_PROJECTNAME="+p.OutputFilename,
		"project.nsi")
	cmd.Dir = installerDir
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("makensis: %w", err)
	}
	built := filepath.Join(work, "build", "bin", p.OutputFilename+"-amd64-installer.exe")
	return copyFile(built, *out)
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	return writeWith(dst, func(w *os.File) error {
		_, err := io.Copy(w, in)
		return err
	})
}

// filesMacro is the line of Wails' project.nsi that installs the executable.
const filesMacro = "!insertmacro wails.files"

// installFile adds file to the files the installer puts in the install folder, as
// name, right after the executable. The uninstaller removes the whole folder, so it
// needs no line of its own.
func installFile(project []byte, file, name string) ([]byte, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, err
	}
	s := string(project)
	if strings.Count(s, filesMacro) != 1 {
		return nil, fmt.Errorf("project.nsi has %d %q lines, want 1: Wails' installer template changed", strings.Count(s, filesMacro), filesMacro)
	}
	line := fmt.Sprintf("%s\n    File \"/oname=%s\" \"%s\"", filesMacro, name, abs)
	return []byte(strings.Replace(s, filesMacro, line, 1)), nil
}

// licensePage is the line of Wails' project.nsi that adds a licence page, left
// commented out there; the page shows between the welcome and the folder pages.
var licensePage = regexp.MustCompile(`(?m)^# (!insertmacro MUI_PAGE_LICENSE) "[^"]*".*$`)

// showLicense turns on the installer's licence page with the text of file.
func showLicense(project []byte, file string) ([]byte, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, err
	}
	if n := len(licensePage.FindAll(project, -1)); n != 1 {
		return nil, fmt.Errorf("project.nsi has %d commented MUI_PAGE_LICENSE lines, want 1: Wails' installer template changed", n)
	}
	return licensePage.ReplaceAll(project, []byte(`$1 "`+strings.ReplaceAll(abs, "$", "$$")+`"`)), nil
}

// copyCRLF copies the text file src to dst with CRLF line ends.
func copyCRLF(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	text := strings.ReplaceAll(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n", "\r\n")
	return os.WriteFile(dst, []byte(text), 0o644)
}
