// The app's APK file: a zip with the entries FixThis reads from it.
package android

import (
	"archive/zip"
	"bytes"
	"strconv"
)

// apkSourceIndex is where the FixThis Gradle plugin puts its source index in the APK
// (upstream v1.5.0 FixThisGradlePlugin / SourceIndexAssets.kt:72: the asset
// "fixthis/fixthis-source-index.json", so the APK entry is under assets/).
const apkSourceIndex = "assets/fixthis/fixthis-source-index.json"

// appAPK is base.apk as a zip: a manifest entry standing for the binary manifest,
// and the source index when the app's build carries one. Readable by the shell user
// (0644 under /data/app), as a real APK is, so `adb pull` and `cat` work.
func appAPK(app AppInfo) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, data []byte) {
		w, err := zw.Create(name)
		if err == nil {
			_, _ = w.Write(data)
		}
	}
	add("AndroidManifest.xml", []byte("<manifest package=\""+app.Package+"\" versionCode=\""+strconv.Itoa(app.VersionCode)+"\"/>"))
	if app.SourceIndex != nil {
		add(apkSourceIndex, app.SourceIndex)
	}
	_ = zw.Close()
	return buf.Bytes()
}
