package capture_test

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"fixthis/adb/adbtest"
	"fixthis/capture"
	"fixthis/sim"
)

// Against the real adb server and the simulated phone's toybox dd and stat: an APK
// pushed to the phone gives up its index by range, stored or deflated; one without
// the entry, one whose entry inflates past the cap, a truncated one and one the
// shell may not read each fail with an error that says which.
func TestRangeAPKIndexOnThePhone(t *testing.T) {
	index := bytes.Repeat([]byte(`{"file":"app/src/main/java/com/x/TrailListScreen.kt","line":42},`), 20000)
	zipped := func(method uint16, name string, body []byte) []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for _, e := range []struct {
			name string
			body []byte
		}{{"AndroidManifest.xml", []byte("<manifest/>")}, {name, body}} {
			w, err := zw.CreateHeader(&zip.FileHeader{Name: e.name, Method: method})
			if err != nil {
				t.Fatal(err)
			}
			w.Write(e.body)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	const entry = "assets/fixthis/fixthis-source-index.json"
	deflated := zipped(zip.Deflate, entry, index)
	tests := []struct {
		name    string
		path    string
		apk     []byte
		wantErr string // "" for the index
	}{
		{"deflated", "/data/local/tmp/deflated.apk", deflated, ""},
		{"stored", "/data/local/tmp/stored.apk", zipped(zip.Store, entry, index), ""},
		{"no entry", "/data/local/tmp/none.apk", zipped(zip.Deflate, "assets/other.json", index), capture.ErrNoAppSourceIndex.Error()},
		{"inflates past the cap", "/data/local/tmp/bomb.apk", zipped(zip.Deflate, entry, make([]byte, 64<<20)), "larger than the 4194304-byte cap"},
		{"truncated", "/data/local/tmp/cut.apk", deflated[:len(deflated)/2], "not an APK"},
		{"missing", "/data/local/tmp/nope.apk", nil, "cannot read the APK by range: stat exit 1"},
		{"private", "/data/user/0/com.fixthis.demo/base.apk", nil, "cannot read the APK by range: stat exit 1"},
	}
	p := adbtest.StartPhone(t, sim.Options{Scenario: "demo", LatencyScale: 0, Logf: adbtest.Quiet})
	dev := p.Client.Device(p.Serial())
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.apk != nil {
				if err := dev.Push(ctx, bytes.NewReader(tc.apk), tc.path, 0o644, time.Now()); err != nil {
					t.Fatal(err)
				}
			}
			got, err := capture.RangeAPKIndex(ctx, dev, tc.path)
			if tc.wantErr == "" {
				if err != nil || !bytes.Equal(got.Data, index) || got.From != capture.IndexFromAPKRange {
					t.Fatalf("%d bytes from %q: %v", len(got.Data), got.From, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || len(err.Error()) > 300 {
				t.Fatalf("err %v, want %q", err, tc.wantErr)
			}
			if tc.wantErr == capture.ErrNoAppSourceIndex.Error() && !errors.Is(err, capture.ErrNoAppSourceIndex) {
				t.Errorf("no entry: %v is not ErrNoAppSourceIndex", err)
			}
		})
	}
}
