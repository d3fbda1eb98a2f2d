package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"fixthis/app/store"
)

// hints are a tool's behaviour annotations, which a client shows its user and plans
// with: whether a call changes anything, can lose data, can be repeated harmlessly,
// and reaches past the store (the phone, the build).
type hints struct{ readOnly, destructive, idempotent, openWorld bool }

func (h hints) option() mcp.ToolOption {
	return func(t *mcp.Tool) {
		mcp.WithReadOnlyHintAnnotation(h.readOnly)(t)
		mcp.WithDestructiveHintAnnotation(h.destructive)(t)
		mcp.WithIdempotentHintAnnotation(h.idempotent)(t)
		mcp.WithOpenWorldHintAnnotation(h.openWorld)(t)
	}
}

// readOnly is the annotation set of tools that only read the store.
func readOnly() []mcp.ToolOption {
	return []mcp.ToolOption{
		hints{readOnly: true, idempotent: true}.option(),
	}
}

func sessionIDArg(required bool, what string) mcp.ToolOption {
	opts := []mcp.PropertyOption{mcp.Description(what), mcp.MaxLength(200)}
	if required {
		opts = append(opts, mcp.Required(), mcp.MinLength(1))
	}
	return mcp.WithString("sessionId", opts...)
}

func itemIDArg(required bool) mcp.ToolOption {
	opts := []mcp.PropertyOption{mcp.Description("Feedback item id (the `id:` line of the prompt)."), mcp.MaxLength(200)}
	if required {
		opts = append(opts, mcp.Required(), mcp.MinLength(1))
	}
	return mcp.WithString("itemId", opts...)
}

// answer is the reply to a call whose work returned v or failed: the error as
// toolResult shapes it, else v as structured content.
func answer[T any](v T, err error) (*mcp.CallToolResult, error) {
	if err != nil {
		return toolResult(err)
	}
	return structured(v)
}

// structured answers with the JSON as text too, for clients that ignore
// structuredContent.
func structured(v any, extra ...mcp.Content) (*mcp.CallToolResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	res := mcp.NewToolResultStructured(v, string(b))
	res.Content = append(res.Content, extra...)
	return res, nil
}

func (t *toolset) listSessions() server.ServerTool {
	tool := mcp.NewTool("fixthis_list_feedback_sessions",
		append([]mcp.ToolOption{
			mcp.WithDescription("List FixThis feedback sessions, most recently changed first, with item counts per lifecycle phase."),
			mcp.WithTitleAnnotation("List feedback sessions"),
			mcp.WithOutputSchema[sessionsOut](),
		}, readOnly()...)...)
	return server.ServerTool{Tool: tool, Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		list, err := t.deps.Store.ListSessions(ctx)
		if err != nil {
			return toolResult(err)
		}
		return structured(sessionsOut{Sessions: list})
	}}
}

// listLimit is the page an agent gets from fixthis_list_feedback; total says
// how many more there are.
const listLimit = 50

func (t *toolset) listFeedback() server.ServerTool {
	tool := mcp.NewTool("fixthis_list_feedback",
		append([]mcp.ToolOption{
			mcp.WithDescription("List feedback items handed to you (Save to MCP, copied prompts, items you work on) that are not finished. " +
				"includeAll adds drafts and finished items. Without sessionId, every open session. Returns at most 50, oldest first, and the total."),
			mcp.WithTitleAnnotation("List feedback"),
			sessionIDArg(false, "Limit to this session."),
			mcp.WithBoolean("includeAll", mcp.Description("Also list drafts and resolved / wont_fix items."), mcp.DefaultBool(false)),
			mcp.WithOutputSchema[feedbackListOut](),
		}, readOnly()...)...)
	return server.ServerTool{Tool: tool, Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		sid := strings.TrimSpace(req.GetString("sessionId", ""))
		page, err := t.deps.Store.ListFeedback(ctx, store.FeedbackQuery{SessionID: sid,
			IncludeAll: req.GetBool("includeAll", false), Limit: listLimit})
		if err != nil {
			return toolResult(err)
		}
		if sid != "" {
			t.presence.activity(sid)
		}
		out := feedbackListOut{SessionID: sid, Items: make([]listItemOut, 0, len(page.Items)), Total: page.Total}
		for _, it := range page.Items {
			out.Items = append(out.Items, toListItem(it))
		}
		return structured(out)
	}}
}

func (t *toolset) readFeedback() server.ServerTool {
	tool := mcp.NewTool("fixthis_read_feedback",
		append([]mcp.ToolOption{
			mcp.WithDescription("Read feedback as the compact handoff prompt plus JSON, with the annotated screen and the crop as images. " +
				"With itemId: that item. With only sessionId: the session's open handed-off items. With neither: the most recently changed open session."),
			mcp.WithTitleAnnotation("Read feedback"),
			sessionIDArg(false, "Session to read."),
			itemIDArg(false),
			mcp.WithOutputSchema[readOut](),
		}, readOnly()...)...)
	return server.ServerTool{Tool: tool, Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		sid := strings.TrimSpace(req.GetString("sessionId", ""))
		iid := strings.TrimSpace(req.GetString("itemId", ""))
		if iid != "" {
			return t.readItem(ctx, sid, iid)
		}
		if sid == "" {
			var err error
			if sid, err = t.latestOpenSession(ctx); err != nil {
				return toolResult(err)
			}
			if sid == "" {
				return mcp.NewToolResultError("NO_ACTIVE_SESSION: no open feedback session; the developer has not saved feedback yet"), nil
			}
		}
		return t.readSession(ctx, sid)
	}}
}

func (t *toolset) latestOpenSession(ctx context.Context) (string, error) {
	list, err := t.deps.Store.ListSessions(ctx)
	if err != nil {
		return "", err
	}
	for _, s := range list {
		if s.Status == store.SessionOpen {
			return s.SessionID, nil
		}
	}
	return "", nil
}

// prompt renders the compact prompt, or "" without a renderer.
func (t *toolset) prompt(ctx context.Context, sessionID string, itemIDs []string) (string, error) {
	if t.deps.Prompt == nil || len(itemIDs) == 0 {
		return "", nil
	}
	return t.deps.Prompt.Markdown(ctx, sessionID, itemIDs)
}

func (t *toolset) readItem(ctx context.Context, sid, iid string) (*mcp.CallToolResult, error) {
	d, err := t.deps.Store.ReadItem(ctx, sid, iid)
	if err != nil {
		return toolResult(err)
	}
	sid = d.Item.SessionID
	t.presence.activity(sid)
	text, err := t.prompt(ctx, sid, []string{iid})
	if err != nil {
		return toolResult(err)
	}
	item := toItemOut(d.Item)
	item.Orphaned = t.orphaned(ctx, d.Item)
	out := readOut{SessionID: sid, Prompt: text, Item: &item, Screens: []screenOut{}}
	if out.RuntimeEvidence, err = t.latestEvidence(ctx, sid, []string{iid}); err != nil {
		return toolResult(err)
	}
	var images []mcp.Content
	if d.Screen != nil {
		so := toScreenOut(*d.Screen)
		if img, ok := t.artifactImage(ctx, d.Screen.ImageArtifact, "screenshot"); img != nil {
			images, so.ImageAttached = append(images, img), ok
		}
		out.Screens = append(out.Screens, so)
	}
	if img, ok := t.artifactImage(ctx, d.Item.CropArtifact, "crop"); img != nil {
		images, out.CropShown = append(images, img), ok
	}
	if c := d.Item.Clip; c != nil && c.StripArtifact != "" {
		if img, _ := t.artifactImage(ctx, c.StripArtifact, "clip frame strip"); img != nil {
			images = append(images, img)
		}
	}
	return structured(out, images...)
}

// maxScreensPerRead bounds the screenshots one session read attaches.
const maxScreensPerRead = 3

func (t *toolset) readSession(ctx context.Context, sid string) (*mcp.CallToolResult, error) {
	page, err := t.deps.Store.ListFeedback(ctx, store.FeedbackQuery{SessionID: sid})
	if err != nil {
		return toolResult(err)
	}
	t.presence.activity(sid)
	ids := itemIDs(page.Items)
	text, err := t.prompt(ctx, sid, ids)
	if err != nil {
		return toolResult(err)
	}
	out := readOut{SessionID: sid, Prompt: text, Items: toItemsOut(page.Items), Screens: []screenOut{}}
	if out.RuntimeEvidence, err = t.latestEvidence(ctx, sid, ids); err != nil {
		return toolResult(err)
	}
	if len(ids) == 0 {
		out.Prompt = "No open feedback has been handed to you in this session yet; call fixthis_wait_for_feedback."
	}
	var images []mcp.Content
	seen := map[string]bool{}
	for _, it := range page.Items {
		if it.ScreenID == "" || seen[it.ScreenID] || len(seen) == maxScreensPerRead {
			continue
		}
		seen[it.ScreenID] = true
		sc, err := t.deps.Store.GetScreen(ctx, sid, it.ScreenID)
		if err != nil {
			return toolResult(err)
		}
		so := toScreenOut(*sc)
		if img, ok := t.artifactImage(ctx, sc.ImageArtifact, "screenshot"); img != nil {
			images, so.ImageAttached = append(images, img), ok
		}
		out.Screens = append(out.Screens, so)
	}
	return structured(out, images...)
}

// artifactImage loads and downscales an artifact for the agent: nil when
// there is none, a text note (ok false) when it cannot be shown.
func (t *toolset) artifactImage(ctx context.Context, key, what string) (mcp.Content, bool) {
	if key == "" {
		return nil, false
	}
	data, err := t.deps.Store.ReadArtifact(ctx, key)
	if err != nil {
		return mcp.NewTextContent(fmt.Sprintf("(%s not attached: %v)", what, err)), false
	}
	return imageContent(data, what)
}

// orphaned says whether an open node item's node is gone from the device's
// current screen. Without a device layer, or when it cannot tell, it is false.
func (t *toolset) orphaned(ctx context.Context, it store.Item) bool {
	if t.deps.Screen == nil || it.Target.Type != store.TargetNode || it.Target.Snapshot == nil || !it.IsOpen() {
		return false
	}
	present, known := t.deps.Screen.NodeOnScreen(ctx, it.Target)
	return known && !present
}
