package apktest

import (
	_ "embed"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

//go:embed gradlew-stub
var gradlewStub []byte

// StubProject copies the Android project at src into a temporary folder and gives
// it a stub Gradle wrapper that "builds" app as the APK of `:app:assemble<Variant>`
// (see gradlew-stub). It returns the copy's path.
func StubProject(t testing.TB, src string, app App) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			if d.Name() == "build" || d.Name() == ".gradle" || d.Name() == ".fixthis" {
				return filepath.SkipDir
			}
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatalf("copy %s: %v", src, err)
	}
	if err := os.WriteFile(filepath.Join(dst, "gradlew"), gradlewStub, 0o755); err != nil {
		t.Fatal(err)
	}
	SetStubAPK(t, dst, app)
	return dst
}

// SetStubAPK changes what the stub wrapper of project builds next.
func SetStubAPK(t testing.TB, project string, app App) {
	t.Helper()
	dir := filepath.Join(project, "stub")
	files := map[string][]byte{
		"app.apk":       Build(app),
		"applicationId": []byte(app.Package),
		"versionCode":   []byte(strconv.Itoa(app.VersionCode)),
		"versionName":   []byte(app.VersionName),
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// SetStubFailure makes the stub wrapper's next builds fail with a Kotlin compiler
// error (fail true) or succeed again.
func SetStubFailure(t testing.TB, project string, fail bool) {
	t.Helper()
	p := filepath.Join(project, "stub", "fail")
	if !fail {
		os.Remove(p)
		return
	}
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
}
