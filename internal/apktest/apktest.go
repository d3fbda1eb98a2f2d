// Package apktest builds small APK files for tests: zip archives with a text
// AndroidManifest.xml and a signing-certificate entry, which is what the simulated
// phone's package manager reads.
package apktest

import (
	"archive/zip"
	"bytes"
	"fmt"
	"html"
)

// App describes the APK to build.
type App struct {
	Package     string
	VersionCode int
	VersionName string
	MinSdk      int
	Launcher    string // activity class as the manifest writes it (".MainActivity")
	// Key stands for the signing key: APKs built with different keys cannot update
	// one another.
	Key string
}

// Build returns the APK bytes.
func Build(a App) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	manifest := fmt.Sprintf(`<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="%s" android:versionCode="%d" android:versionName="%s">
    <uses-sdk android:minSdkVersion="%d" android:targetSdkVersion="34" />
    <application android:debuggable="true">
        <activity android:name="%s" android:exported="true">
            <intent-filter>
                <action android:name="android.intent.action.MAIN" />
                <category android:name="android.intent.category.LAUNCHER" />
            </intent-filter>
        </activity>
    </application>
</manifest>
`, html.EscapeString(a.Package), a.VersionCode, html.EscapeString(a.VersionName), max(a.MinSdk, 1), html.EscapeString(a.Launcher))
	key := a.Key
	if key == "" {
		key = "debug"
	}
	for _, f := range []struct{ name, body string }{
		{"AndroidManifest.xml", manifest},
		{"classes.dex", "dex\n035\x00"},
		{"META-INF/CERT.RSA", "certificate for key " + key},
	} {
		w, _ := zw.Create(f.name) // writing into memory cannot fail
		w.Write([]byte(f.body))
	}
	zw.Close()
	return buf.Bytes()
}
