package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"
)

// formulaTarball is one architecture's download in the Homebrew formula.
type formulaTarball struct {
	URL, SHA256 string
}

// formulaData fills formulaTemplate.
type formulaData struct {
	Version, Homepage string
	ARM64, AMD64      formulaTarball
}

// formulaTemplate is the Homebrew formula for the macOS tarballs
// (https://docs.brew.sh/Formula-Cookbook): one download per architecture, the man
// page, the licence files, a caveat for adb (a cask, which a formula cannot depend
// on) and a test that runs the installed binary.
var formulaTemplate = template.Must(template.New("fixthis.rb").Parse(`# Homebrew formula for FixThis {{.Version}}, written by make dist with the checksums of
# the macOS tarballs it built. Install with: brew install --formula ./fixthis.rb
class Fixthis < Formula
  desc "Point at an Android app's UI and hand change requests to a coding agent"
{{- if .Homepage}}
  homepage "{{.Homepage}}"
{{- end}}
  version "{{.Version}}"
  license "Apache-2.0"

  on_macos do
    on_arm do
      url "{{.ARM64.URL}}"
      sha256 "{{.ARM64.SHA256}}"
    end
    on_intel do
      url "{{.AMD64.URL}}"
      sha256 "{{.AMD64.SHA256}}"
    end
  end

  def install
    bin.install "fixthis"
    man1.install "fixthis.1"
    prefix.install "README.md", "LICENSE", "THIRD_PARTY_NOTICES"
  end

  def caveats
    <<~EOS
      FixThis reaches phones through adb, which Homebrew ships as a cask:
        brew install --cask android-platform-tools

      This build has no native window: fixthis serves the console on 127.0.0.1
      and opens it in your default browser.
    EOS
  end

  test do
    assert_match version.to_s, shell_output("#{bin}/fixthis version")
  end
end
`))

// rubyStringSafe is what the formula's quoted strings may hold: no quote, backslash
// or #{…} interpolation can end or escape them.
var rubyStringSafe = regexp.MustCompile(`^[A-Za-z0-9._~:/?&=%+@,-]+$`)

func runFormula(args []string) error {
	f := flag.NewFlagSet("formula", flag.ContinueOnError)
	version := f.String("version", "", "release version, e.g. 1.2.0")
	baseURL := f.String("url", "", "where the tarballs are downloaded from (the release's download folder)")
	homepage := f.String("homepage", "", "the project's home page (optional)")
	arm64 := f.String("arm64", "", "the darwin-arm64 tarball")
	amd64 := f.String("amd64", "", "the darwin-amd64 tarball")
	out := f.String("out", "", "the formula to write")
	if err := f.Parse(args); err != nil {
		return err
	}
	if *version == "" || *baseURL == "" || *arm64 == "" || *amd64 == "" || *out == "" {
		return fmt.Errorf("-version, -url, -arm64, -amd64 and -out are required")
	}
	d := formulaData{Version: *version, Homepage: *homepage}
	var err error
	if d.ARM64, err = tarballEntry(*baseURL, *arm64); err != nil {
		return err
	}
	if d.AMD64, err = tarballEntry(*baseURL, *amd64); err != nil {
		return err
	}
	text, err := renderFormula(d)
	if err != nil {
		return err
	}
	return os.WriteFile(*out, text, 0o644)
}

// tarballEntry names a tarball's download URL and hashes the file.
func tarballEntry(baseURL, path string) (formulaTarball, error) {
	file, err := os.Open(path)
	if err != nil {
		return formulaTarball{}, err
	}
	defer file.Close()
	h := sha256.New()
	if _, err := io.Copy(h, file); err != nil {
		return formulaTarball{}, fmt.Errorf("%s: %w", path, err)
	}
	return formulaTarball{
		URL:    strings.TrimSuffix(baseURL, "/") + "/" + filepath.Base(path),
		SHA256: hex.EncodeToString(h.Sum(nil)),
	}, nil
}

// renderFormula writes the formula, refusing a value that would not stay inside its
// Ruby string.
func renderFormula(d formulaData) ([]byte, error) {
	for what, v := range map[string]string{"version": d.Version, "arm64 url": d.ARM64.URL, "amd64 url": d.AMD64.URL} {
		if !rubyStringSafe.MatchString(v) {
			return nil, fmt.Errorf("%s %q has characters a formula string cannot hold", what, v)
		}
	}
	if d.Homepage != "" && !rubyStringSafe.MatchString(d.Homepage) {
		return nil, fmt.Errorf("homepage %q has characters a formula string cannot hold", d.Homepage)
	}
	var b bytes.Buffer
	if err := formulaTemplate.Execute(&b, d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
