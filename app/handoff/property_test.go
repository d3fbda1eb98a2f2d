package handoff

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"fixthis/app/source"
)

// randomSession builds a session from a seeded generator, mixing every kind
// of target, overlapping boxes, shared call sites, hostile text (line breaks,
// quotes, brackets, backticks) and optional fields.
func randomSession(r *rand.Rand) Session {
	pick := func(xs ...string) string { return xs[r.Intn(len(xs))] }
	weird := func() string {
		return pick("", "Save", "Line one\nline two", `quote "x" [y], z=1`, "tab\there", "`tick`", "  padded  ", "ünïcödé ✓", strings.Repeat("long ", 40))
	}
	s := Session{ID: fmt.Sprintf("sess-%d", r.Intn(1000)), Package: pick("com.example.app", "", "pkg with space")}
	nScreens := 1 + r.Intn(3)
	for i := 0; i < nScreens; i++ {
		sc := Screen{ID: fmt.Sprintf("%08x-aaaa-bbbb-cccc-%012x", r.Uint32(), i), DisplayName: pick("Home", "Detail", "", "Main\nActivity")}
		if r.Intn(2) == 0 {
			sc.ScreenshotPath = ".fixthis/artifacts/" + pick("a.png", "b c.png")
		}
		if r.Intn(2) == 0 {
			sc.Width, sc.Height = 1080, 2400
		}
		if r.Intn(4) == 0 {
			sc.Width, sc.Height, sc.Rotation = 2400, 1080, 1+2*r.Intn(2)
		}
		if r.Intn(4) == 0 {
			sc.Dialog = pick("com.example/com.example.MainActivity", "a \"quoted\"\ntitle")
		}
		if r.Intn(4) == 0 {
			sc.Keyboard = &Box{0, 1600, 1080, 2400}
		}
		if r.Intn(4) == 0 {
			sc.Display = pick("night", "fontScale=1.3", "night, fontScale=1.3, locale=ar, density=360", "locale=sr-Latn-RS, animationScale=0")
		}
		if r.Intn(3) == 0 {
			sc.Serial = pick("emulator-5554", "127.0.0.1:5555", "R58M 123", "nul\x00serial")
		}
		sc.Secure = r.Intn(5) == 0
		sc.Activity = pick("", sc.DisplayName, ".MainActivity")
		sc.Density = float64(r.Intn(4))
		s.Screens = append(s.Screens, sc)
	}
	files := []string{"app/src/main/java/com/x/ui/A.kt", "app/src/main/java/com/x/ui/B.kt", "lib/src/main/C.kt", "Short.kt"}
	tokens := []string{"text", "contentDescription", "tag", "compTag", "role", "resolvedStringRes", "nearbyText", "nearbyContentDescription", "nearbyTag", "nearbyRole", "activity", "stringRes", "literal"}
	nItems := 1 + r.Intn(9)
	for i := 0; i < nItems; i++ {
		x, y := r.Intn(5)*20, r.Intn(5)*20
		t := Target{Kind: pick(TargetNode, TargetNode, TargetArea, TargetScreen), Box: Box{x, y, x + 10 + r.Intn(200), y + 10 + r.Intn(200)},
			Role: pick("", "Button", "Text Field"), Tag: pick("", "row", "buy"), Text: weird(), ContentDescription: pick("", "Icon"),
			Class: pick("", "android.webkit.WebView", "android.view.View"), Path: pick("0/1", "0/2", "0/10"),
			Password: r.Intn(6) == 0, Sensitive: r.Intn(8) == 0, Interop: r.Intn(8) == 0}
		it := Item{ID: fmt.Sprintf("item-%d", i), ScreenID: s.Screens[r.Intn(nScreens)].ID, Sequence: i + 1 + r.Intn(2)*10,
			Severity: pick(SeverityHigh, SeverityMed, SeverityLow), Comment: weird(), Target: t,
			TargetConfidence: pick("", "", "high", "medium", "low", "unknown", "bogus"),
			ForcedMismatch:   r.Intn(6) == 0, MissingFingerprint: r.Intn(6) == 0}
		if r.Intn(3) == 0 {
			it.CropPath = ".fixthis/crops/" + fmt.Sprint(i) + ".png"
		}
		if r.Intn(4) == 0 {
			// An item added from an audit finding; sometimes an id no store keeps.
			it.Check = pick("touch_target", "text_contrast", "bad id\n", strings.Repeat("x", 60))
		}
		if r.Intn(3) == 0 {
			// An item made from speech: its excerpt, sometimes far over the bound.
			it.Said = weird()
			if r.Intn(2) == 0 {
				it.Said = strings.Repeat(weird()+` "said" \ `, 1+r.Intn(40))
			}
		}
		if r.Intn(3) == 0 {
			it.Clip = &Clip{Path: ".fixthis/artifacts/0" + fmt.Sprint(i) + ".mp4", DurationMs: int64(r.Intn(30000)), Frames: r.Intn(900),
				Width: 720, Height: 1600, FrameStripPath: pick("", ".fixthis/artifacts/strip.png"), Stalls: r.Intn(4),
				LongestStallMs: int64(r.Intn(900)), Timeline: pick("", weird(), "0.0s–1.2s moving (38 pictures) · held 1.2s for 420ms")}
		}
		for n := r.Intn(3) * r.Intn(6); n > 0; n-- {
			// A size check, sometimes with more sizes than the line names and
			// names no preset has.
			it.Sizes = append(it.Sizes, SizeResult{Name: pick("phone", "tablet", "custom 700x900", weird(), "", strings.Repeat("x", 60)),
				WidthDp: r.Intn(3000) - 10, HeightDp: r.Intn(3000), Found: r.Intn(2) == 0, Clipped: r.Intn(3) == 0,
				CutOff: r.Intn(3) == 0, Overlapped: r.Intn(3) == 0, Failed: r.Intn(5) == 0})
		}
		for n := r.Intn(5); n > 0; n-- {
			c := source.Candidate{File: files[r.Intn(len(files))], Line: 1 + r.Intn(3), Confidence: pick("high", "medium", "low", ""),
				Margin: float64(r.Intn(100)) / 100, Owner: pick("", "Card", "Row Item"), Stale: r.Intn(8) == 0, Caution: pick("", "", "SHARED\ncomponent")}
			for m := 1 + r.Intn(6); m > 0; m-- {
				c.Matched = append(c.Matched, tokens[r.Intn(len(tokens))])
			}
			it.Candidates = append(it.Candidates, c)
		}
		for n := r.Intn(4); n > 0; n-- {
			it.EditSurfaces = append(it.EditSurfaces, source.EditSurface{Kind: pick("copy", "size", ""), Role: pick("call-site", "visual-area", ""),
				File: pick("", files[0]), Line: r.Intn(3), Confidence: pick("low", "high", ""), Why: []string{pick("a", "b c", "")}, Basis: weird(), Action: weird()})
		}
		for n := r.Intn(3); n > 0; n-- {
			it.Warnings = append(it.Warnings, weird())
		}
		for n := r.Intn(5); n > 0; n-- {
			it.RuntimeEvidence = append(it.RuntimeEvidence, RuntimeEvidence{Type: pick("logcat", "frame", "memory", "odd type"), ArtifactPath: pick("", "a/b.txt"), Summary: weird()})
		}
		if r.Intn(2) == 0 {
			it.Network = &NetworkCalls{Total: r.Intn(3)}
			for n := r.Intn(6); n > 0; n-- {
				it.Network.Failed = append(it.Network.Failed, weird())
			}
			for n := r.Intn(3); n > 0; n-- {
				it.Network.Slow = append(it.Network.Slow, weird())
			}
		}
		s.Items = append(s.Items, it)
	}
	return s
}

func TestRenderAlwaysParses(t *testing.T) {
	r := rand.New(rand.NewSource(20260510))
	for n := 0; n < 500; n++ {
		s := randomSession(r)
		opts := Options{}
		if r.Intn(3) == 0 {
			opts.Attempt = &EvidenceAttempt{Attempted: r.Intn(2) == 0, Status: "failed", Failure: "no device", Reason: "off", Warnings: []string{"a", "b b", "", "c", "d", "e", "f", "g", "h", "i"}}
		}
		if r.Intn(4) == 0 {
			opts.NoSource = "index-building"
		}
		out := Render(s, opts)
		items, err := checkPrompt(out)
		if err != nil {
			t.Fatalf("case %d: %v\n%s", n, err, out)
		}
		if len(items) != len(s.Items) {
			t.Fatalf("case %d: parsed %d items, session has %d", n, len(items), len(s.Items))
		}
		byHeader := map[string]*Item{}
		for i := range s.Items {
			byHeader[fmt.Sprintf("[%d] ", s.Items[i].Sequence)] = &s.Items[i]
		}
		for _, p := range items {
			if p.overlap != p.inGroup {
				t.Fatalf("case %d: %q overlap risk %v but inside a group %v\n%s", n, p.header, p.overlap, p.inGroup, out)
			}
			if p.verify != VerifySourceFirst {
				continue
			}
			var it *Item
			for h, x := range byHeader {
				if strings.HasPrefix(p.header, h) {
					it = x
				}
			}
			if it == nil {
				t.Fatalf("case %d: no item for %q", n, p.header)
			}
			if it.Target.Kind != TargetNode || staleSource(it) || it.ForcedMismatch || redacted(it.Target) || interop(it) || p.overlap {
				t.Fatalf("case %d: %q rendered verify: source-first despite a blocker\n%s", n, p.header, out)
			}
		}
		if _, err := ExportJSON(s); err != nil {
			t.Fatalf("case %d: export: %v", n, err)
		}
	}
}
