package mcp

import (
	"context"
	"errors"

	"fixthis/app/store"
	"fixthis/capture"
)

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
