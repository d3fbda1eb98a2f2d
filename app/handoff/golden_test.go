package handoff

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"fixthis/app/source"
	"fixthis/internal/golden"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

const (
	screenHome  = "3f2a9c1e-7b44-4d1a-9e0f-1c2d3e4f5a6b"
	screenLogin = "9b8c7d6e-5f40-4a3b-8c2d-1e0f9a8b7c6d"
	uiRoot      = "app/src/main/java/com/example/shop/ui/"
)

func cand(file string, line int, conf string, score, margin float64, owner string, matched ...string) source.Candidate {
	return source.Candidate{File: file, Line: line, Confidence: conf, Score: score, Margin: margin, Owner: owner, Matched: matched}
}

// fromIndex is c as found by the index ix (the prompt prints it as index=).
func fromIndex(c source.Candidate, ix source.IndexSource) source.Candidate {
	c.Index = ix
	return c
}

// fullSession exercises every optional line of the grammar.
func fullSession() Session {
	buy := cand(uiRoot+"home/ProductCard.kt", 42, "high", 1.45, 0.6, "ProductCard", "text", "tag", "role", "nearbyText", "activity")
	buy.Caution = "SHARED_COMPONENT: ProductCard is used at 3 call sites; a change inside it changes all of them"
	buy.CallSites = []string{uiRoot + "home/HomeScreen.kt:30", uiRoot + "home/HomeScreen.kt:55", uiRoot + "search/SearchScreen.kt:71"}
	row := cand(uiRoot+"home/ProductList.kt", 88, "high", 1.2, 0.5, "ProductRow", "tag")
	stale := cand(uiRoot+"login/LoginScreen.kt", 17, "medium", 0.95, 0.3, "LoginScreen", "resolvedStringRes")
	stale.Stale = true
	return Session{
		ID: "sess-2f6c", Package: "com.example.shop",
		Build: &Build{Package: "com.example.shop.debug", VersionName: "3.1.0-dev", VersionCode: 310,
			Installed: time.Date(2026, 12, 1, 8, 29, 7, 0, time.FixedZone("+0100", 3600)), GitHead: "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d", GitDirty: true},
		Screens: []Screen{
			{ID: screenHome, DisplayName: "Home", ScreenshotPath: ".fixthis/artifacts/ab/abcdef.png", Width: 1080, Height: 2400, Activity: "com.example.shop/.MainActivity"},
			{ID: screenLogin, DisplayName: "LoginActivity", Activity: "LoginActivity"},
		},
		Items: []Item{
			{ID: "item-1", ScreenID: screenHome, Sequence: 1, Severity: SeverityHigh, Comment: "Make the Buy button\nmore prominent",
				Target:   Target{Kind: TargetNode, Box: Box{40, 900, 520, 1010}, Role: "Button", Tag: "buy_button", Text: "Buy now", Path: "0/3/1"},
				CropPath: ".fixthis/artifacts/cd/crop1.png",
				Said:     "uh, make this \"Buy\" button\nway more prominent, like really pop",
				Candidates: []source.Candidate{fromIndex(buy, source.FromBoth), fromIndex(cand(uiRoot+"home/HomeScreen.kt", 30, "medium", 0.85, 0.2, "HomeScreen", "text"), source.FromProject),
					fromIndex(cand(uiRoot+"search/SearchScreen.kt", 71, "low", 0.55, 0.55, "", "literal"), source.FromApp), cand("app/src/test/X.kt", 1, "low", 0.1, 0, "", "literal")},
				EditSurfaces: []source.EditSurface{
					{Kind: "size", Role: source.RoleDefinition, File: uiRoot + "home/ProductCard.kt", Line: 12, Confidence: "low", Why: []string{"comment:size", "owner", "shared-component"}, Basis: `comment mentions "prominent"`, Action: "editing ProductCard changes every place that uses it; check its other call sites first"},
					{Kind: "size", Role: source.RoleCallSite, File: uiRoot + "home/ProductCard.kt", Line: 42, Confidence: "medium", Why: []string{"comment:size", "call-site"}},
					{Kind: "size", Role: source.RoleLayoutStyle, File: uiRoot + "x.kt", Confidence: "low", Why: []string{"third"}},
				},
				TargetConfidence: "high",
				RuntimeEvidence: []RuntimeEvidence{
					{Type: "logcat", ArtifactPath: ".fixthis/runtime-evidence/sess-2f6c/c1/logcat.txt", Summary: "2 warnings, 0 errors in the last 30 s"},
					{Type: "memory", Summary: "PSS 182 MB"},
				}},
			{ID: "item-2", ScreenID: screenHome, Sequence: 2, Severity: SeverityMed, Comment: "This banner area looks cramped",
				Target: Target{Kind: TargetArea, Box: Box{0, 200, 1080, 600}},
				Clip: &Clip{Path: ".fixthis/artifacts/9e/9e4f.mp4", DurationMs: 5000, Frames: 212, Width: 720, Height: 1600,
					FrameStripPath: ".fixthis/artifacts/5a/5a1b.png", Stalls: 1, LongestStallMs: 420,
					Timeline: "0.0s–1.2s moving (72 pictures) · held 1.2s for 420ms · 1.6s–4.1s moving (140 pictures) · still from 4.1s to the end"},
				Candidates:   []source.Candidate{cand(uiRoot+"home/Banner.kt", 20, "medium", 0.4, 0.4, "Banner", "nearbyText")},
				EditSurfaces: []source.EditSurface{{Kind: "spacing", Role: source.RoleVisualArea, File: uiRoot + "home/Banner.kt", Line: 20, Confidence: "low", Why: []string{"target:area"}}}},
			{ID: "item-3", ScreenID: screenHome, Sequence: 3, Severity: SeverityLow, Comment: "and the title inside it",
				Target: Target{Kind: TargetArea, Box: Box{100, 250, 900, 400}}},
			{ID: "item-4", ScreenID: screenHome, Sequence: 4, Severity: SeverityLow, Comment: "Row price is cut off",
				Target:     Target{Kind: TargetNode, Box: Box{0, 1200, 1080, 1320}, Tag: "product_row", Text: "Blue mug", Path: "0/5/2"},
				Candidates: []source.Candidate{row}, TargetConfidence: "medium", Check: "bounds",
				Sizes: []SizeResult{{Name: "phone", WidthDp: 411, HeightDp: 891, Found: true, ScreenshotPath: ".fixthis/artifacts/71/71aa.png"},
					{Name: "foldable", WidthDp: 673, HeightDp: 841, Found: true, Clipped: true, CutOff: true, Overlapped: true},
					{Name: "tablet", WidthDp: 1280, HeightDp: 800}, {Name: "custom 2000x2000", WidthDp: 2000, HeightDp: 2000, Failed: true}}},
			{ID: "item-5", ScreenID: screenHome, Sequence: 5, Severity: SeverityLow, Comment: "Same here",
				Target:     Target{Kind: TargetNode, Box: Box{0, 1320, 1080, 1440}, Tag: "product_row", Text: "Red cup", Path: "0/5/10"},
				Candidates: []source.Candidate{row}},
			{ID: "item-6", ScreenID: screenHome, Sequence: 6, Severity: SeverityLow, Comment: "Row price is cut off (again)",
				Target:     Target{Kind: TargetNode, Box: Box{0, 1200, 1080, 1320}, Tag: "product_row", Text: "Blue mug", Path: "0/5/2"},
				Candidates: []source.Candidate{row}},
			{ID: "item-7", ScreenID: screenLogin, Sequence: 7, Severity: SeverityHigh, Comment: "Password field should show a hint",
				Target: Target{Kind: TargetNode, Box: Box{60, 700, 1020, 820}, Role: "TextField", Text: "hunter2", Password: true, Editable: true, Class: "android.widget.EditText"}},
			{ID: "item-8", ScreenID: screenLogin, Sequence: 8, Severity: SeverityMed, Comment: "The whole screen feels slow",
				Target:          Target{Kind: TargetScreen, Box: Box{0, 0, 1080, 2400}},
				RuntimeEvidence: []RuntimeEvidence{{Type: "frame", Summary: "p90 frame 34 ms"}, {Type: "logcat", Summary: "x"}, {Type: "memory", Summary: "y"}, {Type: "extra", Summary: "dropped: only three are rendered"}}},
			{ID: "item-9", ScreenID: screenLogin, Sequence: 9, Severity: SeverityLow, Comment: "Terms text is outdated",
				Target:             Target{Kind: TargetNode, Box: Box{60, 2000, 1020, 2100}, ContentDescription: "Terms \"v2\"", Class: "android.webkit.WebView", Role: "Web View"},
				Candidates:         []source.Candidate{stale, cand(uiRoot+"login/Terms.kt", 5, "low", 0.3, 0.3, "", "literal")},
				Warnings:           []string{"custom capture warning\nwith a line break"},
				ForcedMismatch:     true,
				MissingFingerprint: true,
				TargetConfidence:   "low"},
		},
	}
}

// minimalSession has no optional line at all.
func minimalSession() Session {
	return Session{
		ID: "sess-min", Package: "com.example.min",
		Screens: []Screen{{ID: "0a1b2c3d4e5f", DisplayName: "Main"}},
		Items: []Item{{ID: "item-a", ScreenID: "0a1b2c3d4e5f", Sequence: 1, Severity: SeverityMed, Comment: "Rename to Save",
			Target:     Target{Kind: TargetNode, Box: Box{1, 2, 3, 4}, Text: "Store"},
			Candidates: []source.Candidate{cand("app/src/main/Main.kt", 9, "high", 1.0, 1.0, "", "text")}}},
	}
}

// screensSession has the screens real phones show besides one portrait app window:
// landscape, a dialog, the keyboard and a FLAG_SECURE screen.
func screensSession() Session {
	kb := Box{0, 1644, 1080, 2400}
	return Session{
		ID: "sess-scr", Package: "com.fixthis.demo",
		Screens: []Screen{
			{ID: "11111111-land", DisplayName: "Trails", ScreenshotPath: ".fixthis/artifacts/11/land.png", Width: 2400, Height: 1080, Rotation: 1, Activity: "com.fixthis.demo/.MainActivity",
				Serial: "emulator-5556", Display: "night, fontScale=1.3, locale=ar, density=360"},
			{ID: "22222222-dlg", DisplayName: "Delete trail?", ScreenshotPath: ".fixthis/artifacts/22/dlg.png", Width: 1080, Height: 2400, Activity: "com.fixthis.demo/.MainActivity", Dialog: "com.fixthis.demo/com.fixthis.demo.MainActivity",
				Serial: "emulator\x005556"},
			{ID: "33333333-kb", DisplayName: "New trail", ScreenshotPath: ".fixthis/artifacts/33/kb.png", Width: 1080, Height: 2400, Activity: "com.fixthis.demo/.MainActivity", Keyboard: &kb},
			{ID: "44444444-sec", DisplayName: "Sign in", ScreenshotPath: ".fixthis/artifacts/44/sec.png", Width: 1080, Height: 2400, Activity: "com.fixthis.demo/.MainActivity", Secure: true},
		},
		Items: []Item{
			{ID: "item-l", ScreenID: "11111111-land", Sequence: 1, Severity: SeverityMed, Comment: "Cards should use two columns in landscape",
				Target:     Target{Kind: TargetNode, Box: Box{30, 420, 2370, 640}, Tag: "trail_card_0", Text: "Eagle Ridge Loop"},
				Candidates: []source.Candidate{cand("app/src/main/java/com/fixthis/demo/TrailList.kt", 40, "high", 1.2, 0.6, "TrailCard", "tag")}},
			{ID: "item-d", ScreenID: "22222222-dlg", Sequence: 2, Severity: SeverityHigh, Comment: "Make Delete red",
				Target:     Target{Kind: TargetNode, Box: Box{700, 1400, 920, 1500}, Role: "Button", Text: "Delete"},
				Candidates: []source.Candidate{cand("app/src/main/java/com/fixthis/demo/DeleteDialog.kt", 22, "high", 1.1, 0.5, "DeleteDialog", "text")}},
			{ID: "item-k1", ScreenID: "33333333-kb", Sequence: 3, Severity: SeverityLow, Comment: "The switch label is too long",
				Target:     Target{Kind: TargetNode, Box: Box{42, 1900, 1038, 2010}, Tag: "share_switch", Role: "Switch"},
				Candidates: []source.Candidate{cand("app/src/main/java/com/fixthis/demo/NewTrail.kt", 61, "high", 1.2, 0.6, "NewTrail", "tag")}},
			{ID: "item-k2", ScreenID: "33333333-kb", Sequence: 4, Severity: SeverityLow, Comment: "Name field needs a hint",
				Target:     Target{Kind: TargetNode, Box: Box{42, 300, 1038, 450}, Tag: "trail_name_field", Role: "TextField", Editable: true},
				Candidates: []source.Candidate{cand("app/src/main/java/com/fixthis/demo/NewTrail.kt", 30, "high", 1.2, 0.6, "NewTrail", "tag")}},
			{ID: "item-s", ScreenID: "44444444-sec", Sequence: 5, Severity: SeverityMed, Comment: "Sign in button is too low",
				Target:     Target{Kind: TargetNode, Box: Box{42, 1000, 1038, 1120}, Tag: "signin_button", Role: "Button", Text: "Sign in"},
				Candidates: []source.Candidate{cand("app/src/main/java/com/fixthis/demo/SignIn.kt", 50, "high", 1.2, 0.6, "SignIn", "tag")}},
		},
	}
}

func TestGolden(t *testing.T) {
	full := fullSession()
	noProject := minimalSession()
	noProject.Items[0].Candidates = nil
	tests := []struct {
		name string
		got  func() (string, error)
	}{
		{"full", func() (string, error) {
			return Render(full, Options{Attempt: &EvidenceAttempt{Attempted: true, Status: "partial", Failure: "device-timeout", Reason: "skipped", Warnings: []string{"logcat truncated", "memory unavailable"}}}), nil
		}},
		{"minimal", func() (string, error) { return Render(minimalSession(), Options{}), nil }},
		{"no_project", func() (string, error) { return Render(noProject, Options{NoSource: source.NoSources}), nil }},
		{"subset", func() (string, error) { return Render(full, Options{ItemIDs: []string{"item-5", "item-4"}}), nil }},
		{"screens", func() (string, error) { return Render(screensSession(), Options{}), nil }},
		{"export_json", func() (string, error) { b, err := ExportJSON(full); return string(b) + "\n", err }},
		{"export_markdown", func() (string, error) { return ExportMarkdown(full), nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.got()
			if err != nil {
				t.Fatal(err)
			}
			compareGolden(t, tt.name, got)
			if !strings.HasPrefix(tt.name, "export") {
				if _, err := checkPrompt(got); err != nil {
					t.Errorf("golden render breaks the grammar: %v", err)
				}
			}
		})
	}
}

// compareGolden checks a rendered handoff against testdata/<name>.golden.
func compareGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.File(t, filepath.Join("testdata", name+".golden"), []byte(got), *update, golden.UpdateFlag)
}

// TestGoldenCoverage keeps the golden files honest: every optional line of
// the grammar appears in at least one of them, and the minimal one has none.
func TestGoldenCoverage(t *testing.T) {
	var all strings.Builder
	for _, name := range []string{"full", "minimal", "no_project", "subset", "screens"} {
		b, err := os.ReadFile(filepath.Join("testdata", name+".golden"))
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
	}
	optional := map[string]string{
		"source root":            "(?m)^- Source root: `",
		"handoff quality":        "(?m)^Handoff quality: ",
		"screenshot":             "(?m)^screenshot: ",
		"viewport":               "(?m)^viewport: 1080×2400$",
		"activity":               "(?m)^activity: ",
		"phone":                  "(?m)^phone: emulator-5556$",
		"orientation":            "(?m)^orientation: landscape  rotation=1$",
		"dialog window":          `(?m)^window: dialog "com.fixthis.demo/com.fixthis.demo.MainActivity" `,
		"keyboard":               `(?m)^keyboard: shown  box=\(0,1644\)-\(1080,2400\)$`,
		"secure screenshot":      "(?m)^screenshot: unavailable \\(FLAG_SECURE: ",
		"display conditions":     "(?m)^display: night, fontScale=1.3, locale=ar, density=360$",
		"under-keyboard warning": "(?m)^  warning: under-keyboard: ",
		"overlap group":          "(?m)^Overlap group 1 ",
		"severity prefix":        `(?m)^\[1\] \[!\] `,
		"role on target line":    "(?m)^  role=Button  tag=buy_button  box=",
		"instance":               "(?m)  instance 1/2$",
		"overlap risk":           "(?m); targetRisk=overlap$",
		"duplicate risk":         "(?m); targetRisk=duplicate-of-marker-4$",
		"crop":                   "(?m)^crop: ",
		"check":                  "(?m)^  check: bounds$",
		"sizes":                  "(?m)^  sizes: phone 411x891dp found; foldable 673x841dp found clipped cut-off overlapped; tablet 1280x800dp not found; custom-2000x2000 2000x2000dp not shown$",
		"said":                   `(?m)^  said: "uh, make this \\"Buy\\" button way`,
		"edit surface":           "(?m)^  editSurface: .*  basis=",
		"edit surface action":    "(?m)^  action: ",
		"runner-up candidate":    `(?m)^  \S+:\d+  conf=\w+$`,
		"owner":                  "(?m)  owner=ProductCard  ",
		"unknown source":         "(?m)^  unknown  conf=none  reason=no-match$",
		"no project":             "(?m)reason=no-project-dir$",
		"caution note":           "(?m)^  note: SHARED_COMPONENT",
		"collision note":         "(?m)^  note: 2 markers map to same call site",
		"target confidence":      "(?m)^  targetConfidence=",
		"target action":          "(?m)^  targetAction=",
		"warning":                "(?m)^  warning: ",
		"redacted summary":       "(?m)^  target: redacted sensitive target$",
		"visual area summary":    "(?m)^  target: visual area$",
		"runtime evidence":       "(?m)^    - logcat -> ",
		"no-artifact evidence":   "(?m)^    - memory -> no-artifact$",
		"runtime attempt":        "(?m)^runtimeEvidenceAttempt:$",
		"attempt failure/reason": "(?m)^  failure=device-timeout\n  reason=skipped$",
		"verify source-first":    "(?m)^  verify: source-first ",
		"verify corroborate":     "(?m)^  verify: corroborate ",
		"verify hint-only":       "(?m)^  verify: hint-only ",
		"verify manual":          "(?m)^  verify: manual ",
	}
	for name, rx := range optional {
		if !regexp.MustCompile(rx).MatchString(all.String()) {
			t.Errorf("no golden covers %s (%s)", name, rx)
		}
	}
	min, _ := os.ReadFile(filepath.Join("testdata", "minimal.golden"))
	for _, rx := range []string{"said:", "check:", "sizes:", "Source root", "Handoff quality", "screenshot:", "viewport:", "activity:", "orientation:", "window:", "keyboard:", "Overlap", "crop:", "editSurface", "note:", "warning:", "targetConfidence", "runtimeEvidence"} {
		if strings.Contains(string(min), rx) {
			t.Errorf("minimal golden unexpectedly has %q", rx)
		}
	}
}
