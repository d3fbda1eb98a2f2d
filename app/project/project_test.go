package project

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// want is the part of a module a table row checks.
type want struct {
	path, appID, namespace, suffix, launcher, alias, versionName, via string
	minSdk                                                            int
	unresolved                                                        bool
	flavors                                                           []string
}

func got(m Module) want {
	return want{m.Path, m.ApplicationID, m.Namespace, m.DebugApplicationIDSuffix, m.LauncherActivity,
		m.LauncherAlias, m.VersionName, m.AppliedVia, m.MinSdk, m.DebugSuffixUnresolved, m.Flavors}
}

func TestLoad(t *testing.T) {
	cases := []struct {
		name, dir string
		modules   []want
		warnings  []string // substrings, one per expected warning
	}{
		{
			name: "trailhead: catalog alias, relative launcher", dir: "../../examples/trailhead",
			modules: []want{{path: ":app", appID: "com.fixthis.demo", namespace: "com.fixthis.demo",
				launcher: "com.fixthis.demo.MainActivity", versionName: "2.4.1", minSdk: 26,
				via: "com.android.application", flavors: []string{}}},
		},
		{
			name: "catalog alias, namespace differs, catalog minSdk, getByName(debug)", dir: "testdata/catalog",
			modules: []want{{path: ":app", appID: "com.example.catalog", namespace: "com.example.catalog.app", suffix: ".debug",
				launcher: "com.example.catalog.app.ui.HomeActivity", versionName: "1.7", minSdk: 24,
				via: "com.android.application", flavors: []string{}}},
		},
		{
			name: "convention plugins: registered class via catalog id, precompiled script named by a Kotlin constant", dir: "testdata/convention",
			modules: []want{
				{path: ":phone", appID: "com.acme", namespace: "com.acme.phone", launcher: "com.acme.phone.MainActivity",
					via: "acme.android.application (build-logic/convention/src/main/kotlin/AndroidApplicationConventionPlugin.kt)", flavors: []string{}},
				{path: ":tv", appID: "com.acme.tv", namespace: "com.acme.tv", launcher: "com.acme.tv.MainActivity",
					via: "acme.tv.application (build-logic/convention/src/main/kotlin/acme/tv.application.gradle.kts)", flavors: []string{}},
			},
		},
		{
			name: "launcher from a dependency's manifest, buildTypes inside defaultConfig, nested template quotes", dir: "testdata/merged",
			modules: []want{{path: ":app", appID: "io.example.merged", namespace: "io.example.merged", suffix: ".dev",
				launcher: "io.example.common.LaunchActivity", via: "com.android.application", flavors: []string{}}},
		},
		{
			name: "groovy: apply plugin, apply from, final def constant, flavors with isDefault, activity-alias, manifest package", dir: "testdata/groovy",
			modules: []want{{path: ":app", appID: "org.example.groovy", namespace: "org.example.groovy.legacy", suffix: ".dbg",
				launcher: "org.example.groovy.legacy.MainActivity", alias: "org.example.groovy.legacy.Launcher",
				versionName: "4.2", minSdk: 21, via: "com.android.application", flavors: []string{"paid", "free", "google", "amazon"}}},
		},
		{
			name: "computed suffix, projectDir override, include without colon, second filter", dir: "testdata/dynamic",
			modules: []want{{path: ":mobile", appID: "io.example.dyn", namespace: "io.example.dyn", unresolved: true,
				launcher: "io.example.dyn.ui.StartActivity", via: "com.android.application", flavors: []string{}}},
			warnings: []string{"debug applicationIdSuffix is computed"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Load(c.dir)
			if err != nil {
				t.Fatal(err)
			}
			var gotMods []want
			for _, m := range p.Modules {
				gotMods = append(gotMods, got(m))
			}
			if !reflect.DeepEqual(gotMods, c.modules) {
				t.Errorf("modules:\n got %+v\nwant %+v", gotMods, c.modules)
			}
			if len(p.Warnings) != len(c.warnings) {
				t.Fatalf("warnings = %q, want %d matching %q", p.Warnings, len(c.warnings), c.warnings)
			}
			for i, w := range c.warnings {
				if !strings.Contains(p.Warnings[i], w) {
					t.Errorf("warning %d = %q, want it to mention %q", i, p.Warnings[i], w)
				}
			}
		})
	}
}

func TestLoadNoApplicationModule(t *testing.T) {
	_, err := Load("testdata/noapp")
	if !errors.Is(err, ErrNoAppModule) {
		t.Fatalf("err = %v, want ErrNoAppModule", err)
	}
	for _, part := range []string{"com.android.application", "settings.gradle.kts includes 1 module(s): :lib", "testdata/noapp"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error %q does not say %q", err, part)
		}
	}
	if _, err := Load("testdata/missing"); err == nil || errors.Is(err, ErrNoAppModule) {
		t.Errorf("a missing directory gives %v, want a plain not-found error", err)
	}
}

func TestVariant(t *testing.T) {
	p, err := Load("testdata/groovy")
	if err != nil {
		t.Fatal(err)
	}
	m := &p.Modules[0]
	cases := []struct {
		in, name, appID, task, dir string
		note                       bool
	}{
		{"debug", "paidAmazonDebug", "org.example.groovy.dbg", ":app:assemblePaidAmazonDebug", "app/build/outputs/apk/paidAmazon/debug", true},
		{"freeGoogleDebug", "freeGoogleDebug", "org.example.groovy.free.dbg", ":app:assembleFreeGoogleDebug", "app/build/outputs/apk/freeGoogle/debug", false},
		{"paidGoogleRelease", "paidGoogleRelease", "org.example.groovy", ":app:assemblePaidGoogleRelease", "app/build/outputs/apk/paidGoogle/release", false},
	}
	for _, c := range cases {
		v, note, err := m.Variant(c.in)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(p.Dir, m.OutputDir(v))
		if v.Name != c.name || v.ApplicationID != c.appID || m.Task(v) != c.task || filepath.ToSlash(rel) != c.dir || (note != "") != c.note {
			t.Errorf("Variant(%q) = %s %s %s %s note %q; want %s %s %s %s note=%v", c.in, v.Name, v.ApplicationID, m.Task(v), rel, note,
				c.name, c.appID, c.task, c.dir, c.note)
		}
	}
	trail, err := Load("../../examples/trailhead")
	if err != nil {
		t.Fatal(err)
	}
	if trail.Modules[0].Label != "Trailhead" {
		t.Errorf("label = %q, want Trailhead (from @string/app_name)", trail.Modules[0].Label)
	}
	v, note, _ := trail.Modules[0].Variant("")
	if v.Name != "debug" || trail.Modules[0].Task(v) != ":app:assembleDebug" || v.ApplicationID != "com.fixthis.demo" || note != "" {
		t.Errorf("trailhead default variant = %+v note %q", v, note)
	}
}

func TestInstalledPackage(t *testing.T) {
	list := ParsePackageList("package:com.android.shell\r\npackage:io.example.dyn.debug.feature\npackage:io.example.dyn.debug\npackage:io.example.dynamo\n")
	dyn := &Module{ApplicationID: "io.example.dyn"}
	if got := InstalledPackage(list, dyn, Variant{ApplicationID: "io.example.dyn", SuffixUnresolved: true}); got != "io.example.dyn.debug" {
		t.Errorf("computed suffix resolves to %q, want io.example.dyn.debug (shortest; io.example.dynamo is another app)", got)
	}
	static := &Module{ApplicationID: "io.example.dyn", DebugApplicationIDSuffix: ".dbg"}
	if got := InstalledPackage(list, static, Variant{ApplicationID: "io.example.dyn.dbg"}); got != "" {
		t.Errorf("a static suffix only accepts its own id, got %q", got)
	}
}

func TestScriptReading(t *testing.T) {
	src := stripComments("url = \"https://x//y\" // comment\n/* block\n*/ versionName = \"1\"\n")
	if !strings.Contains(src, "https://x//y") || strings.Contains(src, "comment") || strings.Contains(src, "block") {
		t.Errorf("stripComments = %q", src)
	}
	body := "versionNameSuffix = \"-x\"\nversionName \"2\"\nnested { versionName = \"3\" }\n"
	vs := assignments(body, "versionName")
	if len(vs) != 1 || vs[0].raw != `"2"` {
		t.Errorf("assignments = %+v, want the one top-level Groovy assignment", vs)
	}
	if _, ok := (value{raw: `"a$b"`}).literal(); ok {
		t.Error("a string template is not a literal")
	}
	if got := assignments(`minSdkVersion(21)`, "minSdkVersion"); len(got) != 1 || got[0].raw != "21" {
		t.Errorf("call form = %+v", got)
	}
}

// TestRealProjects runs the model over real open-source apps when
// FIXTHIS_REAL_PROJECTS names a directory of checkouts (one per subdirectory). Each
// must load with at least one module that has an applicationId and a launcher.
func TestRealProjects(t *testing.T) {
	root := os.Getenv("FIXTHIS_REAL_PROJECTS")
	if root == "" {
		t.Skip("FIXTHIS_REAL_PROJECTS is not set; set it to a directory of Android project checkouts to try the model on them")
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if st, err := os.Stat(filepath.Join(root, e.Name())); err != nil || !st.IsDir() {
			continue // symlinked checkouts count too
		}
		t.Run(e.Name(), func(t *testing.T) {
			p, err := Load(filepath.Join(root, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range p.Modules {
				t.Logf("%s: %s (ns %s) launcher %s suffix %q unresolved=%v flavors %v version %s minSdk %d via %s",
					m.Path, m.ApplicationID, m.Namespace, m.LauncherActivity, m.DebugApplicationIDSuffix, m.DebugSuffixUnresolved,
					m.Flavors, m.VersionName, m.MinSdk, m.AppliedVia)
				if m.ApplicationID == "" || m.LauncherActivity == "" {
					t.Errorf("%s: applicationId %q, launcher %q", m.Path, m.ApplicationID, m.LauncherActivity)
				}
			}
			for _, w := range p.Warnings {
				t.Logf("warning: %s", w)
			}
		})
	}
}
