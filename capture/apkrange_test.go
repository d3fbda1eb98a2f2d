package capture

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"fixthis/adb"
	"fixthis/internal/sidekick"
)

// rangePhone answers `stat -c %s` and `dd if= bs= skip= count=` over one file, as
// toybox does for a regular file, and counts what crossed; cut shortens every dd
// answer by that many bytes (a dd that stopped early).
type rangePhone struct {
	path    string
	data    []byte
	cut     int
	dds     int
	sent    int64
	history []string
}

func (p *rangePhone) Exec(context.Context, string) ([]byte, error) {
	return nil, errors.New("no exec here")
}

func (p *rangePhone) Shell(_ context.Context, cmd string) (adb.ShellResult, error) {
	p.history = append(p.history, cmd)
	args := strings.Fields(strings.ReplaceAll(cmd, "'", ""))
	switch {
	case len(args) == 4 && args[0] == "stat" && args[3] == p.path:
		return adb.ShellResult{Stdout: []byte(strconv.Itoa(len(p.data)) + "\n")}, nil
	case len(args) == 5 && args[0] == "dd" && args[1] == "if="+p.path:
		num := func(s, key string) int {
			n, _ := strconv.Atoi(strings.TrimPrefix(s, key+"="))
			return n
		}
		bs, skip, count := num(args[2], "bs"), num(args[3], "skip"), num(args[4], "count")
		from := min(len(p.data), skip*bs)
		out := p.data[from:min(len(p.data), from+count*bs)]
		out = out[:max(0, len(out)-p.cut)]
		p.dds++
		p.sent += int64(len(out))
		return adb.ShellResult{Stdout: out, Stderr: []byte("1+0 records in\n1+0 records out\n")}, nil
	}
	return adb.ShellResult{Stderr: []byte("/system/bin/sh: " + args[0] + ": inaccessible or not found\n"), ExitCode: 127}, nil
}

// Reads across block edges, into the short last block and past the end come out
// as the file's bytes, each block over the cable once.
func TestPhoneFileReadsByBlock(t *testing.T) {
	data := make([]byte, 3*rangeBlock+100)
	for i := range data {
		data[i] = byte(i * 31)
	}
	phone := &rangePhone{path: "/data/app/x/base.apk", data: data}
	f, err := openPhoneFile(context.Background(), phone, phone.path)
	if err != nil || f.size != int64(len(data)) {
		t.Fatalf("open: %v, size %d", err, f.size)
	}
	for _, tc := range []struct {
		off, n int64
		dds    int // dd round trips so far
	}{
		{rangeBlock - 10, 20, 1},          // across the first edge: blocks 0 and 1 in one dd
		{5, 10, 1},                        // cached
		{3*rangeBlock - 1, 50, 2},         // into the short last block
		{int64(len(data)) - 30, 30, 2},    // the last bytes, cached
		{2*rangeBlock + 7, rangeBlock, 2}, // blocks 2 and 3, cached
	} {
		buf := make([]byte, tc.n)
		n, err := f.ReadAt(buf, tc.off)
		if err != nil || n != int(tc.n) || !bytes.Equal(buf, data[tc.off:tc.off+tc.n]) {
			t.Errorf("ReadAt(%d, %d): %d, %v", tc.off, tc.n, n, err)
		}
		if phone.dds != tc.dds {
			t.Errorf("after ReadAt(%d, %d): %d dd, want %d", tc.off, tc.n, phone.dds, tc.dds)
		}
	}
	buf := make([]byte, 200)
	if n, err := f.ReadAt(buf, int64(len(data))-100); n != 100 || err != io.EOF || !bytes.Equal(buf[:n], data[len(data)-100:]) {
		t.Errorf("read past the end: %d, %v", n, err)
	}
	if n, err := f.ReadAt(buf, int64(len(data))); n != 0 || err != io.EOF {
		t.Errorf("read at the end: %d, %v", n, err)
	}
	if _, err := f.ReadAt(buf, -1); err == nil {
		t.Error("a negative offset read")
	}

	// A dd that stops short is an error, not a file with a hole.
	short := &rangePhone{path: phone.path, data: data, cut: 1}
	f, err = openPhoneFile(context.Background(), short, short.path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.ReadAt(make([]byte, 10), 0); !errors.Is(err, errRangeUnavailable) || !strings.Contains(err.Error(), "want 65536") {
		t.Errorf("short dd: %v", err)
	}
}

// zipOf builds a zip; a nil method means deflate.
func zipOf(t testing.TB, entries ...zipPart) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e.name, Method: e.method})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(e.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type zipPart struct {
	name   string
	body   []byte
	method uint16
}

// jsonLike is n bytes of index-like text, which deflates about as an index does.
func jsonLike(n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, `{"file":"app/src/main/java/com/x/Screen%d.kt","line":%d,"symbols":["Screen%d"],"text":["Item %d"]},`, i%97, i, i%89, i*7)
	}
	return b.Bytes()[:n]
}

// The index comes out of an APK by range in three or four round trips that carry a
// fraction of the APK: stat, the tail (end record and directory), the rest of a
// long directory, the entry; stored and deflated alike; an APK without the entry
// says so; a corrupt one fails as a fallback can follow.
func TestRangeAPKIndex(t *testing.T) {
	index := jsonLike(3 << 20)
	padding := make([]byte, 6<<20) // classes.dex and resources: never read
	for i := range padding {
		padding[i] = byte(i*2654435761>>13) ^ byte(i)
	}
	manyFiles := []zipPart{{name: "classes.dex", body: padding, method: zip.Store}}
	for i := range 4000 { // a directory of about 350 KiB, past the first read's tail
		manyFiles = append(manyFiles, zipPart{name: fmt.Sprintf("res/drawable-xxhdpi-v4/illustration_%04d_with_a_long_name.png", i), body: []byte{byte(i)}, method: zip.Store})
	}
	tests := []struct {
		name    string
		apk     []byte
		dds     int   // at most
		wantErr error // nil: the index, or "not an APK" when corrupt
		corrupt bool
	}{
		{"deflated, small directory", zipOf(t, zipPart{"classes.dex", padding, zip.Store}, zipPart{apkSourceIndexEntry, index, zip.Deflate}), 2, nil, false},
		{"stored", zipOf(t, zipPart{"classes.dex", padding, zip.Store}, zipPart{apkSourceIndexEntry, index, zip.Store}), 2, nil, false},
		{"deflated, long directory", zipOf(t, append(manyFiles, zipPart{apkSourceIndexEntry, index, zip.Deflate})...), 3, nil, false},
		{"no entry", zipOf(t, zipPart{"classes.dex", padding, zip.Store}), 1, ErrNoAppSourceIndex, false},
		{"not a zip", padding[:100000], 1, nil, true},
		{"truncated", zipOf(t, zipPart{apkSourceIndexEntry, index, zip.Deflate})[:200000], 1, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			phone := &rangePhone{path: "/data/app/x/base.apk", data: tc.apk}
			got, err := rangeAPKIndex(context.Background(), phone, phone.path)
			switch {
			case tc.wantErr != nil:
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err %v, want %v", err, tc.wantErr)
				}
			case tc.corrupt:
				if err == nil || !strings.Contains(err.Error(), "not an APK") || errors.Is(err, errRangeUnavailable) {
					t.Fatalf("corrupt APK: %v", err)
				}
			case err != nil || !bytes.Equal(got.Data, index) || got.From != IndexFromAPKRange:
				t.Fatalf("%d bytes from %q: %v", len(got.Data), got.From, err)
			}
			if phone.dds > tc.dds {
				t.Errorf("%d dd round trips, want at most %d", phone.dds, tc.dds)
			}
			if !tc.corrupt && phone.sent > int64(len(tc.apk))/2+rangeTail {
				t.Errorf("%d of the APK's %d bytes crossed", phone.sent, len(tc.apk))
			}
		})
	}
}

// An entry that inflates past the cap is refused: at once when its sizes say so,
// and within the cap when they lie, so a deflate bomb never inflates much.
func TestRangeAPKIndexRefusesABomb(t *testing.T) {
	zeros := make([]byte, 64<<20)
	bomb := zipOf(t, zipPart{apkSourceIndexEntry, zeros, zip.Deflate})
	phone := &rangePhone{path: "/data/app/x/base.apk", data: bomb}
	if _, err := rangeAPKIndex(context.Background(), phone, phone.path); !errors.Is(err, errIndexTooLarge) {
		t.Fatalf("an honest bomb: %v", err)
	}
	if phone.dds != 1 {
		t.Errorf("an honest bomb's bytes were read: %d dd", phone.dds)
	}

	// The same entry whose headers claim 1 KiB: archive/zip stops at the claimed
	// size, so the compressed bytes consumed show how little was inflated (deflate
	// inflates at most 1032 bytes per byte).
	lying := bytes.Clone(bomb)
	claimSize(t, lying, 1024)
	counter := &countingReaderAt{r: bytes.NewReader(lying)}
	zr, err := zip.NewReader(counter, int64(len(lying)))
	if err != nil {
		t.Fatal(err)
	}
	dataOff, _ := zr.File[0].DataOffset()
	counter.highest = 0
	if _, err := readEntry(zr.File[0], sidekick.MaxSourceIndexBytes); err == nil {
		t.Fatal("a bomb that lies about its size was read")
	}
	if consumed := counter.highest - dataOff; consumed > 64<<10 {
		t.Errorf("%d compressed bytes consumed of %d: up to %d MiB inflated", consumed, zr.File[0].CompressedSize64, consumed*1032>>20)
	}
}

// claimSize rewrites the uncompressed size of a one-entry zip's local header and
// directory record (APPNOTE 4.3.7, 4.3.12) to n.
func claimSize(t *testing.T, z []byte, n uint32) {
	t.Helper()
	cd := bytes.LastIndex(z, []byte("PK\x01\x02"))
	if !bytes.HasPrefix(z, []byte("PK\x03\x04")) || cd < 0 {
		t.Fatal("not a one-entry zip")
	}
	binary.LittleEndian.PutUint32(z[cd+24:], n)
	// The writer streamed the entry: its local sizes are zero and a data
	// descriptor follows, which archive/zip reads only after the data.
}

// countingReaderAt records the furthest byte read.
type countingReaderAt struct {
	r       io.ReaderAt
	highest int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.highest = max(c.highest, off+int64(n))
	return n, err
}

// The ranged read comes first; where the phone cannot do it (no stat, dd refused,
// not a zip) unzip, then cat follow in that order; an APK read by range without
// the entry is the answer at once.
func TestReadAppSourceIndexFallbackOrder(t *testing.T) {
	const apk = "/data/app/~~Qz1==/com.example.notes-Ab1==/base.apk"
	index := []byte(`{"schemaVersion":"1.3","entries":[]}`)
	withIndex := zipOf(t, zipPart{"AndroidManifest.xml", []byte("x"), zip.Deflate}, zipPart{apkSourceIndexEntry, index, zip.Deflate})
	without := zipOf(t, zipPart{"AndroidManifest.xml", []byte("x"), zip.Deflate})
	pmPath := adb.Command("pm", "path", "com.example.notes")
	stat := adb.Command("stat", "-c", "%s", apk)
	dd := adb.Command("dd", "if="+apk, "bs=65536", "skip=0", "count=1")
	unzip := adb.Command("unzip", "-p", apk, apkSourceIndexEntry)
	cat := adb.Command("cat", apk)
	size := func(b []byte) reply { return reply{out: []byte(strconv.Itoa(len(b)) + "\n")} }
	notFound := func(name string) reply {
		return reply{stderr: []byte("/system/bin/sh: " + name + ": inaccessible or not found\n"), code: 127}
	}
	tests := []struct {
		name    string
		shell   map[string][]reply
		exec    map[string][]reply
		from    string
		wantErr string // a part of the error, or an error's text
		ran     []string
	}{
		{"by range", map[string][]reply{stat: {size(withIndex)}, dd: {{out: withIndex}}}, nil, IndexFromAPKRange, "", []string{stat, dd}},
		{"by range, no entry: no fallback", map[string][]reply{stat: {size(without)}, dd: {{out: without}}}, nil, "", ErrNoAppSourceIndex.Error(), []string{stat, dd}},
		{"no stat: unzip", map[string][]reply{stat: {notFound("stat")}, unzip: {{out: index}}}, nil, IndexFromAPK, "", []string{stat, unzip}},
		{"no dd: unzip", map[string][]reply{stat: {size(withIndex)}, dd: {notFound("dd")}, unzip: {{out: index}}}, nil, IndexFromAPK, "", []string{stat, dd, unzip}},
		{"dd refused: unzip", map[string][]reply{stat: {size(withIndex)}, dd: {{stderr: []byte("dd: " + apk + ": Permission denied\n"), code: 1}}, unzip: {{out: index}}},
			nil, IndexFromAPK, "", []string{stat, dd, unzip}},
		{"not a zip: unzip fails, cat", map[string][]reply{stat: {size([]byte("garbage"))}, dd: {{out: []byte("garbage")}}, unzip: {{code: 1}}},
			map[string][]reply{cat: {{out: []byte("garbage")}}}, "", "not an APK", []string{stat, dd, unzip, cat}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.shell[pmPath] = []reply{{out: []byte("package:" + apk + "\n")}}
			dev := &scriptedDevice{shell: tc.shell, exec: tc.exec}
			got, err := ReadAppSourceIndex(context.Background(), dev, nil, "com.example.notes")
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
			} else if err != nil || !bytes.Equal(got.Data, index) || got.From != tc.from {
				t.Fatalf("%q from %q: %v", got.Data, got.From, err)
			}
			if want := append([]string{pmPath}, tc.ran...); strings.Join(dev.history, "\n") != strings.Join(want, "\n") {
				t.Errorf("ran %q, want %q", dev.history, want)
			}
		})
	}
}

// Whatever the phone's stat prints and whatever bytes dd hands over, the ranged
// read ends in the index or an error of bounded length, never more than the cap.
func FuzzRangeAPKIndex(f *testing.F) {
	index := jsonLike(5000)
	f.Add(zipOf(f, zipPart{apkSourceIndexEntry, index, zip.Deflate}), "")
	f.Add(zipOf(f, zipPart{"a", []byte("x"), zip.Store}, zipPart{apkSourceIndexEntry, index, zip.Store}), "")
	deflated := zipOf(f, zipPart{apkSourceIndexEntry, index, zip.Deflate})
	f.Add(deflated[:len(deflated)/2], "")
	f.Add([]byte("PK\x05\x06\x00\x00\x00\x00\x01\x00\x01\x00\xff\xff\xff\xff\x00\x00\x00\x00\x00\x00"), "")
	f.Add([]byte("\x00garbage"), "-1\n")
	f.Add(zipOf(f, zipPart{apkSourceIndexEntry, index, zip.Deflate}), "99999999999999999999")
	f.Fuzz(func(t *testing.T, apk []byte, statOut string) {
		phone := &rangePhone{path: "/data/app/x/base.apk", data: apk}
		dev := Device(phone)
		if statOut != "" {
			dev = statOverride{phone, statOut}
		}
		got, err := rangeAPKIndex(context.Background(), dev, phone.path)
		if err != nil && len(err.Error()) > 400 {
			t.Fatalf("a %d-byte error", len(err.Error()))
		}
		if err == nil && (len(got.Data) > sidekick.MaxSourceIndexBytes || got.From != IndexFromAPKRange) {
			t.Fatalf("%d bytes from %q", len(got.Data), got.From)
		}
	})
}

// statOverride is a phone whose stat prints out.
type statOverride struct {
	*rangePhone
	out string
}

func (s statOverride) Shell(ctx context.Context, cmd string) (adb.ShellResult, error) {
	if strings.HasPrefix(cmd, "stat ") {
		return adb.ShellResult{Stdout: []byte(s.out)}, nil
	}
	return s.rangePhone.Shell(ctx, cmd)
}
