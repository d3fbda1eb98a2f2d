package handoff

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"fixthis/app/source"
	"fixthis/app/store"
	"fixthis/capture"
)

// savedSession stores a screen with a UI tree and three items: a labelled node, a
// password field and an area, the way the console's batch save does.
func savedSession(t *testing.T) (*store.Store, string) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, t.TempDir(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	sess, err := st.CreateSession(ctx, "prompt test")
	if err != nil {
		t.Fatal(err)
	}
	nodes := []capture.Node{
		{UID: "n0", IndexPath: "0", Class: "android.view.View", Bounds: capture.Bounds{Right: 1080, Bottom: 2400}},
		{UID: "n0.0", ParentUID: "n0", IndexPath: "0.0", Class: "android.widget.TextView", Text: "Welcome back", Role: "Text", Bounds: capture.Bounds{Left: 40, Top: 200, Right: 600, Bottom: 260}},
		{UID: "n0.1", ParentUID: "n0", IndexPath: "0.1", Class: "android.widget.EditText", Password: true, Editable: true, Redacted: true, Role: "TextField", Bounds: capture.Bounds{Left: 40, Top: 300, Right: 1040, Bottom: 420}},
	}
	nodesJSON, _ := json.Marshal(nodes)
	png := []byte("\x89PNG\r\n\x1a\nnot-a-real-png-but-bytes")
	_, err = st.SaveBatch(ctx, store.SaveBatchInput{
		SessionID: sess.SessionID, FrozenID: "f1", WorkspaceID: "ws",
		Screen: store.ScreenInput{Fingerprint: "eec797ab562a01e2:48795120882fad21", Package: "com.example.demo", Activity: "com.example.demo.MainActivity", Width: 1080, Height: 2400, ImagePNG: png, NodesJSON: nodesJSON},
		Items: []store.BatchItem{
			{DraftItemID: "d1", Severity: "high", Comment: "Make the greeting warmer", Target: store.Target{Type: "node", NodeUID: "n0.0", Bounds: &store.Bounds{Left: 40, Top: 200, Right: 600, Bottom: 260}, Snapshot: &store.NodeSnapshot{Class: "android.widget.TextView", Text: "Welcome back", Role: "Text"}}},
			{DraftItemID: "d2", Severity: "med", Comment: "Show the password rules", Target: store.Target{Type: "node", NodeUID: "n0.1", Bounds: &store.Bounds{Left: 40, Top: 300, Right: 1040, Bottom: 420}, Snapshot: &store.NodeSnapshot{Class: "android.widget.EditText", Role: "TextField"}}},
			{DraftItemID: "d3", Severity: "low", Comment: "Too much empty space here", Target: store.Target{Type: "area", Bounds: &store.Bounds{Left: 0, Top: 1200, Right: 1080, Bottom: 1800}}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return st, sess.SessionID
}

// indexedBuilder is a Builder over savedSession's store with the test project's
// source index ready, the session's id, and the session it converted.
func indexedBuilder(t *testing.T) (*Builder, string, Session) {
	t.Helper()
	st, id := savedSession(t)
	idx, err := source.Build(context.Background(), "../source/testdata/project")
	if err != nil {
		t.Fatal(err)
	}
	b := &Builder{Store: st, Index: func() (*source.Index, source.Readiness) { return idx, source.Ready }}
	hs, _, err := b.Session(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return b, id, hs
}

// firstItemID is the id of the first item savedSession stored.
func firstItemID(t *testing.T, st *store.Store, sessionID string) string {
	t.Helper()
	sess, err := st.GetSession(context.Background(), sessionID)
	if err != nil {
		t.Fatal(err)
	}
	return sess.Items[0].ItemID
}

func TestBuilderJoinsEvidenceTreeAndSources(t *testing.T) {
	b, id, hs := indexedBuilder(t)
	if hs.Package != "com.example.demo" || len(hs.Screens) != 1 || hs.Screens[0].DisplayName != "MainActivity" {
		t.Fatalf("session header: %+v", hs)
	}
	if !strings.HasSuffix(hs.Screens[0].ScreenshotPath, ".png") || !strings.Contains(hs.Screens[0].ScreenshotPath, ".fixthis") {
		t.Fatalf("screenshot path %q", hs.Screens[0].ScreenshotPath)
	}
	greeting, password, area := hs.Items[0], hs.Items[1], hs.Items[2]
	if len(greeting.Candidates) == 0 || !strings.HasSuffix(greeting.Candidates[0].File, "HomeScreen.kt") {
		t.Fatalf("greeting candidates: %+v", greeting.Candidates)
	}
	if !password.Target.Password || !password.Target.Sensitive || password.Target.Path != "0.1" {
		t.Fatalf("password target lost its flags from the saved tree: %+v", password.Target)
	}
	if area.Target.Kind != "area" || len(area.Candidates) == 0 {
		t.Fatalf("area item: %+v", area)
	}

	md, err := b.Markdown(context.Background(), id, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# FixThis Feedback Handoff", "Screen ", "[1] [!] Make the greeting warmer", "HomeScreen.kt:", "redacted sensitive target", "target: visual area", "session_id: " + id} {
		if !strings.Contains(md, want) {
			t.Errorf("prompt lacks %q:\n%s", want, md)
		}
	}
}

func TestBuilderWithoutIndexSaysWhy(t *testing.T) {
	st, id := savedSession(t)
	b := &Builder{Store: st, Index: func() (*source.Index, source.Readiness) { return nil, source.Building }}
	md, err := b.Markdown(context.Background(), id, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md, "reason=index-building") {
		t.Fatalf("no-source reason missing:\n%s", md)
	}
	if _, err := b.Markdown(context.Background(), "no-such-session", nil); err == nil {
		t.Fatal("unknown session rendered")
	}
}

func TestBuilderItemMatchesOneItem(t *testing.T) {
	b, id, hs := indexedBuilder(t)
	one, err := b.Item(context.Background(), id, hs.Items[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if one.ID != hs.Items[0].ID || len(one.Candidates) == 0 || one.Candidates[0].File != hs.Items[0].Candidates[0].File {
		t.Fatalf("Item differs from the session conversion: %+v vs %+v", one, hs.Items[0])
	}
	if _, err := b.Item(context.Background(), id, "nope"); err == nil {
		t.Fatal("unknown item converted")
	}
}

// A fix the user reopened reaches the agent again with the user's note and what the
// agent's after-capture showed; the export carries the whole verification.
func TestReopenedFixCarriesVerification(t *testing.T) {
	ctx := context.Background()
	st, id := savedSession(t)
	item := firstItemID(t, st, id)
	if _, err := st.ReleaseToAgent(ctx, id, nil); err != nil {
		t.Fatal(err)
	}
	c, err := st.SaveCapture(ctx, store.CaptureInput{Serial: "emu", PNG: []byte("after"), Width: 1080, Height: 2400})
	if err != nil {
		t.Fatal(err)
	}
	v := &store.Verification{CaptureID: c.CaptureID, Summary: "the item's region changed 40%"}
	agent := store.WithAgent(ctx, "agent-1")
	if _, err := st.Claim(agent, id, item, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Resolve(agent, store.ResolveInput{SessionID: id, ItemID: item, Status: store.StatusResolved, Summary: "warmer", Verification: v}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Reopen(ctx, id, item, "Still says Welcome back"); err != nil {
		t.Fatal(err)
	}
	b := &Builder{Store: st, Index: func() (*source.Index, source.Readiness) { return nil, source.NoSources }}
	md, err := b.Markdown(ctx, id, []string{item})
	if err != nil {
		t.Fatal(err)
	}
	want := `  warning: reopened by the user after your fix: "Still says Welcome back"; your after-capture showed: the item's region changed 40%`
	if !strings.Contains(md, want) {
		t.Fatalf("prompt lacks %q:\n%s", want, md)
	}
	export, err := b.ExportMarkdown(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"What changed", "the item's region changed 40%", "reopened Still says Welcome back", "After screenshot"} {
		if !strings.Contains(export, w) {
			t.Errorf("export lacks %q", w)
		}
	}
}

// A stored size check reaches the prompt as the item's sizes: line, with the
// screenshot of each size as a file path in the export.
func TestBuilderCarriesTheSizeCheck(t *testing.T) {
	st, id := savedSession(t)
	ctx := context.Background()
	item := firstItemID(t, st, id)
	png := []byte("\x89PNG\r\n\x1a\nsize-picture")
	_, err := st.SaveSizeCheck(ctx, store.SizeCheckInput{ItemID: item, Serial: "emulator-5554", Restored: true, Sizes: []store.SizeOutcomeInput{
		{SizeOutcome: store.SizeOutcome{Name: "phone", Width: 1080, Height: 2340, Density: 420, WidthDp: 411, HeightDp: 891, Found: true,
			Bounds: &store.Bounds{Left: 40, Top: 200, Right: 600, Bottom: 260}}, PNG: png},
		{SizeOutcome: store.SizeOutcome{Name: "tablet", Width: 2560, Height: 1600, Density: 320, WidthDp: 1280, HeightDp: 800}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	b := &Builder{Store: st}
	hs, _, err := b.Session(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	got := hs.Items[0].Sizes
	if len(got) != 2 || !strings.HasSuffix(got[0].ScreenshotPath, ".png") || got[1].ScreenshotPath != "" {
		t.Fatalf("sizes: %+v", got)
	}
	if out := Render(hs, Options{ItemIDs: []string{item}}); !strings.Contains(out, "\n  sizes: phone 411x891dp found; tablet 1280x800dp not found\n") {
		t.Fatalf("no sizes line in:\n%s", out)
	}
}
