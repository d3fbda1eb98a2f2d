package app

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"fixthis/internal/eventually"
)

// TestReadFeedbackOrphaned: an item whose node left the device's screen reads
// as orphaned: true (and stays open); on the item's own screen it does not.
func TestReadFeedbackOrphaned(t *testing.T) {
	e := newTestEnv(t)
	sid := e.createSession("Orphans")
	fr := e.freeze()
	card := fr.node(t, "trail_card_1")
	var res batchResponse
	e.mustJSON("POST", "/api/items/batch", map[string]any{"sessionId": sid, "frozenId": fr.FrozenID, "workspaceId": "ws-o",
		"items": []map[string]any{{"draftItemId": "d1", "comment": "Show the distance", "target": map[string]any{
			"type": "node", "nodeUid": card.UID, "bounds": card.Bounds,
			"snapshot": map[string]any{"class": card.Class, "text": card.Text, "testTag": card.TestTag}}}}}, &res)
	e.mustJSON("POST", "/api/preview/resume", nil, nil)

	c := inProcessAgent(t, e, "orphan-test")
	ctx := context.Background()
	read := func() (orphaned bool) {
		var req mcpgo.CallToolRequest
		req.Params.Name = "fixthis_read_feedback"
		req.Params.Arguments = map[string]any{"sessionId": sid, "itemId": res.Items[0].ItemID}
		out, err := c.CallTool(ctx, req)
		if err != nil || out.IsError {
			t.Fatalf("read_feedback: %v %+v", err, out)
		}
		var body struct {
			Item struct {
				Orphaned bool   `json:"orphaned"`
				Status   string `json:"status"`
			} `json:"item"`
		}
		b, _ := json.Marshal(out.StructuredContent)
		if err := json.Unmarshal(b, &body); err != nil {
			t.Fatal(err)
		}
		return body.Item.Orphaned
	}
	if read() {
		t.Fatal("orphaned while the card is on screen")
	}
	x, y := card.center()
	e.mustJSON("POST", "/api/preview/tap", map[string]int{"x": x, "y": y}, nil)
	eventually.True(t, 10*time.Second, "the card gone from the screen", read)
}
