package store

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"testing"
	"time"
)

// openTest opens the store in dir, polling fast so that tests of what other
// handles see need not wait long.
func openTest(t testing.TB, dir string) *Store {
	t.Helper()
	return openWith(t, dir, Options{PollInterval: 20 * time.Millisecond})
}

// openWith opens the store in dir with opts and closes it when the test ends.
func openWith(t testing.TB, dir string, opts Options) *Store {
	t.Helper()
	s, err := Open(context.Background(), dir, opts)
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func newTestStore(t testing.TB) *Store {
	t.Helper()
	return openTest(t, t.TempDir())
}

// reopen closes s and opens its project again, as a restart does. downgrade,
// when not empty, first takes the database back to an older schema, so that
// the reopen runs the migrations since.
func reopen(t testing.TB, s *Store, downgrade string) *Store {
	t.Helper()
	if downgrade != "" {
		if _, err := s.wdb.Exec(downgrade); err != nil {
			t.Fatalf("downgrade: %v", err)
		}
	}
	s.Close()
	return openTest(t, s.Locations().Project)
}

func mustSession(t testing.TB, s *Store) *Session {
	t.Helper()
	sess, err := s.CreateSession(context.Background(), "test")
	if err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
	return sess
}

// testPNG encodes a small image whose pixels depend on seed, so different
// seeds give different artifacts.
func testPNG(t testing.TB, seed int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for i := range img.Pix {
		img.Pix[i] = byte(i*7 + seed)
	}
	img.Set(0, 0, color.RGBA{byte(seed), byte(seed >> 8), 0, 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func nodeTarget(uid string) Target {
	return Target{Type: TargetNode, NodeUID: uid, Bounds: &Bounds{Left: 10, Top: 20, Right: 110, Bottom: 80},
		Snapshot: &NodeSnapshot{Class: "android.widget.Button", Text: "Save", TestTag: "save_button", Role: "Button"}}
}

// batchInput builds a batch of n items with draft ids d0..d(n-1).
func batchInput(t testing.TB, sessionID, workspace string, n int, withImages bool) SaveBatchInput {
	in := SaveBatchInput{SessionID: sessionID, FrozenID: "preview-1", WorkspaceID: workspace,
		Screen: ScreenInput{Fingerprint: "fp1", Package: "com.example", Activity: ".Main", Width: 1080, Height: 2400,
			NodesJSON: []byte(`[{"uid":"n1"}]`)}}
	if withImages {
		in.Screen.ImagePNG = testPNG(t, 1)
	}
	for i := 0; i < n; i++ {
		bi := BatchItem{DraftItemID: fmt.Sprintf("d%d", i), Target: nodeTarget(fmt.Sprintf("n%d", i)),
			Severity: "high", Comment: fmt.Sprintf("make item %d bigger", i)}
		if withImages {
			bi.CropPNG = testPNG(t, 100+i)
		}
		in.Items = append(in.Items, bi)
	}
	return in
}

func mustSave(t testing.TB, s *Store, in SaveBatchInput) *SaveBatchResult {
	t.Helper()
	res, err := s.SaveBatch(context.Background(), in)
	if err != nil {
		t.Fatalf("SaveBatch: %v", err)
	}
	return res
}

// sessionWithItems creates a session with n saved draft items.
func sessionWithItems(t testing.TB, s *Store, n int) (*Session, []Item) {
	t.Helper()
	sess := mustSession(t, s)
	res := mustSave(t, s, batchInput(t, sess.SessionID, "ws", n, false))
	return res.Session, res.Items
}

// storeWithItems opens a fresh store holding one session with n saved draft items.
func storeWithItems(t testing.TB, n int) (*Store, *Session, []Item) {
	t.Helper()
	s := newTestStore(t)
	sess, items := sessionWithItems(t, s, n)
	return s, sess, items
}

// newBatch opens a fresh store with one session and builds for it, unsaved, a
// batch of n items: where the tests start that change a batch before saving it.
func newBatch(t testing.TB, n int) (*Store, *Session, SaveBatchInput) {
	t.Helper()
	s := newTestStore(t)
	sess := mustSession(t, s)
	return s, sess, batchInput(t, sess.SessionID, "ws", n, false)
}

// releasedItems saves n draft items in a new session and releases them to the
// agent (Save to MCP): where every test of the agent's side starts.
func releasedItems(t testing.TB, s *Store, n int) (sessionID string, items []Item) {
	t.Helper()
	sess, items := sessionWithItems(t, s, n)
	if _, err := s.ReleaseToAgent(context.Background(), sess.SessionID, nil); err != nil {
		t.Fatalf("ReleaseToAgent: %v", err)
	}
	return sess.SessionID, items
}

// storeWithReleased opens a fresh store and releases n items in it to the agent.
func storeWithReleased(t testing.TB, n int) (*Store, string, []Item) {
	t.Helper()
	s := newTestStore(t)
	sessionID, items := releasedItems(t, s, n)
	return s, sessionID, items
}

func countRows(t testing.TB, s *Store, query string, args ...any) int {
	t.Helper()
	var n int
	if err := s.rdb.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// fillDisk caps the database at the pages it has now. The writer pool has one
// connection, so the cap applies to every write: the database cannot grow,
// exactly as on a full disk.
func fillDisk(t *testing.T, s *Store) {
	t.Helper()
	var pages int
	if err := s.wdb.QueryRow(`PRAGMA page_count`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if _, err := s.wdb.Exec(fmt.Sprintf(`PRAGMA max_page_count = %d`, pages)); err != nil {
		t.Fatal(err)
	}
}
