package handoff

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ExportSchema names the JSON export format.
const ExportSchema = "fixthis.session-export.v1"

// exportDoc is the full JSON export: the session as given plus what the
// renderer derives for each item, so a tool can act without the prompt.
type exportDoc struct {
	Schema  string        `json:"schema"`
	Session Session       `json:"session"`
	Derived []exportItem  `json:"derived"`
	Quality []string      `json:"handoffQuality"`
	Groups  []exportGroup `json:"overlapGroups"`
	Root    string        `json:"sourceRoot,omitempty"`
}

type exportItem struct {
	ItemID           string   `json:"itemId"`
	Sequence         int      `json:"sequenceNumber"`
	TargetSummary    string   `json:"targetSummary"`
	TargetConfidence string   `json:"targetConfidence"`
	Verify           string   `json:"verify"`
	Because          []string `json:"because"`
	VerifyBeforeEdit []string `json:"verifyBeforeEdit"`
	Warnings         []string `json:"warnings"`
	OverlapGroup     int      `json:"overlapGroup,omitempty"`
	DuplicateOf      int      `json:"duplicateOfMarker,omitempty"`
	Instance         string   `json:"instance,omitempty"`
}

type exportGroup struct {
	Group   int   `json:"group"`
	Markers []int `json:"markers"`
}

// ExportJSON returns the full JSON export of a session.
func ExportJSON(s Session) ([]byte, error) {
	plans := plan(&s, Options{})
	doc := exportDoc{Schema: ExportSchema, Session: s, Quality: qualityTokens(plans), Root: sourceRoot(plans),
		Derived: []exportItem{}, Groups: []exportGroup{}}
	if doc.Quality == nil {
		doc.Quality = []string{}
	}
	for _, sp := range plans {
		for _, b := range sp.blocks {
			var g exportGroup
			for _, p := range b.items {
				posture, reasons := verification(p)
				surfaces := min(len(p.item.EditSurfaces), 2)
				e := exportItem{
					ItemID: p.item.ID, Sequence: p.item.Sequence, TargetSummary: targetSummary(p.item.Target),
					TargetConfidence: targetConfidence(p.item), Verify: posture, Because: reasons,
					VerifyBeforeEdit: verifyBeforeEdit(p, posture, surfaces), Warnings: warnings(p),
					OverlapGroup: b.group, DuplicateOf: p.duplicateOf,
				}
				if e.Warnings == nil {
					e.Warnings = []string{}
				}
				if p.instance > 0 {
					e.Instance = fmt.Sprintf("%d/%d", p.instance, p.instances)
				}
				doc.Derived = append(doc.Derived, e)
				g.Markers = append(g.Markers, p.item.Sequence)
			}
			if b.group > 0 {
				g.Group = b.group
				doc.Groups = append(doc.Groups, g)
			}
		}
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("export session %s as JSON: %w", s.ID, err)
	}
	return out, nil
}

// ExportMarkdown returns the full, human-oriented Markdown export: every
// item with its comment, lifecycle, target, owner-aware candidates, edit
// surfaces, warnings and agent exchange.
func ExportMarkdown(s Session) string {
	plans := plan(&s, Options{})
	var w writer
	title := oneLine(s.Title)
	if title == "" {
		title = "Feedback session " + oneLine(s.ID)
	}
	w.line("# " + title)
	w.line("")
	w.line("- Session: `" + oneLine(s.ID) + "`")
	w.line("- Package: `" + oneLine(s.Package) + "`")
	if s.Build != nil {
		w.line(buildLine(s.Build))
	}
	if s.Status != "" {
		w.line("- Status: " + oneLine(s.Status))
	}
	for _, sp := range plans {
		sc := sp.screen
		w.line("")
		w.line("## Screen " + shortID(sc.ID) + ": " + oneLine(sc.DisplayName))
		w.line("")
		if sc.Activity != "" {
			w.line("- Activity: `" + oneLine(sc.Activity) + "`")
		}
		if sc.Width > 0 && sc.Height > 0 {
			w.line(fmt.Sprintf("- Viewport: %d×%d", sc.Width, sc.Height))
		}
		if sc.ScreenshotPath != "" {
			w.line("- Screenshot: `" + oneLine(sc.ScreenshotPath) + "`")
		}
		for _, b := range sp.blocks {
			for _, p := range b.items {
				markdownItem(&w, p, b.group)
			}
		}
	}
	return w.String()
}

func markdownItem(w *writer, p *itemPlan, group int) {
	it := p.item
	w.line("")
	w.line(fmt.Sprintf("### [%d] %s", it.Sequence, oneLine(it.Comment)))
	w.line("")
	field := func(k, v string) {
		if v = oneLine(v); v != "" {
			w.line("- " + k + ": " + v)
		}
	}
	field("Item", "`"+it.ID+"`")
	field("Severity", it.Severity)
	field("Delivery", it.Delivery)
	field("Status", it.Status)
	field("Resolved by", it.ResolvedBy)
	field("Target", targetSummary(it.Target))
	b := it.Target.Box
	field("Bounds", fmt.Sprintf("(%d,%d)-(%d,%d)", b.Left, b.Top, b.Right, b.Bottom))
	if group > 0 {
		field("Overlap group", fmt.Sprint(group))
	}
	if p.duplicateOf != 0 {
		field("Duplicate of marker", fmt.Sprint(p.duplicateOf))
	}
	field("Crop", it.CropPath)
	if c := it.Clip; c != nil && c.Path != "" {
		field("Clip", fmt.Sprintf("%s (%.1f s, %d frames, %dx%d)", c.Path, float64(c.DurationMs)/1000, c.Frames, c.Width, c.Height))
		field("Frame strip", c.FrameStripPath)
		field("Timeline", c.Timeline)
	}
	posture, reasons := verification(p)
	field("Verify", posture+" ("+strings.Join(reasons, ", ")+")")
	if len(it.Candidates) > 0 {
		w.line("- Source candidates:")
		for _, c := range it.Candidates {
			l := fmt.Sprintf("  - `%s:%d`", c.File, c.Line)
			if c.Owner != "" {
				l += " inside fun " + c.Owner
			}
			l += fmt.Sprintf(" — conf=%s score=%.2f margin=%.2f matched=[%s]", level(c.Confidence), c.Score, c.Margin, terms(c.Matched, 0))
			if c.Stale {
				l += " (stale)"
			}
			w.line(l)
		}
		if top := it.Candidates[0]; len(top.CallSites) > 0 {
			w.line("- Shared component used at: " + strings.Join(top.CallSites, ", "))
		}
	}
	for _, es := range it.EditSurfaces {
		l := fmt.Sprintf("- Edit surface (%s, %s): `%s", es.Kind, es.Role, es.File)
		if es.Line > 0 {
			l += fmt.Sprintf(":%d", es.Line)
		}
		l += "`"
		if a := oneLine(es.Action); a != "" {
			l += " — " + a
		}
		w.line(l)
	}
	for _, x := range warnings(p) {
		field("Warning", x)
	}
	for _, ev := range it.RuntimeEvidence {
		field("Runtime evidence ("+oneLine(ev.Type)+")", bounded(oneLine(ev.Summary), maxSummaryRunes))
	}
	field("Agent question", it.AgentQuestion)
	field("User answer", it.UserAnswer)
	field("Agent summary", it.AgentSummary)
	if v := it.Verification; v != nil {
		field("After screenshot", oneLine(v.AfterScreenshotPath))
		field("What changed", bounded(oneLine(v.Summary), maxSummaryRunes))
		field("User's verdict", oneLine(strings.TrimSpace(v.Verdict+" "+v.VerdictNote)))
	}
}
