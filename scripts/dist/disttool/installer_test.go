package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// templatePages are the page and file lines of Wails' installer/project.nsi (v2.11.0),
// which showLicense and installFile rewrite.
const templatePages = `!insertmacro MUI_PAGE_WELCOME # Welcome to the installer page.
# !insertmacro MUI_PAGE_LICENSE "resources\eula.txt" # Adds a EULA page to the installer
!insertmacro MUI_PAGE_DIRECTORY # In which folder install page.
Section
    SetOutPath $INSTDIR

    !insertmacro wails.files
SectionEnd
`

func TestInstallerShowsAndInstallsTheLicence(t *testing.T) {
	dir := t.TempDir()
	license := filepath.Join(dir, "LICENSE")
	if err := os.WriteFile(license, []byte("Apache License\nVersion 2.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	crlf := filepath.Join(dir, "LICENSE.txt")
	if err := copyCRLF(license, crlf); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(crlf); string(b) != "Apache License\r\nVersion 2.0\r\n" {
		t.Fatalf("CRLF copy: %q", b)
	}
	project, err := showLicense([]byte(templatePages), crlf)
	if err != nil {
		t.Fatal(err)
	}
	if project, err = installFile(project, crlf, "LICENSE.txt"); err != nil {
		t.Fatal(err)
	}
	s := string(project)
	page := `!insertmacro MUI_PAGE_LICENSE "` + crlf + `"`
	if !strings.Contains(s, "\n"+page+"\n") {
		t.Errorf("no licence page line %q in:\n%s", page, s)
	}
	if strings.Index(s, page) < strings.Index(s, "MUI_PAGE_WELCOME") || strings.Index(s, page) > strings.Index(s, "MUI_PAGE_DIRECTORY") {
		t.Errorf("the licence page is not between the welcome and folder pages:\n%s", s)
	}
	file := "!insertmacro wails.files\n    File \"/oname=LICENSE.txt\" \"" + crlf + "\""
	if !strings.Contains(s, file) {
		t.Errorf("the licence is not installed after the executable:\n%s", s)
	}
}

func TestInstallerRewritesRefuseAChangedTemplate(t *testing.T) {
	dir := t.TempDir()
	license := filepath.Join(dir, "LICENSE.txt")
	if err := os.WriteFile(license, []byte("text"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, template string
		rewrite        func([]byte) ([]byte, error)
	}{
		{"no licence page line", "!insertmacro MUI_PAGE_WELCOME\n", func(p []byte) ([]byte, error) { return showLicense(p, license) }},
		{"licence page already on", "!insertmacro MUI_PAGE_LICENSE \"x.txt\"\n", func(p []byte) ([]byte, error) { return showLicense(p, license) }},
		{"no files macro", "Section\nSectionEnd\n", func(p []byte) ([]byte, error) { return installFile(p, license, "LICENSE.txt") }},
		{"two files macros", "!insertmacro wails.files\n!insertmacro wails.files\n", func(p []byte) ([]byte, error) { return installFile(p, license, "LICENSE.txt") }},
		{"missing licence file", templatePages, func(p []byte) ([]byte, error) { return showLicense(p, filepath.Join(dir, "nope")) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if out, err := tc.rewrite([]byte(tc.template)); err == nil {
				t.Errorf("rewrote without an error:\n%s", out)
			}
		})
	}
}
