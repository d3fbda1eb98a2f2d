package mcp

import (
	"context"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"fixthis/app/store"
)

// itemWriteTool is the annotation set of claim / resolve / ask: they change
// an item's state but never delete anything, and repeating one changes
// nothing more.
func itemWriteTool() []mcp.ToolOption {
	return []mcp.ToolOption{
		mcp.WithReadOnlyHintAnnotation(false),
		mcp.WithDestructiveHintAnnotation(false),
		mcp.WithIdempotentHintAnnotation(true),
		mcp.WithOpenWorldHintAnnotation(false),
		mcp.WithOutputSchema[itemResultOut](),
	}
}

// requireIDs reads the sessionId and itemId every item tool needs.
func requireIDs(req mcp.CallToolRequest) (sid, iid string, bad *mcp.CallToolResult) {
	sid = strings.TrimSpace(req.GetString("sessionId", ""))
	iid = strings.TrimSpace(req.GetString("itemId", ""))
	if sid == "" || iid == "" {
		return "", "", invalidArg("sessionId and itemId are required")
	}
	return sid, iid, nil
}

func (t *toolset) itemDone(sid string, it *store.Item, next string) (*mcp.CallToolResult, error) {
	t.presence.activity(sid)
	return structured(itemResultOut{Item: toItemOut(*it), Next: next})
}

func (t *toolset) claimFeedback() server.ServerTool {
	tool := mcp.NewTool("fixthis_claim_feedback",
		append([]mcp.ToolOption{
			mcp.WithDescription("Claim a feedback item before editing code: it shows as in progress in the developer's console. " +
				"A claim is yours alone while your connection is open: another agent's claim is refused with ITEM_CLAIMED, and claiming again is harmless. " +
				"Refused with ITEM_ALREADY_RESOLVED for items already resolved or wont_fix, and with ITEM_CLOSED_BY_USER for items the developer closed or deleted (their decision is final)."),
			mcp.WithTitleAnnotation("Claim feedback item"),
			sessionIDArg(true, "Session of the item."),
			itemIDArg(true),
			mcp.WithString("agentNote", mcp.MaxLength(2000), mcp.Description("Optional short note shown with the item, e.g. what you are about to change.")),
		}, itemWriteTool()...)...)
	return server.ServerTool{Tool: tool, Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		sid, iid, bad := requireIDs(req)
		if bad != nil {
			return bad, nil
		}
		it, err := t.deps.Store.Claim(t.conns.bind(ctx), sid, iid, req.GetString("agentNote", ""))
		if err != nil {
			return toolResult(err)
		}
		return t.itemDone(sid, it, "edit the code, then fixthis_resolve_feedback")
	}}
}

func (t *toolset) resolveFeedback() server.ServerTool {
	tool := mcp.NewTool("fixthis_resolve_feedback",
		append([]mcp.ToolOption{
			mcp.WithDescription("Record the outcome of a feedback item with a summary the developer reads: resolved (fixed), " +
				"wont_fix (with the reason), or needs_clarification (the summary is your question). Refused with ITEM_CLOSED_BY_USER once the developer closed " +
				"or deleted the item, and with ITEM_CLAIMED while another agent holds it."),
			mcp.WithTitleAnnotation("Resolve feedback item"),
			sessionIDArg(true, "Session of the item."),
			itemIDArg(true),
			mcp.WithString("status", mcp.Required(), mcp.Enum(store.StatusResolved, store.StatusWontFix, store.StatusNeedsClarification),
				mcp.Description("resolved | wont_fix | needs_clarification")),
			mcp.WithString("summary", mcp.Required(), mcp.MinLength(1), mcp.MaxLength(20000),
				mcp.Description("What you changed (file:line), why not, or what you need to know.")),
		}, itemWriteTool()...)...)
	return server.ServerTool{Tool: tool, Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		sid, iid, bad := requireIDs(req)
		if bad != nil {
			return bad, nil
		}
		it, err := t.deps.Store.Resolve(t.conns.bind(ctx), store.ResolveInput{SessionID: sid, ItemID: iid,
			Status: req.GetString("status", ""), Summary: req.GetString("summary", "")})
		if err != nil {
			return toolResult(err)
		}
		next := "continue with the next item, or fixthis_wait_for_feedback"
		if it.Status == store.StatusNeedsClarification {
			next = "the answer arrives through fixthis_wait_for_feedback"
		}
		return t.itemDone(sid, it, next)
	}}
}

func (t *toolset) ask() server.ServerTool {
	tool := mcp.NewTool("fixthis_ask",
		append([]mcp.ToolOption{
			mcp.WithDescription("Ask the developer a question about a feedback item; it shows in the console and the item becomes " +
				"needs_clarification. The answer comes back through fixthis_wait_for_feedback."),
			mcp.WithTitleAnnotation("Ask the developer"),
			sessionIDArg(true, "Session of the item."),
			itemIDArg(true),
			mcp.WithString("question", mcp.Required(), mcp.MinLength(1), mcp.MaxLength(20000), mcp.Description("One clear question.")),
		}, itemWriteTool()...)...)
	return server.ServerTool{Tool: tool, Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		sid, iid, bad := requireIDs(req)
		if bad != nil {
			return bad, nil
		}
		it, err := t.deps.Store.Ask(t.conns.bind(ctx), sid, iid, req.GetString("question", ""))
		if err != nil {
			return toolResult(err)
		}
		return t.itemDone(sid, it, "call fixthis_wait_for_feedback for the answer")
	}}
}
