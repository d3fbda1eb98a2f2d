package android

import (
	"strings"
	"testing"
)

// The demo APK carries its source index, and unzip -p answers as ziptool does.
func TestUnzipPipesTheAPKsSourceIndex(t *testing.T) {
	d := demoDevice(t)
	apk := "/data/app/com.fixthis.demo-1/base.apk"
	tests := []struct {
		name, cmd string
		code      int
		want      string
	}{
		{"the index", "unzip -p " + apk + " assets/fixthis/fixthis-source-index.json", 0, `"schemaVersion": "1.3"`},
		{"a glob", "unzip -p " + apk + " 'assets/fixthis/*.json'", 0, `"schemaVersion": "1.3"`},
		{"no such entry: nothing, exit 0", "unzip -p " + apk + " assets/none.json", 0, ""},
		{"no archive", "unzip -p /data/app/nothing.apk x", 1, "unzip: couldn't open /data/app/nothing.apk: I/O error"},
		{"not a zip", "unzip -p /system/build.prop x", 1, "unzip: couldn't open /system/build.prop: Invalid file"},
		{"no archive named", "unzip -p", 1, "unzip: missing archive filename"},
		{"extracting to files is not simulated", "unzip " + apk, 1, "usage: unzip"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, code := run(d, tc.cmd)
			if code != tc.code || (tc.want == "" && out != "") || !strings.Contains(out, tc.want) {
				t.Fatalf("exit %d, output %.200q", code, out)
			}
		})
	}
}
