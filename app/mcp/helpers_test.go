package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"fixthis/app/store"
	"fixthis/internal/eventually"
)

// listPrompter renders a recognisable prompt: the real renderer is tested in
// app/handoff; here only the wiring matters.
type listPrompter struct{}

func (listPrompter) Markdown(_ context.Context, sessionID string, itemIDs []string) (string, error) {
	return "# FixThis Feedback Handoff\nsession_id: " + sessionID + "\nitems: " + strings.Join(itemIDs, ","), nil
}

func openStore(t testing.TB, dir string) *store.Store {
	t.Helper()
	return openStoreAt(t, dir, nil)
}

// openStoreAt opens dir's store reading the time from now (the wall clock when nil),
// polling for other processes' commits every 20 ms.
func openStoreAt(t testing.TB, dir string, now func() time.Time) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), dir, store.Options{PollInterval: 20 * time.Millisecond, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func testPNG(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 31 % 251)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// seed creates a session with n draft items (screen and crops attached).
// seededStore is a fresh project whose one session holds n saved items.
func seededStore(t testing.TB, n int) (*store.Store, *store.Session, []store.Item) {
	t.Helper()
	s := openStore(t, t.TempDir())
	sess, items := seed(t, s, n)
	return s, sess, items
}

func seed(t testing.TB, s *store.Store, n int) (*store.Session, []store.Item) {
	t.Helper()
	ctx := context.Background()
	sess, err := s.CreateSession(ctx, "Login screen")
	if err != nil {
		t.Fatal(err)
	}
	in := store.SaveBatchInput{SessionID: sess.SessionID, FrozenID: "p1", WorkspaceID: "ws",
		Screen: store.ScreenInput{Fingerprint: "fp", Package: "com.example", Activity: ".Main", Width: 1080, Height: 2400,
			ImagePNG: testPNG(t, 400, 800), NodesJSON: []byte(`[]`)}}
	for i := 0; i < n; i++ {
		in.Items = append(in.Items, store.BatchItem{DraftItemID: fmt.Sprintf("d%d", i), Severity: "high",
			Comment: fmt.Sprintf("make button %d bigger", i), CropPNG: testPNG(t, 50, 20+i),
			Target: store.Target{Type: store.TargetNode, NodeUID: fmt.Sprintf("n%d", i),
				Bounds:   &store.Bounds{Left: 10, Top: 10, Right: 100, Bottom: 60},
				Snapshot: &store.NodeSnapshot{Class: "android.widget.Button", Text: "Sign in", TestTag: "sign_in"}}})
	}
	if n > 0 {
		in.Items[0].Check = "touch_target" // the first item was added from an audit finding
	}
	res, err := s.SaveBatch(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	return res.Session, res.Items
}

func newClient(t testing.TB, deps Deps) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClient(NewServer(deps))
	if err != nil {
		t.Fatal(err)
	}
	initClient(t, c)
	return c
}

func initClient(t testing.TB, c *client.Client) {
	t.Helper()
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	var init mcp.InitializeRequest
	init.Params.ClientInfo = mcp.Implementation{Name: "fixthis-test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize: %v", err)
	}
}

// call invokes a tool and decodes its structured result into out (if non-nil).
func call(t testing.TB, c *client.Client, name string, args map[string]any, out any) *mcp.CallToolResult {
	t.Helper()
	return callCtx(context.Background(), t, c, name, args, out)
}

func callCtx(ctx context.Context, t testing.TB, c *client.Client, name string, args map[string]any, out any) *mcp.CallToolResult {
	t.Helper()
	var req mcp.CallToolRequest
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if out != nil && !res.IsError {
		if err := json.Unmarshal([]byte(text(res)), out); err != nil {
			t.Fatalf("%s: decode %q: %v", name, text(res), err)
		}
	}
	return res
}

// text returns the first text content of a result.
func text(res *mcp.CallToolResult) string {
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			return tc.Text
		}
	}
	return ""
}

func images(res *mcp.CallToolResult) []mcp.ImageContent {
	var out []mcp.ImageContent
	for _, c := range res.Content {
		if ic, ok := c.(mcp.ImageContent); ok {
			out = append(out, ic)
		}
	}
	return out
}

type (
	mcpCallToolRequest = mcp.CallToolRequest
	mcpCallToolResult  = mcp.CallToolResult
)

// callWithProgress calls tool on c with a progressToken (none when token is "") and
// returns the answer and a reader of the progress notifications the call brought so
// far, each as "progress message", joined by "|".
func callWithProgress(t *testing.T, c *client.Client, tool string, args map[string]any, token string) (*mcp.CallToolResult, func() string) {
	t.Helper()
	var mu sync.Mutex
	var lines []string
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method != "notifications/progress" {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, fmt.Sprint(n.Params.AdditionalFields["progress"])+" "+fmt.Sprint(n.Params.AdditionalFields["message"]))
	})
	var req mcp.CallToolRequest
	req.Params.Name, req.Params.Arguments = tool, args
	if token != "" {
		req.Params.Meta = &mcp.Meta{ProgressToken: token}
	}
	res, err := c.CallTool(context.Background(), req)
	if err != nil || res.IsError {
		t.Fatalf("%s: %v %s", tool, err, text(res))
	}
	return res, func() string {
		mu.Lock()
		defer mu.Unlock()
		return strings.Join(lines, "|")
	}
}

// waitForProgress waits up to 5 s for the progress lines to be want: a notification
// may reach the client after the answer.
func waitForProgress(t *testing.T, lines func() string, want string) {
	t.Helper()
	eventually.Get(t, 5*time.Second, fmt.Sprintf("progress lines %q", want), lines,
		func(got string) bool { return got == want }, strconv.Quote)
}
