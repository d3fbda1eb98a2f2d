package capture

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fixthis/adb"
	"strings"
	"testing"
)

func apkWith(t *testing.T, entries map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range entries {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	zw.Close()
	return buf.Bytes()
}

// Where the APK cannot be read by range (this phone answers no stat), the index
// comes from the phone's unzip when it has one, else from the APK read whole and
// opened on the host; an APK without one says so.
func TestReadAPKSourceIndex(t *testing.T) {
	const apk = "/data/app/~~Qz1==/com.example.notes-Ab1==/base.apk"
	const index = `{"schemaVersion":"1.3","entries":[]}`
	pmPath := adb.Command("pm", "path", "com.example.notes")
	unzip := adb.Command("unzip", "-p", apk, "assets/fixthis/fixthis-source-index.json")
	cat := adb.Command("cat", apk)
	path := reply{out: []byte("package:" + apk + "\npackage:/data/app/~~Qz1==/com.example.notes-Ab1==/split_config.xxhdpi.apk\n")}
	tests := []struct {
		name    string
		shell   map[string][]reply
		exec    map[string][]reply
		want    string
		wantErr error
	}{
		{"unzip on the phone", map[string][]reply{pmPath: {path}, unzip: {{out: []byte(index)}}}, nil, index, nil},
		{"no entry: ziptool prints nothing", map[string][]reply{pmPath: {path}, unzip: {{}}}, nil, "", ErrNoAppSourceIndex},
		{"no unzip: the APK read whole", map[string][]reply{pmPath: {path}, unzip: {{stderr: []byte("/system/bin/sh: unzip: inaccessible or not found\n"), code: 127}}},
			map[string][]reply{cat: {{out: apkWith(t, map[string]string{"AndroidManifest.xml": "x", "assets/fixthis/fixthis-source-index.json": index})}}}, index, nil},
		{"no unzip, no entry", map[string][]reply{pmPath: {path}, unzip: {{code: 127}}},
			map[string][]reply{cat: {{out: apkWith(t, map[string]string{"AndroidManifest.xml": "x"})}}}, "", ErrNoAppSourceIndex},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dev := &scriptedDevice{shell: tc.shell, exec: tc.exec}
			got, err := ReadAppSourceIndex(context.Background(), dev, nil, "com.example.notes")
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil || string(got.Data) != tc.want || got.From != IndexFromAPK {
				t.Fatalf("%q from %q: %v", got.Data, got.From, err)
			}
		})
	}
	// Not an APK at all, and no base.apk.
	dev := &scriptedDevice{shell: map[string][]reply{pmPath: {path}, unzip: {{code: 127}}}, exec: map[string][]reply{cat: {{out: []byte("\x00 not a zip")}}}}
	if _, err := ReadAppSourceIndex(context.Background(), dev, nil, "com.example.notes"); err == nil || !strings.Contains(err.Error(), "not an APK") {
		t.Errorf("garbage APK: %v", err)
	}
	dev = &scriptedDevice{shell: map[string][]reply{pmPath: {{code: 1, stderr: []byte(strings.Repeat("x", 1<<20))}}}}
	if _, err := ReadAppSourceIndex(context.Background(), dev, nil, "com.example.notes"); err == nil || len(err.Error()) > 200 {
		t.Errorf("no package: %d-byte error", len(err.Error()))
	}
}
