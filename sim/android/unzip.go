// unzip, as Android's ziptool answers it (AOSP system/libziparchive/ziptool.cpp,
// /system/bin/unzip since Android 10): the -p (pipe) form FixThis uses to read one
// entry of an APK.
package android

import (
	"archive/zip"
	"bytes"
	"io"
	"path"
	"strings"
)

// cmdUnzip is `unzip -p ZIP [FILE...]`: each entry whose name matches one of the
// FILE globs (all when none) is written to stdout, nothing else (ziptool's -p sets
// quiet; ProcessAll, ExtractToPipe). A glob that matches nothing is no error: exit 0
// with no output. An archive that cannot be opened is "unzip: couldn't open ZIP: …",
// exit 1 (main's OpenArchive check); no archive, "unzip: missing archive filename".
// Other options than -p and -q are left out: only the usage line answers them.
func cmdUnzip(e *cmdEnv) int {
	if e.dev.profile.SDK < 29 {
		// /system/bin/unzip (ziptool) ships from Android 10 (API 29); before it the
		// shell finds no such program.
		return e.Errorf(127, "/system/bin/sh: unzip: inaccessible or not found\n")
	}
	pipe := false
	var archive string
	var globs []string
	for _, a := range e.Args[1:] {
		switch {
		case a == "-p":
			pipe = true
		case a == "-q":
		case strings.HasPrefix(a, "-"):
			return e.Errorf(1, "usage: unzip [-d DIR] [-lnopqv] ZIP [FILE...] [-x FILE...]\n")
		case archive == "":
			archive = a
		default:
			globs = append(globs, a)
		}
	}
	if archive == "" {
		return e.Errorf(1, "unzip: missing archive filename\n")
	}
	if !pipe {
		return e.Errorf(1, "usage: unzip [-d DIR] [-lnopqv] ZIP [FILE...] [-x FILE...]\n")
	}
	data, err := e.dev.fs.ReadFile(e.Resolve(archive))
	if err != nil || privateData(e.Resolve(archive)) && !e.RunAs {
		return e.Errorf(1, "unzip: couldn't open %s: I/O error\n", archive)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return e.Errorf(1, "unzip: couldn't open %s: Invalid file\n", archive)
	}
	for _, f := range zr.File {
		if !matchesAny(globs, f.Name) {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return e.Errorf(1, "unzip: failed to extract %s: Invalid file\n", f.Name)
		}
		_, err = io.Copy(e.Stdout, rc)
		rc.Close()
		if err != nil {
			return e.Errorf(1, "unzip: failed to write %s to stdout\n", f.Name)
		}
	}
	return 0
}

// matchesAny is ziptool's ShouldInclude for includes only: fnmatch without flags.
func matchesAny(globs []string, name string) bool {
	if len(globs) == 0 {
		return true
	}
	for _, g := range globs {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return false
}
