package mcp

import (
	"context"
	"errors"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"fixthis/app/audit"
	"fixthis/app/errcode"
	"fixthis/app/store"
	"fixthis/app/verify"
	"fixthis/capture"
)

// verifyFixOut is an item's audit check re-run on an after screen, beside the two
// pictures the console's before/after view shows.
type verifyFixOut struct {
	ItemID string `json:"itemId"`
	Check  string `json:"check"`
	// Passed: the check finds nothing at the item's node any more. Measured and
	// Required are what it still finds; Skipped says why it could not run.
	Passed         bool   `json:"passed"`
	Measured       string `json:"measured,omitempty"`
	Required       string `json:"required,omitempty"`
	Skipped        string `json:"skipped,omitempty"`
	CaptureID      string `json:"captureId"`
	BeforeImageURL string `json:"beforeImageUrl,omitempty"`
	AfterImageURL  string `json:"afterImageUrl"`
	Summary        string `json:"summary"`
}

func (t *toolset) verifyFix() server.ServerTool {
	tool := mcp.NewTool("fixthis_verify_fix",
		append([]mcp.ToolOption{
			mcp.WithDescription("Re-run the audit check of an item added from an audit finding (its check: line) on the screen after your fix, " +
				"at the item's node: passed, or what it still measures and what it needs, with the before and after picture URLs. " +
				"The after screen is captureId, else the item's verification capture, else the newest capture of the app " +
				"(take one with fixthis_capture_screen). fixthis_resolve_feedback with a verification capture runs the same check."),
			mcp.WithTitleAnnotation("Verify an audit fix"),
			sessionIDArg(true, "Session of the item."),
			itemIDArg(true),
			mcp.WithString("captureId", mcp.MaxLength(200), mcp.Description("The capture taken after the fix (fixthis_capture_screen).")),
			mcp.WithOutputSchema[verifyFixOut](),
		}, readOnly()...)...)
	return server.ServerTool{Tool: tool, Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		sid, iid, bad := requireIDs(req)
		if bad != nil {
			return bad, nil
		}
		detail, err := t.deps.Store.ReadItem(ctx, sid, iid)
		if err != nil {
			return toolResult(err)
		}
		it := detail.Item
		if it.Check == "" {
			return invalidArg("item %s was not added from an audit finding: it has no check to re-run", errcode.Quote(iid)), nil
		}
		var before *store.Screen
		if it.ScreenID != "" {
			if before, err = t.deps.Store.GetScreen(ctx, it.SessionID, it.ScreenID); err != nil {
				return toolResult(err)
			}
		}
		captureID := strings.TrimSpace(req.GetString("captureId", ""))
		if captureID == "" && it.Verification != nil {
			captureID = it.Verification.CaptureID
		}
		if captureID == "" && before != nil {
			if captureID, err = t.deps.Store.LatestCaptureID(ctx, before.Package); err != nil {
				return toolResult(err)
			}
		}
		if captureID == "" {
			return invalidArg("no after screen for item %s: take one with fixthis_capture_screen and pass its captureId", errcode.Quote(iid)), nil
		}
		v, err := t.verification(ctx, it, captureID)
		if err != nil {
			return toolResult(err)
		}
		out := verifyFixOut{ItemID: it.ItemID, Check: it.Check, CaptureID: v.CaptureID, AfterImageURL: v.AfterImageURL, Summary: v.Summary}
		if before != nil {
			out.BeforeImageURL = before.ImageURL
		}
		if c := v.Check; c != nil {
			out.Passed, out.Measured, out.Required, out.Skipped = c.Passed, c.Measured, c.Required, c.Skipped
		}
		return structured(out)
	}}
}

// verification compares the item's screen with the after capture and, for an item
// from an audit finding, re-runs its check there: what fixthis_resolve_feedback
// keeps and fixthis_verify_fix reports.
func (t *toolset) verification(ctx context.Context, it store.Item, captureID string) (*store.Verification, error) {
	v, err := verify.Compute(ctx, t.deps.Store, it, captureID)
	if err != nil {
		return nil, err
	}
	t.recheck(ctx, it, v)
	return v, nil
}

// recheck re-runs the audit check of an item added from a finding on the capture an
// agent took after its fix, at the item's node (where verify found it again, else
// where it was): passed when that check finds nothing there any more. A capture that
// cannot be audited leaves the check skipped with the reason, never passed.
func (t *toolset) recheck(ctx context.Context, it store.Item, v *store.Verification) {
	if it.Check == "" || v == nil {
		return
	}
	res := &store.CheckResult{Check: it.Check}
	v.Check = res
	if audit.IsDynamic(it.Check) {
		// The after capture was taken at the phone's own display settings, where a
		// dynamic check finds nothing: passing it here would say nothing.
		res.Skipped = it.Check + " needs the phone under its display setting: run fixthis_audit_screen with dynamic true on the fixed screen"
		return
	}
	c, err := t.deps.Store.GetCapture(ctx, v.CaptureID)
	if err != nil {
		res.Skipped = "the after capture could not be read"
		return
	}
	density := 0
	if c.Conditions != nil {
		density = c.Conditions.Density
	}
	if dr, ok := t.deps.Device.(DensityReader); ok && density == 0 {
		density, _ = dr.DisplayDensity(ctx, c.Serial)
	}
	findings, _, err := t.runAudit(ctx, c, density, nil)
	var bad *badAudit
	if errors.As(err, &bad) {
		res.Skipped = bad.msg
		return
	}
	if err != nil {
		res.Skipped = "the after capture could not be audited"
		return
	}
	where := itemRegion(it, v)
	if where == nil {
		res.Skipped = "the item has no place on the screen to check"
		return
	}
	for _, f := range findings {
		if f.Check == it.Check && sameSpot(f.Bounds, *where) {
			res.Measured, res.Required = f.Measured, f.Required
			v.Summary += "; " + it.Check + " still fails: " + f.Measured + ", needs " + f.Required
			return
		}
	}
	res.Passed = true
	v.Summary += "; " + it.Check + " passes"
}

// itemRegion is where the item's node is on the after screen: the node verify found
// again, else the item's own bounds.
func itemRegion(it store.Item, v *store.Verification) *capture.Bounds {
	if v.Node != nil && v.Node.Found && v.Node.Bounds != nil {
		b := v.Node.Bounds
		return &capture.Bounds{Left: b.Left, Top: b.Top, Right: b.Right, Bottom: b.Bottom}
	}
	if b := it.Target.Bounds; b != nil {
		return &capture.Bounds{Left: b.Left, Top: b.Top, Right: b.Right, Bottom: b.Bottom}
	}
	return nil
}

// sameSpot: a finding is about the item's node when each box holds the other's
// centre (a fixed node may have grown around its old centre, so equal bounds are
// not required).
func sameSpot(a, b capture.Bounds) bool {
	return holds(a, (b.Left+b.Right)/2, (b.Top+b.Bottom)/2) && holds(b, (a.Left+a.Right)/2, (a.Top+a.Bottom)/2)
}

func holds(b capture.Bounds, x, y int) bool {
	return x >= b.Left && x < b.Right && y >= b.Top && y < b.Bottom
}
