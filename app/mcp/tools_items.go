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
		hints{idempotent: true}.option(),
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

// itemWrite is the handler of a tool that changes one item through the store (claim,
// ask): the ids are checked, write runs on the caller's connection (whose claim the
// store checks) and the answer tells the agent what comes next.
func (t *toolset) itemWrite(next string, write func(ctx context.Context, req mcp.CallToolRequest, sid, iid string) (*store.Item, error)) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		sid, iid, bad := requireIDs(req)
		if bad != nil {
			return bad, nil
		}
		it, err := write(t.conns.bind(ctx), req, sid, iid)
		if err != nil {
			return toolResult(err)
		}
		return t.itemDone(sid, it, next)
	}
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
	return server.ServerTool{Tool: tool, Handler: t.itemWrite("edit the code, then fixthis_resolve_feedback",
		func(ctx context.Context, req mcp.CallToolRequest, sid, iid string) (*store.Item, error) {
			return t.deps.Store.Claim(ctx, sid, iid, req.GetString("agentNote", ""))
		})}
}

func (t *toolset) resolveFeedback() server.ServerTool {
	tool := mcp.NewTool("fixthis_resolve_feedback",
		append([]mcp.ToolOption{
			mcp.WithDescription("Record the outcome of a feedback item you claimed, with a summary the developer reads: resolved (fixed), " +
				"wont_fix (with the reason), or needs_clarification (the summary is your question; you keep the claim). " +
				"Refused with ITEM_NOT_CLAIMED until you claim it (fixthis_claim_feedback), ITEM_CLAIMED while another agent holds it, " +
				"ITEM_ALREADY_RESOLVED once it is resolved or wont_fix (it stays so until the developer reopens it), " +
				"and ITEM_CLOSED_BY_USER once the developer closed or deleted it."),
			mcp.WithTitleAnnotation("Resolve feedback item"),
			sessionIDArg(true, "Session of the item."),
			itemIDArg(true),
			mcp.WithString("status", mcp.Required(), mcp.Enum(string(store.StatusResolved), string(store.StatusWontFix), string(store.StatusNeedsClarification)),
				mcp.Description("resolved | wont_fix | needs_clarification")),
			mcp.WithString("summary", mcp.Required(), mcp.MinLength(1), mcp.MaxLength(20000),
				mcp.Description("What you changed (file:line), why not, or what you need to know.")),
			mcp.WithObject("verification", mcp.Description("With status resolved: a capture taken after the fix "+
				"(fixthis_capture_screen). FixThis keeps it as the item's after screen beside the user's before screen, "+
				"and says what changed in the item's region; for an item with a check (from an audit finding) it re-runs that check "+
				"there and says whether it passes or what it still measures. The user then confirms or reopens."),
				mcp.Properties(map[string]any{"captureId": map[string]any{"type": "string", "maxLength": 200}}),
				mcp.AdditionalProperties(false)),
		}, itemWriteTool()...)...)
	return server.ServerTool{Tool: tool, Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		sid, iid, bad := requireIDs(req)
		if bad != nil {
			return bad, nil
		}
		in := store.ResolveInput{SessionID: sid, ItemID: iid, Status: store.ItemStatus(req.GetString("status", "")), Summary: req.GetString("summary", "")}
		if captureID := verificationCapture(req); captureID != "" {
			if in.Status != store.StatusResolved {
				return invalidArg("verification goes with status resolved"), nil
			}
			detail, err := t.deps.Store.ReadItem(ctx, sid, iid)
			if err != nil {
				return toolResult(err)
			}
			if in.Verification, err = t.verification(ctx, detail.Item, captureID); err != nil {
				return toolResult(err)
			}
		}
		it, err := t.deps.Store.Resolve(t.conns.bind(ctx), in)
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
			mcp.WithDescription("Ask the developer a question about a feedback item you claimed; it shows in the console and the item becomes " +
				"needs_clarification. You keep the claim; the answer comes back through fixthis_wait_for_feedback. " +
				"Refused like fixthis_resolve_feedback: ITEM_NOT_CLAIMED, ITEM_CLAIMED, ITEM_ALREADY_RESOLVED, ITEM_CLOSED_BY_USER."),
			mcp.WithTitleAnnotation("Ask the developer"),
			sessionIDArg(true, "Session of the item."),
			itemIDArg(true),
			mcp.WithString("question", mcp.Required(), mcp.MinLength(1), mcp.MaxLength(20000), mcp.Description("One clear question.")),
		}, itemWriteTool()...)...)
	return server.ServerTool{Tool: tool, Handler: t.itemWrite("call fixthis_wait_for_feedback for the answer",
		func(ctx context.Context, req mcp.CallToolRequest, sid, iid string) (*store.Item, error) {
			return t.deps.Store.Ask(ctx, sid, iid, req.GetString("question", ""))
		})}
}

// verificationCapture is verification.captureId of a resolve call ("" when absent).
func verificationCapture(req mcp.CallToolRequest) string {
	v, _ := req.GetArguments()["verification"].(map[string]any)
	id, _ := v["captureId"].(string)
	return strings.TrimSpace(id)
}
