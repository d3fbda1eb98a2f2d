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
	IndexFromSidekick = "sidekick"  // readSourceIndex on the app's bridge
	IndexFromAPKRange = "apk-range" // the asset's bytes read from base.apk by range (dd)
	IndexFromAPK      = "apk"       // the asset piped out by the phone's unzip, or the APK read whole
)

// apkSourceIndexEntry is where the FixThis Gradle plugin puts its index in the APK.
const apkSourceIndexEntry = "assets/fixthis/fixthis-source-index.json"

// ErrNoAppSourceIndex means the installed build carries no FixThis source index.
var ErrNoAppSourceIndex = errors.New("the app's build carries no FixThis source index")

// errIndexTooLarge: the entry is over sidekick.MaxSourceIndexBytes, refused on
// every path without reading (or inflating) more than the cap.
var errIndexTooLarge = fmt.Errorf("larger than the %d-byte cap", sidekick.MaxSourceIndexBytes)

// AppSourceIndex is the raw index (schema 1.3 JSON, parsed by app/source) and where
// it came from.
type AppSourceIndex struct {
	Data []byte
	From string
}

// ReadAppSourceIndex reads the source index the app's debug build carries. First
// by range from the installed base.apk (`stat` and `dd`, every phone since Android
// 6): the zip's end record, its directory and the entry's compressed bytes (a 4 MiB
// index deflates to about 0.3 MB), inflated here. Where the phone cannot read by
// range (no dd or stat, permission denied, a corrupt zip), the phone's unzip
// (ziptool, Android 10+) piping the entry out; else the sidekick's readSourceIndex
// when sk is connected (it sends the index pretty-printed, twice its bytes); else
// the APK read whole with `cat` over exec (binary-safe) and opened here. base.apk is
// world-readable, as `adb pull` relies on. An APK read without the entry is
// ErrNoAppSourceIndex at once; more than sidekick.MaxSourceIndexBytes is refused on
// every path, as the sidekick does.
func ReadAppSourceIndex(ctx context.Context, dev Device, sk *SidekickClient, pkg string) (AppSourceIndex, error) {
	apk, err := InstalledAPK(ctx, dev, pkg)
	if err != nil {
		return AppSourceIndex{}, err
	}
	return ReadAPKSourceIndex(ctx, dev, sk, apk)
}

// ReadAPKSourceIndex is ReadAppSourceIndex for the app whose base.apk is apk, as
// InstalledAPK gave it: a caller that already has the path saves a `pm path`.
func ReadAPKSourceIndex(ctx context.Context, dev Device, sk *SidekickClient, apk string) (AppSourceIndex, error) {
	idx, rangeErr := rangeAPKIndex(ctx, dev, apk)
	if rangeErr == nil || errors.Is(rangeErr, ErrNoAppSourceIndex) || errors.Is(rangeErr, errIndexTooLarge) {
		return idx, rangeErr
	}
	if ctx.Err() != nil {
		return AppSourceIndex{}, ctx.Err()
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
	idx, err := catAPKIndex(ctx, dev, apk)
	if err != nil && !errors.Is(err, ErrNoAppSourceIndex) {
		return AppSourceIndex{}, fmt.Errorf("%w (read by range: %v)", err, rangeErr)
	}
	return idx, err
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

// rangeAPKIndex reads the index entry out of apk by range (phoneFile): the end of
// the file (end record, usually the whole directory), the rest of the directory if
// any, then the entry's local header and compressed bytes, each one dd.
func rangeAPKIndex(ctx context.Context, dev Device, apk string) (AppSourceIndex, error) {
	f, err := openPhoneFile(ctx, dev, apk)
	if err != nil {
		return AppSourceIndex{}, err
	}
	if err := f.prefetch(f.size-rangeTail, rangeTail); err != nil {
		return AppSourceIndex{}, err
	}
	f.ahead = rangeAheadMax // a directory longer than the tail comes in one more dd
	zr, err := openZip(f, f.size)
	if err != nil {
		return AppSourceIndex{}, fmt.Errorf("%s: %w", apk, err)
	}
	entry := findEntry(zr, apkSourceIndexEntry)
	if entry == nil {
		return AppSourceIndex{}, ErrNoAppSourceIndex
	}
	// The local header (its extra field may hold zipalign's padding, not the
	// directory's) and the compressed bytes, in one dd when the sizes are honest.
	f.ahead = int64(localHeaderLen+len(entry.Name)+len(entry.Extra)) + int64(min(entry.CompressedSize64, uint64(sidekick.MaxSourceIndexBytes))) + rangeBlock
	data, err := readEntry(entry, sidekick.MaxSourceIndexBytes)
	if err != nil {
		return AppSourceIndex{}, fmt.Errorf("%s: %w", apk, err)
	}
	return AppSourceIndex{Data: data, From: IndexFromAPKRange}, nil
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
		return AppSourceIndex{}, true, fmt.Errorf("%s: %s: %w", apk, apkSourceIndexEntry, errIndexTooLarge)
	}
	return AppSourceIndex{Data: res.Stdout, From: IndexFromAPK}, true, nil
}

// catAPKIndex reads apk whole and opens the index entry here.
func catAPKIndex(ctx context.Context, dev Device, apk string) (AppSourceIndex, error) {
	raw, err := dev.Exec(ctx, adb.Command("cat", apk))
	if err != nil {
		return AppSourceIndex{}, fmt.Errorf("read %s: %w", apk, err)
	}
	zr, err := openZip(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		return AppSourceIndex{}, fmt.Errorf("%s: %w", apk, err)
	}
	entry := findEntry(zr, apkSourceIndexEntry)
	if entry == nil {
		return AppSourceIndex{}, ErrNoAppSourceIndex
	}
	data, err := readEntry(entry, sidekick.MaxSourceIndexBytes)
	if err != nil {
		return AppSourceIndex{}, fmt.Errorf("%s: %w", apk, err)
	}
	return AppSourceIndex{Data: data, From: IndexFromAPK}, nil
}

// localHeaderLen is a zip local file header's fixed part (APPNOTE 4.3.7).
const localHeaderLen = 30

// openZip reads a zip's directory. Names archive/zip calls insecure ("../x") are
// no reason to refuse an APK: only the one entry is read, by its exact name.
func openZip(r io.ReaderAt, size int64) (*zip.Reader, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, fmt.Errorf("not an APK: %w", err)
	}
	return zr, nil
}

// findEntry is the first entry called name, or nil.
func findEntry(zr *zip.Reader, name string) *zip.File {
	for _, f := range zr.File {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// readEntry inflates f, refusing more than limit bytes: at once when the directory
// says so, and after limit+1 bytes when it understates (archive/zip itself stops
// at the stated size), so a deflate bomb is never inflated past the cap.
func readEntry(f *zip.File, limit int64) ([]byte, error) {
	if f.UncompressedSize64 > uint64(limit) {
		return nil, fmt.Errorf("%s: %w", f.Name, errIndexTooLarge)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", f.Name, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", f.Name, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: %w", f.Name, errIndexTooLarge)
	}
	return data, nil
}
