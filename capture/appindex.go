package capture

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fixthis/adb"
	"fixthis/app/errcode"
	"fixthis/internal/sidekick"
	"fmt"
	"io"
	"strings"
	"unicode"
)

// Where an app's source index was read from (AppSourceIndex.From).
const (
	IndexFromSidekick = "sidekick" // readSourceIndex on the app's bridge
	IndexFromAPK      = "apk"      // the asset inside the installed base.apk
)

// apkSourceIndexEntry is where the FixThis Gradle plugin puts its index in the APK.
const apkSourceIndexEntry = "assets/fixthis/fixthis-source-index.json"

// ErrNoAppSourceIndex means the installed build carries no FixThis source index.
var ErrNoAppSourceIndex = errors.New("the app's build carries no FixThis source index")

// AppSourceIndex is the raw index (schema 1.3 JSON, parsed by app/source) and where
// it came from.
type AppSourceIndex struct {
	Data []byte
	From string
}

// ReadAppSourceIndex reads the source index the app's debug build carries. The
// phone's unzip (ziptool, Android 10+) piping the one entry out of the installed
// base.apk comes first: the sidekick's readSourceIndex sends the same index
// pretty-printed, about twice the bytes over the cable (a 4 MiB index: ~150 ms
// against ~360 ms on a USB 2 link). Without unzip, the sidekick's readSourceIndex
// when sk is connected; else the APK read whole with `cat` over exec (binary-safe)
// and opened here. base.apk is world-readable, as `adb pull` relies on. More than
// sidekick.MaxSourceIndexBytes is refused either way, as the sidekick does.
func ReadAppSourceIndex(ctx context.Context, dev Device, sk *SidekickClient, pkg string) (AppSourceIndex, error) {
	apk, err := InstalledAPK(ctx, dev, pkg)
	if err != nil {
		return AppSourceIndex{}, err
	}
	if idx, answered, err := unzipAPKIndex(ctx, dev, apk); answered {
		return idx, err
	}
	if ctx.Err() != nil {
		return AppSourceIndex{}, ctx.Err()
	}
	if sk != nil {
		var res sidekick.SourceIndexResult
		err := sk.Call(ctx, sidekick.MethodReadSourceIndex, nil, &res)
		switch {
		case err == nil && res.SourceIndexAvailable && len(res.SourceIndex) > 0:
			return AppSourceIndex{Data: res.SourceIndex, From: IndexFromSidekick}, nil
		case err == nil && res.SourceIndexError != nil:
			return AppSourceIndex{}, fmt.Errorf("the app's sidekick could not read its source index: %s", errcode.Quote(*res.SourceIndexError))
		case err == nil:
			return AppSourceIndex{}, ErrNoAppSourceIndex
		}
		// The bridge failed: the APK still holds the index.
	}
	return catAPKIndex(ctx, dev, apk)
}

// InstalledAPK is the path of the app's base.apk (`pm path`). A reinstall on Android
// 11+ moves it to a new directory, so the path also tells installs apart.
func InstalledAPK(ctx context.Context, dev Device, pkg string) (string, error) {
	if err := adb.CheckPackage(pkg); err != nil {
		return "", err
	}
	res, err := dev.Shell(ctx, adb.Command("pm", "path", pkg))
	if err != nil {
		return "", fmt.Errorf("pm path %s: %w", pkg, err)
	}
	for _, l := range strings.Split(string(res.Stdout), "\n") {
		p, ok := strings.CutPrefix(strings.TrimSpace(l), "package:")
		if ok && strings.HasSuffix(p, "/base.apk") {
			// Not adb.CheckPath: Android 11+ installs under /data/app/~~<base64>==/,
			// and '~' is no character of the paths FixThis builds. adb.Command
			// quotes the path, so it only has to be a plain absolute path.
			if !strings.HasPrefix(p, "/") || len(p) > 1024 || strings.Contains(p, "/../") || strings.ContainsFunc(p, unicode.IsControl) {
				return "", fmt.Errorf("pm path %s: unusable APK path %s", pkg, errcode.Quote(p))
			}
			return p, nil
		}
	}
	return "", fmt.Errorf("pm path %s: no base.apk (exit %d): %s", pkg, res.ExitCode, errcode.Quote(strings.TrimSpace(string(res.Stderr))))
}

// unzipAPKIndex pipes the index entry out of apk with the phone's unzip. answered
// is false where the phone has no unzip (before Android 10) or it failed.
func unzipAPKIndex(ctx context.Context, dev Device, apk string) (idx AppSourceIndex, answered bool, err error) {
	res, err := dev.Shell(ctx, adb.Command("unzip", "-p", apk, apkSourceIndexEntry))
	if err != nil || res.ExitCode != 0 {
		return AppSourceIndex{}, false, nil
	}
	switch {
	case len(res.Stdout) == 0:
		return AppSourceIndex{}, true, ErrNoAppSourceIndex // ziptool: no match, no output
	case len(res.Stdout) > sidekick.MaxSourceIndexBytes:
		return AppSourceIndex{}, true, fmt.Errorf("%s: %s exceeds %d bytes", apk, apkSourceIndexEntry, sidekick.MaxSourceIndexBytes)
	}
	return AppSourceIndex{Data: res.Stdout, From: IndexFromAPK}, true, nil
}

// catAPKIndex reads apk whole and opens the index entry here.
func catAPKIndex(ctx context.Context, dev Device, apk string) (AppSourceIndex, error) {
	raw, err := dev.Exec(ctx, adb.Command("cat", apk))
	if err != nil {
		return AppSourceIndex{}, fmt.Errorf("read %s: %w", apk, err)
	}
	data, err := zipEntry(raw, apkSourceIndexEntry, sidekick.MaxSourceIndexBytes)
	if err != nil {
		return AppSourceIndex{}, fmt.Errorf("%s: %w", apk, err)
	}
	return AppSourceIndex{Data: data, From: IndexFromAPK}, nil
}

// zipEntry reads one entry of a zip, refusing more than limit bytes.
func zipEntry(archive []byte, name string, limit int64) ([]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	if err != nil {
		return nil, fmt.Errorf("not an APK: %w", err)
	}
	f, err := zr.Open(name)
	if err != nil {
		return nil, ErrNoAppSourceIndex
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s exceeds %d bytes", name, limit)
	}
	return data, nil
}
