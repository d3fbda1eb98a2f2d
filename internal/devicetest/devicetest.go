// Package devicetest holds what the device-output parser tests share: reading a
// corpus file, the bad inputs every parser must survive, and fuzz seeds read from
// testdata. Each corpus file's golden reading is compared through internal/golden.
// Only tests import it.
package devicetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Read returns testdata/name.
func Read(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// MB is the size of the oversized field in BadInputs.
const MB = 1 << 20

// BadInputs are what a broken device, a cut connection or a hostile app can make a
// command print, built from a real output: NUL bytes through it, a megabyte-long
// field in its first line, the output cut in half and cut to its first line, only
// line ends, and binary noise.
func BadInputs(real string) map[string]string {
	first, _, _ := strings.Cut(real, "\n")
	noise := make([]byte, 4096)
	for i := range noise {
		noise[i] = byte(i * 7919 >> 3)
	}
	return map[string]string{
		"nul bytes":      strings.ReplaceAll(real, " ", " \x00"),
		"only nul":       strings.Repeat("\x00", 1024),
		"megabyte field": first + strings.Repeat("A", MB) + "\n" + real,
		"megabyte line":  strings.Repeat("x=", MB/2) + "\n",
		"cut in half":    real[:len(real)/2],
		"first line":     first,
		"line ends":      strings.Repeat("\r\n", 1000),
		"binary":         string(noise),
	}
}

// Seed adds every named testdata file, and a few short bad inputs, to a fuzz
// target's corpus. Large files slow the fuzzer's mutations, so callers pick small ones.
func Seed(f *testing.F, names ...string) {
	f.Helper()
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("")
	f.Add("\x00\x00\n\r\n")
}
