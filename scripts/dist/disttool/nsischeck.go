package main

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf16"
)

// runCheckLicensePage fails unless an NSIS installer shows the text of a licence file
// as a page. A page's text lives in the installer's header (installed files live in
// the data after it), so the check reads the header and looks for the whole text.
func runCheckLicensePage(args []string) error {
	f := flag.NewFlagSet("check-license-page", flag.ContinueOnError)
	license := f.String("license", "", "the licence file the page must show")
	if err := f.Parse(args); err != nil {
		return err
	}
	if f.NArg() != 1 || *license == "" {
		return fmt.Errorf("want -license FILE and one installer")
	}
	text, err := os.ReadFile(*license)
	if err != nil {
		return err
	}
	installer, err := os.ReadFile(f.Arg(0))
	if err != nil {
		return err
	}
	header, err := nsisHeader(installer)
	if err != nil {
		return fmt.Errorf("%s: %w", f.Arg(0), err)
	}
	if !showsText(header, string(text)) {
		return fmt.Errorf("%s: no licence page with the text of %s", f.Arg(0), *license)
	}
	fmt.Printf("%s: the licence page shows %s\n", f.Arg(0), *license)
	return nil
}

// nsisSignature is what NSIS writes after the first header's flags.
var nsisSignature = []byte("\xef\xbe\xad\xdeNullsoftInst")

// nsisHeader returns the uncompressed header of a non-solid NSIS installer: the first
// header (flags, signature, header length, data length), then the header's length
// (the top bit set when it is compressed) and the header, raw deflate as `SetCompressor
// zlib`, NSIS's default, writes it.
func nsisHeader(installer []byte) ([]byte, error) {
	at := bytes.Index(installer, nsisSignature)
	if at < 4 {
		return nil, fmt.Errorf("not an NSIS installer")
	}
	p := at + len(nsisSignature)
	if len(installer) < p+12 {
		return nil, fmt.Errorf("NSIS first header cut short")
	}
	size := binary.LittleEndian.Uint32(installer[p:])
	stored := binary.LittleEndian.Uint32(installer[p+8:])
	p += 12
	n := int(stored & 0x7fffffff)
	if len(installer) < p+n {
		return nil, fmt.Errorf("NSIS header cut short")
	}
	block := installer[p : p+n]
	if stored&0x80000000 == 0 {
		return block, nil
	}
	header, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(block)), int64(size)+1))
	if err != nil {
		return nil, fmt.Errorf("NSIS header is not zlib-compressed (solid or another compressor?): %w", err)
	}
	if len(header) != int(size) {
		return nil, fmt.Errorf("NSIS header is %d bytes, the first header says %d", len(header), size)
	}
	return header, nil
}

// showsText says whether header holds text, in the UTF-16 of a Unicode installer or the
// bytes of an ANSI one, with either line ends.
func showsText(header []byte, text string) bool {
	lf := strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n"))
	for _, t := range []string{lf, strings.ReplaceAll(lf, "\n", "\r\n")} {
		if bytes.Contains(header, []byte(t)) || bytes.Contains(header, utf16LE(t)) {
			return true
		}
	}
	return false
}

func utf16LE(s string) []byte {
	u := utf16.Encode([]rune(s))
	b := make([]byte, 2*len(u))
	for i, c := range u {
		binary.LittleEndian.PutUint16(b[2*i:], c)
	}
	return b
}
