package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"fixthis/app/errcode"
	"fixthis/app/store"
)

// EvidenceCollector runs the runtime evidence preset for an item and stores
// the result (fixthis_capture_runtime_evidence). Only processes that run a
// device layer have one. Under the Off policy it returns a
// RUNTIME_EVIDENCE_OFF error.
type EvidenceCollector interface {
	CollectEvidence(ctx context.Context, itemID string, trigger store.EvidenceTrigger) (*store.EvidenceRecord, error)
}

// attachmentOut is one collector's result as an agent sees it: status and a
// bounded one-line summary, never raw output.
type attachmentOut struct {
	Kind     string `json:"kind"` // logcat | frames | memory
	Status   string `json:"status"`
	Reason   string `json:"reason,omitempty"`
	Summary  string `json:"summary"`
	Artifact string `json:"artifact,omitempty"` // local path of the redacted raw output
}

// attemptOut is one capture of an item's runtime evidence.
type attemptOut struct {
	CaptureID   string          `json:"captureId"`
	Trigger     string          `json:"trigger"` // auto | manual | agent
	CreatedAt   string          `json:"createdAt"`
	Package     string          `json:"package"`
	Status      string          `json:"status"` // complete | partial | failed | unsupported
	Failure     string          `json:"failure,omitempty"`
	Warnings    []string        `json:"warnings"`
	Attachments []attachmentOut `json:"attachments"`
}

type evidenceOut struct {
	SessionID string       `json:"sessionId"`
	ItemID    string       `json:"itemId"`
	Attempts  []attemptOut `json:"attempts"` // newest first
}

func toAttemptOut(r store.EvidenceRecord) attemptOut {
	out := attemptOut{CaptureID: r.ID, Trigger: string(r.Trigger), CreatedAt: r.CreatedAt.Format(time.RFC3339), Package: r.Package,
		Status: string(r.Status), Failure: string(r.Failure), Warnings: nonNilStrings(r.Warnings), Attachments: []attachmentOut{}}
	for _, at := range r.Attachments {
		out.Attachments = append(out.Attachments, attachmentOut{Kind: string(at.Kind), Status: string(at.Status),
			Reason: string(at.Reason), Summary: at.Summary, Artifact: at.Artifact})
	}
	return out
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func (t *toolset) getRuntimeEvidence() server.ServerTool {
	tool := mcp.NewTool("fixthis_get_runtime_evidence",
		append([]mcp.ToolOption{
			mcp.WithDescription("Runtime evidence captured for a feedback item (newest first): for each capture its status, warnings, " +
				"and per collector (logcat, frames, memory) a one-line summary and the local path of its redacted output. " +
				"Read those files for detail; they never leave this machine."),
			mcp.WithTitleAnnotation("Get runtime evidence"),
			itemIDArg(true),
			sessionIDArg(false, "Session of the item (optional: item ids are unique)."),
			mcp.WithOutputSchema[evidenceOut](),
		}, readOnly()...)...)
	return server.ServerTool{Tool: tool, Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		it, recs, err := t.itemEvidence(ctx, req)
		if err != nil {
			return toolResult(err)
		}
		out := evidenceOut{SessionID: it.SessionID, ItemID: it.ItemID, Attempts: []attemptOut{}}
		for _, r := range recs {
			out.Attempts = append(out.Attempts, toAttemptOut(r))
		}
		return structured(out)
	}}
}

func (t *toolset) captureRuntimeEvidence() server.ServerTool {
	tool := mcp.NewTool("fixthis_capture_runtime_evidence",
		mcp.WithDescription("Capture fresh runtime evidence for a feedback item from the device: the app's log since shortly before "+
			"the annotated screen was frozen (crashes, ANRs), frame statistics and memory, redacted and stored locally. "+
			"Takes up to about 3 s. The stdio sidecar hands the call to the running FixThis app, which owns the device selection; "+
			"refused when the developer turned runtime diagnostics off for the session."),
		mcp.WithTitleAnnotation("Capture runtime evidence"),
		itemIDArg(true),
		hints{openWorld: true}.option(),
		mcp.WithOutputSchema[attemptOut](),
	)
	return server.ServerTool{Tool: tool, Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		iid, err := req.RequireString("itemId")
		if err != nil {
			return invalidArg("%v", err), nil
		}
		if t.deps.Evidence == nil {
			// The sidecar: the app knows which device the developer selected.
			if res, handled, err := t.forward(ctx, req); handled {
				return res, err
			}
			return mcp.NewToolResultError("DEVICE_NOT_AVAILABLE: the FixThis app is not running for this project, and runtime " +
				"evidence is captured by the app; start it, or read what fixthis_get_runtime_evidence has"), nil
		}
		rec, err := t.deps.Evidence.CollectEvidence(ctx, strings.TrimSpace(iid), store.EvidenceTriggerAgent)
		if err != nil {
			// Coded errors (RUNTIME_EVIDENCE_OFF, ITEM_NOT_FOUND) are the agent's to act on.
			var se *errcode.Error
			if errors.As(err, &se) {
				return toolResult(err)
			}
			return mcp.NewToolResultError(fmt.Sprintf("DEVICE_NOT_AVAILABLE: %v", err)), nil
		}
		t.presence.activity(rec.SessionID)
		return structured(toAttemptOut(*rec))
	}}
}

// itemEvidence reads the item a call names and its runtime evidence captures, newest
// first, for the tools that answer from them; the item's session counts as worked on.
func (t *toolset) itemEvidence(ctx context.Context, req mcp.CallToolRequest) (store.Item, []store.EvidenceRecord, error) {
	iid, err := req.RequireString("itemId")
	if err != nil {
		return store.Item{}, nil, errcode.New(errcode.InvalidInput, "%v", err)
	}
	iid = strings.TrimSpace(iid)
	recs, err := t.deps.Store.ItemEvidence(ctx, strings.TrimSpace(req.GetString("sessionId", "")), iid)
	if err != nil {
		return store.Item{}, nil, err
	}
	d, err := t.deps.Store.ReadItem(ctx, "", iid)
	if err != nil {
		return store.Item{}, nil, err
	}
	t.presence.activity(d.Item.SessionID)
	return d.Item, recs, nil
}

// latestEvidence is the newest capture of each of itemIDs that has one.
func (t *toolset) latestEvidence(ctx context.Context, sessionID string, itemIDs []string) ([]itemEvidenceOut, error) {
	latest, err := t.deps.Store.SessionEvidence(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	out := []itemEvidenceOut{}
	for _, id := range itemIDs {
		if r, ok := latest[id]; ok {
			out = append(out, itemEvidenceOut{ItemID: id, attemptOut: toAttemptOut(r)})
		}
	}
	return out, nil
}

// ReleasePrompter renders a Save to MCP release's prompt with its runtime
// evidence decision (the runtimeEvidenceAttempt block). The app's prompt
// builder implements it; a Prompter without it renders the plain prompt.
type ReleasePrompter interface {
	ReleaseMarkdown(ctx context.Context, sessionID string, itemIDs []string, d *store.EvidenceDecision) (string, error)
}

// releasePrompt is the prompt a release batch is served with.
func (t *toolset) releasePrompt(ctx context.Context, b *store.AgentBatch, ids []string) (string, error) {
	if rp, ok := t.deps.Prompt.(ReleasePrompter); ok && b.Evidence != nil && len(ids) > 0 {
		return rp.ReleaseMarkdown(ctx, b.SessionID, ids, b.Evidence)
	}
	return t.prompt(ctx, b.SessionID, ids)
}
