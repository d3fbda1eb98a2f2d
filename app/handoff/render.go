package handoff

import (
	"fmt"
	"strings"

	"fixthis/adb"
	"fixthis/app/source"
)

// Fixed lines of the v2 grammar.
const (
	Header   = "# FixThis Feedback Handoff"
	RuleLine = "Rule: source hints are candidates; verify screenshot, target, and code before editing."
	// SecureScreenshot replaces the screenshot path of a FLAG_SECURE screen.
	SecureScreenshot = "unavailable (FLAG_SECURE: the app blocks screen capture, so the screenshot is black; the UI tree was read normally)"
	// CollisionNote is the note on the first item of an instance group.
	CollisionNote = "%d markers map to same call site — likely list-rendered; disambiguate by instance index"
)

// Footer lines naming the MCP tools this app serves. The grammar fixes them
// exactly, so fixthis_wait_for_feedback and fixthis_ask are not added here.
var footer = []string{
	"---",
	"agent_protocol:",
	"  before_work: fixthis_claim_feedback({sessionId, itemId})",
	"  on_complete: fixthis_resolve_feedback({sessionId, itemId, status: resolved|wont_fix|needs_clarification, summary})",
	"  user_console_reflects_within: 2s",
}

// Bounds on free text so one long value cannot swamp the prompt.
const (
	maxValueRunes   = 80
	maxSummaryRunes = 200
	maxWarnings     = 8
)

// Render produces the compact prompt for the session, line for line per the
// v2 grammar. Items are taken in sequence order, grouped by screen.
func Render(s Session, opts Options) string {
	plans := plan(&s, opts)
	var w writer
	w.line(Header)
	w.line("")
	w.line(RuleLine)
	w.line("")
	pkg := oneLine(s.Package)
	if pkg == "" {
		pkg = "unknown"
	}
	w.line("- Package: `" + strings.ReplaceAll(pkg, "`", "'") + "`")
	if b := s.Build; b != nil {
		w.line(buildLine(b))
	}
	root := sourceRoot(plans)
	if root != "" {
		w.line("- Source root: `" + strings.ReplaceAll(root, "`", "'") + "`")
	}
	if q := qualityTokens(plans); len(q) > 0 {
		w.line("Handoff quality: " + strings.Join(q, ", "))
	}
	w.line("")
	for _, sp := range plans {
		renderScreen(&w, sp, root, opts)
	}
	for _, l := range footer {
		w.line(l)
	}
	w.line("session_id: " + oneLine(s.ID))
	if a := opts.Attempt; a != nil {
		renderAttempt(&w, a)
	}
	return w.String()
}

type writer struct{ strings.Builder }

func (w *writer) line(s string) {
	w.WriteString(s)
	w.WriteByte('\n')
}

func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

func renderScreen(w *writer, sp screenPlan, root string, opts Options) {
	sc := sp.screen
	name := oneLine(sc.DisplayName)
	if name == "" {
		name = "screen"
	}
	w.line("Screen " + shortID(oneLine(sc.ID)) + ": " + name)
	switch {
	case sc.Secure:
		w.line("screenshot: " + SecureScreenshot)
	case sc.ScreenshotPath != "":
		w.line("screenshot: " + oneLine(sc.ScreenshotPath))
	}
	if sc.Width > 0 && sc.Height > 0 {
		w.line(fmt.Sprintf("viewport: %d×%d", sc.Width, sc.Height))
	}
	if sc.Rotation%2 == 1 || sc.Width > sc.Height {
		w.line(fmt.Sprintf("orientation: landscape  rotation=%d", sc.Rotation))
	}
	if sc.Serial != "" && adb.CheckSerial(sc.Serial) == nil {
		// The phone the screen came from, not the one selected now: with phones
		// side by side an agent names this serial. One that is not a serial adb
		// would take is left out rather than repaired.
		w.line("phone: " + sc.Serial)
	}
	if a := oneLine(sc.Activity); a != "" && a != name {
		w.line("activity: " + a)
	}
	if d := oneLine(sc.Dialog); d != "" {
		w.line("window: dialog " + quote(d) + " (targets are inside this dialog, not in the screen behind it)")
	}
	if k := sc.Keyboard; k != nil {
		w.line("keyboard: shown  box=" + boxString(*k))
	}
	if d := oneLine(sc.Display); d != "" {
		w.line("display: " + d)
	}
	w.line("")
	for _, b := range sp.blocks {
		if b.group > 0 {
			w.line(fmt.Sprintf("Overlap group %d (resolve one marker at a time):", b.group))
		}
		for _, p := range b.items {
			renderItem(w, p, root, opts)
		}
	}
}

func renderItem(w *writer, p *itemPlan, root string, opts Options) {
	it := p.item
	title := oneLine(it.Comment)
	if title == "" {
		title = "(no comment)"
	}
	if strings.EqualFold(it.Severity, SeverityHigh) {
		title = "[!] " + title
	}
	w.line(fmt.Sprintf("[%d] %s", it.Sequence, title))
	w.line("  id: " + oneLine(it.ID))
	w.line("  target: " + targetSummary(it.Target))
	w.line(targetLine(p))
	if checkID(it.Check) {
		w.line("  check: " + it.Check)
	}
	if said := oneLine(it.Said); said != "" {
		w.line("  said: " + quoteN(said, maxSaidRunes))
	}
	if it.CropPath != "" {
		w.line("crop: " + oneLine(it.CropPath))
	}
	renderClip(w, it.Clip)
	renderSizes(w, it.Sizes)
	surfaces := 0
	for _, es := range it.EditSurfaces {
		if surfaces == 2 || es.File == "" {
			continue
		}
		surfaces++
		l := "  editSurface: " + token(es.Kind, "general")
		if es.Role != "" {
			l += "  role=" + token(es.Role, "call-site")
		}
		l += " -> " + oneLine(es.File)
		if es.Line > 0 {
			l += fmt.Sprintf(":%d", es.Line)
		}
		l += "  conf=" + level(es.Confidence) + "  why=[" + terms(es.Why, 0) + "]"
		if b := oneLine(es.Basis); b != "" {
			l += "  basis=" + b
		}
		w.line(l)
		if a := oneLine(es.Action); a != "" {
			w.line("  action: " + a)
		}
	}
	renderSources(w, p, root, opts)
	renderReliability(w, p, surfaces)
	w.line("")
}

// renderClip writes the clip lines: the MP4 with its length, pictures and size, then
// the frame strip and the timeline (an agent reads those; it cannot watch the video).
func renderClip(w *writer, c *Clip) {
	if c == nil || c.Path == "" {
		return
	}
	w.line(fmt.Sprintf("clip: %s  duration=%.1fs  frames=%d  size=%dx%d", oneLine(c.Path),
		float64(c.DurationMs)/1000, c.Frames, c.Width, c.Height))
	strip := "none"
	if c.FrameStripPath != "" {
		strip = oneLine(c.FrameStripPath)
	}
	l := fmt.Sprintf("frames: %s  stalls=%d  longestStall=%dms", strip, c.Stalls, c.LongestStallMs)
	if tl := oneLine(c.Timeline); tl != "" {
		l += "  timeline=" + clipText(tl, maxTimelineChars)
	}
	w.line(l)
}

// maxTimelineChars bounds the timeline on the frames: line.
const maxTimelineChars = 400

func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// targetSummary is the redaction-safe description of the selected target.
func targetSummary(t Target) string {
	switch t.Kind {
	case TargetArea:
		return "visual area"
	case TargetScreen:
		return "whole screen"
	}
	if redacted(t) {
		return "redacted sensitive target"
	}
	var parts []string
	if t.Tag != "" {
		parts = append(parts, "tag="+quote(t.Tag))
	}
	if t.Text != "" {
		parts = append(parts, "text="+quote(t.Text))
	}
	if t.ContentDescription != "" {
		parts = append(parts, "contentDescription="+quote(t.ContentDescription))
	}
	if r := token(t.Role, ""); r != "" {
		parts = append(parts, "role="+r)
	}
	if len(parts) == 0 {
		if c := token(t.Class, ""); c != "" {
			return "unlabeled node class=" + c
		}
		return "unlabeled node"
	}
	return strings.Join(parts, " ")
}

func targetLine(p *itemPlan) string {
	t := p.item.Target
	var b strings.Builder
	b.WriteString("  ")
	if t.Kind == TargetNode {
		if r := token(t.Role, ""); r != "" {
			b.WriteString("role=" + r + "  ")
		}
		if t.Tag != "" {
			b.WriteString("tag=" + token(t.Tag, "") + "  ")
		}
	}
	b.WriteString("box=" + boxString(t.Box))
	if p.instance > 0 {
		fmt.Fprintf(&b, "  instance %d/%d", p.instance, p.instances)
	}
	if p.overlap {
		b.WriteString("; targetRisk=overlap")
	}
	if p.duplicateOf != 0 {
		fmt.Fprintf(&b, "; targetRisk=duplicate-of-marker-%d", p.duplicateOf)
	}
	return b.String()
}

func renderSources(w *writer, p *itemPlan, root string, opts Options) {
	it := p.item
	if len(it.Candidates) == 0 {
		reason := token(string(opts.NoSource), string(source.NoMatch))
		w.line("  unknown  conf=none  reason=" + reason)
	}
	for i, c := range it.Candidates {
		if i == maxCandidates {
			break
		}
		file := oneLine(c.File)
		if root != "" {
			file = strings.TrimPrefix(file, root)
		}
		l := fmt.Sprintf("  %s:%d  conf=%s", file, c.Line, level(c.Confidence))
		if ix := indexName(c.Index); ix != "" {
			l += "  index=" + ix
		}
		if i == 0 {
			if o := token(c.Owner, ""); o != "" {
				l += "  owner=" + o
			}
			l += fmt.Sprintf("  margin=%.2f  matched=[%s]", c.Margin, terms(c.Matched, maxMatched))
		}
		w.line(l)
	}
	var notes []string
	if len(it.Candidates) > 0 && it.Candidates[0].Caution != "" {
		notes = append(notes, oneLine(it.Candidates[0].Caution))
	}
	if p.collision > 0 {
		notes = append(notes, fmt.Sprintf(CollisionNote, p.collision))
	}
	if len(notes) > 0 {
		w.line("  note: " + strings.Join(notes, "; "))
	}
}

func renderReliability(w *writer, p *itemPlan, surfaces int) {
	it := p.item
	posture, reasons := verification(p)
	if it.TargetConfidence != "" {
		w.line("  targetConfidence=" + targetConfidence(it))
		w.line("  targetAction=" + targetAction(posture))
	}
	for i, x := range warnings(p) {
		if i == maxWarnings {
			break
		}
		w.line("  warning: " + x)
	}
	w.line("  verify: " + posture + "  because=" + strings.Join(reasons, ","))
	w.line("  verifyBeforeEdit: " + strings.Join(verifyBeforeEdit(p, posture, surfaces), ","))
	if len(it.RuntimeEvidence) > 0 {
		w.line("  runtimeEvidence:")
		for i, ev := range it.RuntimeEvidence {
			if i == maxEvidence {
				break
			}
			art := oneLine(ev.ArtifactPath)
			if art == "" {
				art = "no-artifact"
			}
			w.line("    - " + token(ev.Type, "evidence") + " -> " + art)
			sum := bounded(oneLine(ev.Summary), maxSummaryRunes)
			if sum == "" {
				sum = "(empty)"
			}
			w.line("      summary: " + sum)
		}
	}
	if n := it.Network; n != nil && n.Total > 0 {
		w.line(networkLine(n))
	}
}

// networkLine is `  network: calls=N  failed=[…]  slow=[…]`: up to three calls
// in each list, `+N more` after them, each a few bounded words.
func networkLine(n *NetworkCalls) string {
	l := fmt.Sprintf("  network: calls=%d", n.Total)
	for _, part := range []struct {
		name  string
		calls []string
	}{{"failed", n.Failed}, {"slow", n.Slow}} {
		if len(part.calls) == 0 {
			continue
		}
		var names []string
		for i, c := range part.calls {
			if i == maxNetworkCalls {
				names = append(names, fmt.Sprintf("+%d more", len(part.calls)-i))
				break
			}
			c = strings.NewReplacer("[", "(", "]", ")", ";", ",").Replace(bounded(oneLine(c), maxCallRunes))
			if c == "" {
				c = "(unnamed call)"
			}
			names = append(names, c)
		}
		l += "  " + part.name + "=[" + strings.Join(names, "; ") + "]"
	}
	return l
}

func renderAttempt(w *writer, a *EvidenceAttempt) {
	w.line("")
	w.line("runtimeEvidenceAttempt:")
	w.line(fmt.Sprintf("  attempted=%t", a.Attempted))
	w.line("  status=" + token(a.Status, "skipped"))
	if a.Failure != "" {
		w.line("  failure=" + token(a.Failure, ""))
	}
	if a.Reason != "" {
		w.line("  reason=" + token(a.Reason, ""))
	}
	for i, x := range a.Warnings {
		if i == maxWarnings {
			break
		}
		if t := token(x, ""); t != "" {
			w.line("  warning=" + t)
		}
	}
}
