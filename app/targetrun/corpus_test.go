package targetrun

import (
	"flag"
	"strings"
	"testing"
	"time"

	"fixthis/internal/devicetest"
	"fixthis/internal/golden"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.json from the current parser output")

// What a person reads in each real `dumpsys package` output.
func TestParsePackageDumpRealOutputs(t *testing.T) {
	tests := []struct {
		file, pkg, version string
		code               int
		updated            time.Time
	}{
		{"dumpsys_package_api24.txt", "com.example.testapp.first", "1.0", 1, time.Date(2016, 11, 3, 1, 12, 9, 0, time.UTC)},
		// The running build, not the factory one listed under "Hidden system packages:".
		{"dumpsys_package_wearos_updated_system_app.txt", "com.tekartik.package1", "1.0.16", 20, time.Date(2025, 7, 4, 1, 16, 34, 0, time.UTC)},
		{"dumpsys_package_wearos_app.txt", "com.tekartik.package2", "1.4.73", 248, time.Date(2025, 7, 3, 23, 31, 21, 0, time.UTC)},
	}
	for _, tt := range tests {
		text := devicetest.Read(t, tt.file)
		in, ok := ParsePackageDump(text, tt.pkg, time.UTC)
		if !ok || in.VersionName != tt.version || in.VersionCode != tt.code || !in.LastUpdate.Equal(tt.updated) {
			t.Errorf("%s: %+v ok=%v", tt.file, in, ok)
		}
		golden.JSON(t, tt.file, in, *update)
		if crlf, _ := ParsePackageDump(strings.ReplaceAll(text, "\n", "\r\n"), tt.pkg, time.UTC); crlf != in {
			t.Errorf("%s: CRLF reads %+v", tt.file, crlf)
		}
		// Another package named in the dump (a query, a shared user) is not installed by it.
		if _, ok := ParsePackageDump(text, "com.whatsapp", time.UTC); ok {
			t.Errorf("%s: a package named only in Queries parsed as installed", tt.file)
		}
	}
}

func TestApprunParsersBadInput(t *testing.T) {
	for name, in := range devicetest.BadInputs(devicetest.Read(t, "dumpsys_package_wearos_app.txt")) {
		if got, ok := ParsePackageDump(in, "com.tekartik.package2", time.UTC); ok && got.Package != "com.tekartik.package2" {
			t.Errorf("%s: %+v", name, got)
		}
		if _, err := ParseAmStart(in); err == nil {
			t.Errorf("%s: am start parsed a package dump as a launch", name)
		} else if len(err.Error()) > 1000 {
			t.Errorf("%s: am start error of %d bytes", name, len(err.Error()))
		}
		if err := parseInstallOutput(in); err != nil && len(err.Error()) > 1000 {
			t.Errorf("%s: error of %d bytes", name, len(err.Error()))
		}
	}
}

func FuzzParsePackageDump(f *testing.F) {
	devicetest.Seed(f, "dumpsys_package_api24.txt")
	f.Fuzz(func(t *testing.T, s string) {
		if in, ok := ParsePackageDump(s, "com.example.testapp.first", time.UTC); ok && in.Package != "com.example.testapp.first" {
			t.Fatalf("%+v", in)
		}
	})
}

func FuzzParseAmStart(f *testing.F) {
	f.Add("Starting: Intent { cmp=com.x/.Main }\nStatus: ok\nLaunchState: COLD\nActivity: com.x/.Main\nTotalTime: 812\nWaitTime: 820\nComplete\n")
	f.Add("Error type 3\nError: Activity class {com.x/com.x.Nope} does not exist.\n")
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseAmStart(s)
		if err == nil && r.TotalMs < 0 {
			t.Fatalf("launch %+v", r)
		}
	})
}

func FuzzParseInstallOutput(f *testing.F) {
	f.Add("Performing Streamed Install\nSuccess\n")
	f.Add("Failure [INSTALL_FAILED_OLDER_SDK: Failed parse during installPackageLI]")
	f.Fuzz(func(t *testing.T, s string) {
		if err := parseInstallOutput(s); err != nil && err.Error() == "" {
			t.Fatal("empty error")
		}
	})
}
