package handoff

import (
	"fmt"
	"strings"
)

// Verification postures.
const (
	VerifySourceFirst = "source-first"
	VerifyCorroborate = "corroborate"
	VerifyHintOnly    = "hint-only"
	VerifyManual      = "manual"
)

// Reason tokens of the verify: line's because= list.
const (
	ReasonTargetHigh         = "target-high"
	ReasonTargetMedium       = "target-medium"
	ReasonTargetLow          = "target-low"
	ReasonTargetUnknown      = "target-unknown"
	ReasonSourceHigh         = "source-high"
	ReasonSourceMedium       = "source-medium"
	ReasonSourceLow          = "source-low"
	ReasonNarrowMargin       = "narrow-margin"
	ReasonNoSource           = "no-source"
	ReasonStaleSource        = "stale-source"
	ReasonVisualArea         = "visual-area"
	ReasonScreenNote         = "screen-note"
	ReasonForcedMismatch     = "forced-mismatch"
	ReasonMissingFingerprint = "missing-fingerprint"
	ReasonRedacted           = "redacted"
	ReasonInterop            = "interop"
	ReasonOverlap            = "overlap"
	ReasonDuplicate          = "duplicate"
)

// narrowMargin is the rank-1 lead below which source evidence is not strong.
const narrowMargin = 0.25

func redacted(t Target) bool { return t.Sensitive || t.Password || t.Editable }

// targetConfidence is the item's own grade, or one derived from the target:
// a testTag is high, a visible label medium, an unlabelled node or an area
// low, a screen-level note unknown; a forced mismatch lowers it a step.
func targetConfidence(it *Item) string {
	switch c := it.TargetConfidence; c {
	case "high", "medium", "low", "unknown":
		return c
	}
	t := it.Target
	var c string
	switch {
	case t.Kind == TargetScreen:
		return "unknown"
	case t.Kind == TargetArea:
		c = "low"
	case t.Tag != "":
		c = "high"
	case t.Text != "" || t.ContentDescription != "":
		c = "medium"
	default:
		c = "low"
	}
	if it.ForcedMismatch {
		c = map[string]string{"high": "medium", "medium": "low", "low": "low"}[c]
	}
	return c
}

func staleSource(it *Item) bool {
	for i, c := range it.Candidates {
		if i < maxCandidates && c.Stale {
			return true
		}
	}
	return false
}

func interop(it *Item) bool {
	if it.Target.Interop {
		return true
	}
	c := strings.ToLower(it.Target.Class)
	return strings.Contains(c, "webview") || strings.Contains(c, "androidview")
}

// UnderKeyboardWarning is the caveat of a target the on-screen keyboard covered.
const UnderKeyboardWarning = "under-keyboard: the on-screen keyboard covered the target when it was captured; the screenshot shows the keyboard there, and the layout may change once it is hidden"

// warnings lists the item's caveats: derived ones first, then its own.
func warnings(p *itemPlan) []string {
	it := p.item
	var w []string
	if k := p.screen.Keyboard; k != nil && it.Target.Kind != TargetScreen && boxesMeet(it.Target.Box, *k) {
		w = append(w, UnderKeyboardWarning)
	}
	if it.Target.Kind == TargetArea {
		w = append(w, "visual-area-only: no UI node was selected; candidates come from nodes in or near the area")
	}
	if interop(it) {
		w = append(w, "possible AndroidView/WebView interop: Compose source may not own this content")
	}
	if staleSource(it) {
		w = append(w, "stale source index: a candidate line changed after indexing; re-read the file")
	}
	if it.ForcedMismatch {
		w = append(w, "saved over a screen mismatch (forced)")
	}
	if it.MissingFingerprint {
		w = append(w, "missing fingerprint: the screen could not be fingerprinted; it may not match the current app state")
	}
	if redacted(it.Target) {
		w = append(w, "sensitive text redaction: the target's text was withheld")
	}
	seen := map[string]bool{}
	for _, x := range w {
		seen[x] = true
	}
	for _, x := range it.Warnings {
		x = oneLine(x)
		if x != "" && !seen[x] {
			seen[x] = true
			w = append(w, x)
		}
	}
	return w
}

// verification derives the item's posture and its reasons.
func verification(p *itemPlan) (string, []string) {
	it := p.item
	tc := targetConfidence(it)
	var reasons []string
	add := func(ok bool, r string) {
		if ok {
			reasons = append(reasons, r)
		}
	}
	reasons = append(reasons, "target-"+tc)
	strongSource := false
	if len(it.Candidates) == 0 {
		reasons = append(reasons, ReasonNoSource)
	} else {
		top := it.Candidates[0]
		reasons = append(reasons, "source-"+top.Confidence)
		narrow := len(it.Candidates) > 1 && top.Margin < narrowMargin
		add(narrow, ReasonNarrowMargin)
		strongSource = top.Confidence == "high" && !narrow
	}
	blockers := []struct {
		on bool
		r  string
	}{
		{it.Target.Kind == TargetArea, ReasonVisualArea},
		{it.Target.Kind == TargetScreen, ReasonScreenNote},
		{staleSource(it), ReasonStaleSource},
		{it.ForcedMismatch, ReasonForcedMismatch},
		{it.MissingFingerprint, ReasonMissingFingerprint},
		{redacted(it.Target), ReasonRedacted},
		{interop(it), ReasonInterop},
		{p.overlap, ReasonOverlap},
		{p.duplicateOf != 0, ReasonDuplicate},
	}
	blocked := false
	for _, b := range blockers {
		add(b.on, b.r)
		blocked = blocked || b.on
	}
	allStale := len(it.Candidates) > 0
	for _, c := range it.Candidates {
		allStale = allStale && c.Stale
	}
	switch {
	case len(it.Candidates) == 0 || it.ForcedMismatch || tc == "unknown" || allStale:
		return VerifyManual, reasons
	case !blocked && tc == "high" && strongSource:
		return VerifySourceFirst, reasons
	case tc == "low" || it.Candidates[0].Confidence == "low" || it.Target.Kind == TargetArea || p.overlap:
		return VerifyHintOnly, reasons
	default:
		return VerifyCorroborate, reasons
	}
}

// targetAction turns the posture into the grammar's action guidance.
func targetAction(posture string) string {
	return map[string]string{
		VerifySourceFirst: "inspect-source-first",
		VerifyCorroborate: "inspect-and-corroborate",
		VerifyHintOnly:    "treat-source-paths-as-hints",
		VerifyManual:      "verify-manually",
	}[posture]
}

// verifyBeforeEdit lists the agent's checks before changing code.
func verifyBeforeEdit(p *itemPlan, posture string, surfaces int) []string {
	it := p.item
	tokens := []string{"claim-feedback"}
	if len(it.Candidates) > 0 {
		tokens = append(tokens, "inspect-source")
	}
	if !p.screen.Secure && (p.screen.ScreenshotPath != "" || it.CropPath != "") {
		tokens = append(tokens, "compare-screenshot")
	}
	if it.Target.Kind == TargetNode {
		tokens = append(tokens, "check-target-summary")
	}
	if surfaces > 0 {
		tokens = append(tokens, "review-edit-surface")
	}
	if posture == VerifyManual || posture == VerifyHintOnly {
		tokens = append(tokens, "verify-manually")
	}
	if n := it.Network; n != nil && len(n.Failed)+len(n.Slow) > 0 {
		tokens = append(tokens, "check-network")
	}
	seen := map[string]bool{}
	for i, ev := range it.RuntimeEvidence {
		if i >= maxEvidence {
			break
		}
		if t := evidenceToken(ev.Type); t != "" && !seen[t] {
			seen[t] = true
			tokens = append(tokens, t)
		}
	}
	return tokens
}

func evidenceToken(kind string) string {
	k := strings.ToLower(kind)
	switch {
	case strings.Contains(k, "logcat") || strings.Contains(k, "log"):
		return "check-logcat"
	case strings.Contains(k, "frame") || strings.Contains(k, "gfx") || strings.Contains(k, "jank"):
		return "check-frame-summary"
	case strings.Contains(k, "mem"):
		return "check-memory-summary"
	}
	return ""
}

// qualityTokens summarises the warning signals of the rendered items, in the
// grammar's order; nil when there is nothing to report.
func qualityTokens(plans []screenPlan) []string {
	var lowTarget, warned, groups, dups, areas, red, stale, none int
	for _, sp := range plans {
		for _, b := range sp.blocks {
			if b.group > 0 {
				groups++
			}
			for _, p := range b.items {
				it := p.item
				if tc := targetConfidence(it); tc == "low" || tc == "unknown" {
					lowTarget++
				}
				if len(warnings(p)) > 0 {
					warned++
				}
				if p.duplicateOf != 0 {
					dups++
				}
				if it.Target.Kind == TargetArea {
					areas++
				}
				if redacted(it.Target) {
					red++
				}
				if staleSource(it) {
					stale++
				}
				if len(it.Candidates) == 0 {
					none++
				}
			}
		}
	}
	var out []string
	for _, q := range []struct {
		name string
		n    int
	}{
		{"low-confidence-targets", lowTarget}, {"warnings", warned}, {"overlap-groups", groups},
		{"duplicate-markers", dups}, {"visual-areas", areas}, {"redacted-targets", red},
		{"stale-sources", stale}, {"no-source-candidates", none},
	} {
		if q.n > 0 {
			out = append(out, fmt.Sprintf("%s=%d", q.name, q.n))
		}
	}
	return out
}

// boxesMeet reports whether two boxes share any pixel.
func boxesMeet(a, b Box) bool {
	return a.Left < b.Right && b.Left < a.Right && a.Top < b.Bottom && b.Top < a.Bottom
}
