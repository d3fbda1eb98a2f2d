package targetrun

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestParseAmStart(t *testing.T) {
	cases := []struct {
		name, out string
		ms        int
		state     string
		err       string
	}{
		{"android 10+", "Starting: Intent { act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] cmp=com.x/.Main }\r\nStatus: ok\r\nLaunchState: COLD\r\nActivity: com.x/.Main\r\nTotalTime: 812\r\nWaitTime: 820\r\nComplete\r\n", 812, "COLD", ""},
		{"android 5-9", "Starting: Intent { cmp=com.x/.Main }\nStatus: ok\nActivity: com.x/.Main\nThisTime: 455\nTotalTime: 455\nWaitTime: 470\nComplete\n", 455, "", ""},
		{"brought to front", "Starting: Intent { cmp=com.x/.Main }\nWarning: Activity not started, its current task has been brought to the front\nStatus: ok\nLaunchState: UNKNOWN (0)\nActivity: com.x/.Main\nWaitTime: 12\nComplete\n", 0, "UNKNOWN (0)", ""},
		{"missing class", "Starting: Intent { cmp=com.x/.Nope }\nError type 3\nError: Activity class {com.x/com.x.Nope} does not exist.\n", 0, "", "Activity class {com.x/com.x.Nope} does not exist."},
		{"timeout", "Starting: Intent { cmp=com.x/.Main }\nStatus: timeout\nActivity: com.x/.Main\nComplete\n", 0, "", "status timeout"},
	}
	for _, c := range cases {
		r, err := ParseAmStart(c.out)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: err = %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil || r.TotalMs != c.ms || r.LaunchState != c.state {
			t.Errorf("%s: %+v %v", c.name, r, err)
		}
	}
}

func TestParseInstallOutput(t *testing.T) {
	if err := parseInstallOutput("Performing Streamed Install\nSuccess\n"); err != nil {
		t.Errorf("Success: %v", err)
	}
	cases := map[string]string{
		"Failure [INSTALL_FAILED_UPDATE_INCOMPATIBLE: Package com.x signatures do not match previously installed version; ignoring!]":                                                                  "--reinstall",
		"Failure [INSTALL_FAILED_OLDER_SDK: Failed parse during installPackageLI: /data/app/vmdl1.tmp/base.apk (at Binary XML file line #7): Requires newer sdk version #34 (current version is #30)]": "minSdk",
		"Failure [INSTALL_FAILED_USER_RESTRICTED: Install canceled by user]":                                                                                                                           "Install via USB",
		"Failure [INSTALL_PARSE_FAILED_MANIFEST_MALFORMED: Failed parse during installPackageLI: Targeting S+ requires android:exported]":                                                              "android:exported",
		"Failure [INSTALL_FAILED_INSUFFICIENT_STORAGE]":  "out of storage",
		"Failure [INSTALL_FAILED_SOMETHING_NEW: detail]": "INSTALL_FAILED_SOMETHING_NEW",
	}
	for out, want := range cases {
		err := parseInstallOutput(out)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want it to say %q", out, err, want)
		}
	}
}

func TestParsePackageDump(t *testing.T) {
	data, err := os.ReadFile("testdata/dumpsys_package_api24.txt")
	if err != nil {
		t.Fatal(err)
	}
	loc := time.FixedZone("+0100", 3600)
	in, ok := ParsePackageDump(string(data), "com.example.testapp.first", loc)
	want := time.Date(2016, 11, 3, 1, 12, 9, 0, loc)
	if !ok || in.VersionName != "1.0" || in.VersionCode != 1 || !in.LastUpdate.Equal(want) || !in.FirstInstall.Equal(want) {
		t.Errorf("parsed %+v ok=%v", in, ok)
	}
	if _, ok := ParsePackageDump("Unable to find package: com.nope\n", "com.nope", loc); ok {
		t.Error("a missing package parsed as installed")
	}
	if _, ok := ParsePackageDump(string(data), "com.example", loc); ok {
		t.Error("a prefix of the package name matched")
	}
}
