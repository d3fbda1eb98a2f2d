package main

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"strings"
	"testing"
)

// fakeInstaller lays out what makensis writes for a non-solid installer: a stub, the
// first header (flags, signature, header size, data size) and the header, raw deflate
// when compress is set (the length's top bit says so).
func fakeInstaller(t *testing.T, header []byte, compress bool) []byte {
	t.Helper()
	block := header
	if compress {
		var buf bytes.Buffer
		w, err := flate.NewWriter(&buf, flate.BestCompression)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(header)
		w.Close()
		block = buf.Bytes()
	}
	var b bytes.Buffer
	b.WriteString("MZ stub")
	binary.Write(&b, binary.LittleEndian, uint32(0)) // flags
	b.Write(nsisSignature)
	binary.Write(&b, binary.LittleEndian, uint32(len(header)))
	binary.Write(&b, binary.LittleEndian, uint32(len(block)+4))
	n := uint32(len(block))
	if compress {
		n |= 0x80000000
	}
	binary.Write(&b, binary.LittleEndian, n)
	b.Write(block)
	b.WriteString("installed files follow")
	return b.Bytes()
}

func TestLicensePageIsFoundInTheHeader(t *testing.T) {
	license := "Apache License\nVersion 2.0\n\nTERMS AND CONDITIONS\n"
	crlf := strings.ReplaceAll(strings.TrimSpace(license), "\n", "\r\n")
	for _, tc := range []struct {
		name     string
		header   []byte
		compress bool
		want     bool
	}{
		{"Unicode, compressed, CRLF", append([]byte("strings\x00"), utf16LE(crlf)...), true, true},
		{"Unicode, stored, LF", utf16LE(strings.TrimSpace(license)), false, true},
		{"ANSI, compressed", []byte("x" + crlf + "y"), true, true},
		{"another text", utf16LE("MIT License\r\n"), true, false},
		{"half the licence", utf16LE("Apache License\r\nVersion 2.0"), true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			header, err := nsisHeader(fakeInstaller(t, tc.header, tc.compress))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(header, tc.header) {
				t.Fatalf("header %q, want %q", header, tc.header)
			}
			if got := showsText(header, license); got != tc.want {
				t.Errorf("showsText = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestNSISHeaderRefusesWhatItCannotRead(t *testing.T) {
	good := fakeInstaller(t, utf16LE("text"), true)
	sig := bytes.Index(good, nsisSignature)
	for name, b := range map[string][]byte{
		"not NSIS":   []byte("MZ just a program"),
		"cut short":  good[:sig+len(nsisSignature)+6],
		"not zlib":   append(append([]byte{}, good[:sig+len(nsisSignature)+12]...), bytes.Repeat([]byte{0xff}, 40)...),
		"wrong size": fakeInstallerSized(t, good, sig),
	} {
		t.Run(name, func(t *testing.T) {
			if h, err := nsisHeader(b); err == nil {
				t.Errorf("read a header %q", h)
			}
		})
	}
}

// fakeInstallerSized is good with a first header that claims a larger header.
func fakeInstallerSized(t *testing.T, good []byte, sig int) []byte {
	t.Helper()
	b := append([]byte{}, good...)
	binary.LittleEndian.PutUint32(b[sig+len(nsisSignature):], 999)
	return b
}
