package mcp

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
)

// TestStdioLoop drives ServeStdio through pipes, as an agent drives
// `fixthis mcp`, and checks the server stops when the agent closes stdin.
func TestStdioLoop(t *testing.T) {
	s, sess, items := seededStore(t, 1)
	if _, err := s.ReleaseToAgent(context.Background(), sess.SessionID, nil); err != nil {
		t.Fatal(err)
	}
	agentToServer, serverIn := io.Pipe()
	serverOut, serverToAgent := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- ServeStdio(context.Background(), Deps{Store: s}, agentToServer, serverToAgent, io.Discard)
		serverToAgent.Close()
	}()
	c := client.NewClient(transport.NewIO(serverOut, serverIn, io.NopCloser(&emptyReader{})))
	initClient(t, c)

	var w waitOut
	call(t, c, "fixthis_wait_for_feedback", map[string]any{"timeoutSeconds": 2}, &w)
	if w.Status != "batch" || len(w.Items) != 1 || w.Items[0].ItemID != items[0].ItemID {
		t.Fatalf("wait over stdio: %+v", w)
	}
	call(t, c, "fixthis_claim_feedback", map[string]any{"sessionId": sess.SessionID, "itemId": items[0].ItemID}, nil)
	var r itemResultOut
	call(t, c, "fixthis_resolve_feedback", map[string]any{"sessionId": sess.SessionID, "itemId": items[0].ItemID,
		"status": "wont_fix", "summary": "design system forbids it"}, &r)
	if r.Item.Phase != "wont_fix" {
		t.Fatalf("resolve over stdio: %+v", r)
	}
	serverIn.Close()
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("ServeStdio: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not stop after stdin closed")
	}
}

type emptyReader struct{}

func (*emptyReader) Read([]byte) (int, error) { return 0, io.EOF }
