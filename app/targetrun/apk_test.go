package targetrun

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"fixthis/app/project"
)

// A flavor the scripts did not tell (set up in a convention plugin) still finds its
// APK: "demoDebug" lives in apk/demo/debug, with the metadata naming the final id.
func TestNewestAPKFindsAVariantByItsFolders(t *testing.T) {
	mod := t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(mod, "build", "outputs", "apk", rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	write("demo/debug/app-demo-debug.apk", "PK")
	write("demo/debug/output-metadata.json", `{"applicationId":"com.x.demo.debug","variantName":"demoDebug","elements":[{"type":"SINGLE","versionCode":8,"versionName":"0.1.2","outputFile":"app-demo-debug.apk"}]}`)
	write("prod/debug/app-prod-debug.apk", "PK")
	since := time.Now().Add(-time.Minute)
	got, err := newestAPK(mod, project.Variant{Name: "demoDebug", BuildType: "demoDebug"}, since)
	if err != nil || got.ApplicationID != "com.x.demo.debug" || filepath.Base(got.Path) != "app-demo-debug.apk" || got.VersionCode != 8 {
		t.Errorf("demoDebug: %+v %v", got, err)
	}
	got, err = newestAPK(mod, project.Variant{Name: "prodDebug", BuildType: "debug", Flavors: []string{"prod"}}, since)
	if err != nil || filepath.Base(got.Path) != "app-prod-debug.apk" {
		t.Errorf("prodDebug: %+v %v", got, err)
	}
	if _, err := newestAPK(mod, project.Variant{Name: "debug", BuildType: "debug"}, since); err == nil {
		t.Error("a bare debug matched a flavored folder")
	}
	// A bare assembleDebug of flavors the scripts did not tell: the newest debug APK.
	if got, err := newestAPKOfType(mod, "debug", since); err != nil || filepath.Base(filepath.Dir(got.Path)) != "debug" {
		t.Errorf("any debug: %+v %v", got, err)
	}
	if _, err := newestAPK(mod, project.Variant{Name: "demoDebug", BuildType: "debug"}, time.Now().Add(time.Hour)); err == nil {
		t.Error("an APK older than the build counted")
	}
}
