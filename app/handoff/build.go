// Package prompt turns a stored feedback session into the handoff model: evidence paths,
// node details from the saved UI tree, and source candidates from the project index.
// The console API, the MCP tools and `fixthis prompt` all render through it, so an
// agent sees the same prompt whichever way it arrives.
package handoff

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"fixthis/app/errcode"
	"fixthis/app/source"
	"fixthis/app/store"
	"fixthis/capture"
)

// Builder converts store sessions into handoff sessions.
type Builder struct {
	Store *store.Store
	// Index returns the current source index, or nil while none is available; the
	// readiness then says why (no project directory, still building…).
	Index func() (idx *source.Index, reason source.Readiness)

	mu    sync.Mutex
	trees map[string]*capture.Tree // nodes artifact → parsed tree (immutable, content-addressed)
}

// keptCandidates is how many ranked candidates an item keeps (the prompt shows
// maxCandidates of them).
const keptCandidates = 5

// Session loads sessionID and converts it. Every item is converted; the renderer's
// Options.ItemIDs picks which ones a prompt shows.
func (b *Builder) Session(ctx context.Context, sessionID string) (Session, *store.Session, error) {
	sess, err := b.Store.GetSession(ctx, sessionID)
	if err != nil {
		return Session{}, nil, err
	}
	return b.Convert(ctx, sess), sess, nil
}

// Markdown renders the compact prompt for itemIDs (all items when empty).
func (b *Builder) Markdown(ctx context.Context, sessionID string, itemIDs []string) (string, error) {
	hs, _, err := b.Session(ctx, sessionID)
	if err != nil {
		return "", err
	}
	return Render(hs, b.renderOptions(itemIDs)), nil
}

func (b *Builder) renderOptions(itemIDs []string) Options {
	opts := Options{ItemIDs: itemIDs}
	if _, reason := b.index(); reason != source.Ready {
		opts.NoSource = reason
	}
	return opts
}

func (b *Builder) index() (*source.Index, source.Readiness) {
	if b.Index == nil {
		return nil, source.NoSources
	}
	return b.Index()
}

// Convert maps a stored session onto the handoff model.
func (b *Builder) Convert(ctx context.Context, sess *store.Session) Session {
	out := Session{
		ID:        sess.SessionID,
		Title:     sess.Title,
		Status:    string(sess.Status),
		CreatedAt: sess.CreatedAt,
	}
	if b := sess.AppBuild; b != nil {
		out.Build = &Build{Package: b.Package, VersionName: b.VersionName, VersionCode: b.VersionCode,
			Installed: b.LastUpdateTime, GitHead: b.GitHead, GitDirty: b.GitDirty}
	}
	screens := map[string]store.Screen{}
	for _, sc := range sess.Screens {
		screens[sc.ScreenID] = sc
		if out.Package == "" {
			out.Package = sc.Package
		}
		hs := Screen{
			ID:          sc.ScreenID,
			DisplayName: displayName(sc),
			Width:       sc.Width,
			Height:      sc.Height,
			Activity:    sc.Activity,
			Fingerprint: sc.Fingerprint,
			Rotation:    sc.Display.Rotation,
			Dialog:      sc.Display.Dialog,
			Secure:      sc.Display.Secure,
			Display:     sc.Display.Conditions.Line(),
			Serial:      sc.Serial,
		}
		if k := sc.Display.Keyboard; k != nil {
			hs.Keyboard = &Box{Left: k.Left, Top: k.Top, Right: k.Right, Bottom: k.Bottom}
		}
		if sc.ImageArtifact != "" {
			hs.ScreenshotPath, _ = b.Store.ArtifactPath(sc.ImageArtifact)
		}
		out.Screens = append(out.Screens, hs)
	}
	idx, _ := b.index()
	for _, it := range sess.Items {
		out.Items = append(out.Items, b.item(ctx, it, screens[it.ScreenID], idx))
	}
	b.attachEvidence(ctx, &out)
	return out
}

// Item converts one item of a session, with its candidates: what the inspector shows
// for a selected annotation, without matching every other item of the session.
func (b *Builder) Item(ctx context.Context, sessionID, itemID string) (Item, error) {
	sess, err := b.Store.GetSession(ctx, sessionID)
	if err != nil {
		return Item{}, err
	}
	for _, it := range sess.Items {
		if it.ItemID != itemID {
			continue
		}
		var sc store.Screen
		for _, s := range sess.Screens {
			if s.ScreenID == it.ScreenID {
				sc = s
			}
		}
		idx, _ := b.index()
		return b.item(ctx, it, sc, idx), nil
	}
	return Item{}, errcode.New(errcode.ItemNotFound, "no item %s in session %s", errcode.Quote(itemID), errcode.Quote(sessionID))
}

// displayName is the screen's short activity name ("MainActivity"), what a developer
// calls the screen; the full name follows on the activity: line.
func displayName(sc store.Screen) string {
	if sc.Activity != "" {
		if i := strings.LastIndexAny(sc.Activity, "./"); i >= 0 && i < len(sc.Activity)-1 {
			return sc.Activity[i+1:]
		}
		return sc.Activity
	}
	if sc.Package != "" {
		return sc.Package
	}
	return "Screen"
}

func (b *Builder) item(ctx context.Context, it store.Item, sc store.Screen, idx *source.Index) Item {
	hi := Item{
		Verification:  b.verification(ctx, it),
		ID:            it.ItemID,
		ScreenID:      it.ScreenID,
		Sequence:      it.SequenceNumber,
		Severity:      string(it.Severity),
		Comment:       it.Comment,
		Delivery:      string(it.Delivery),
		Status:        string(it.Status),
		ResolvedBy:    string(it.ResolvedBy),
		AgentSummary:  it.AgentSummary,
		AgentQuestion: it.AgentQuestion,
		UserAnswer:    it.UserAnswer,
		CreatedAt:     it.CreatedAt,
		Target:        Target{Kind: string(it.Target.Type)},
	}
	if it.CropArtifact != "" {
		hi.CropPath, _ = b.Store.ArtifactPath(it.CropArtifact)
	}
	if it.Voice != nil {
		hi.Said = it.Voice.Excerpt
	}
	hi.Check = it.Check
	hi.Clip = b.clipOf(it.Clip)
	hi.Sizes = b.sizesOf(it.Sizes)
	if sc.Fingerprint == "" && sc.ScreenID != "" {
		hi.MissingFingerprint = true
	}
	if it.Verdict == store.VerdictReopened {
		w := "reopened by the user after your fix: " + strconv.Quote(it.VerdictNote)
		if v := hi.Verification; v != nil && v.Summary != "" {
			w += "; your after-capture showed: " + v.Summary
		}
		hi.Warnings = append(hi.Warnings, w)
	}
	// Saved over a fingerprint mismatch: the screenshot may show another screen,
	// so the prompt warns and never sends the agent to the source first.
	hi.ForcedMismatch = it.ForcedSave
	t := &hi.Target
	if it.Target.Bounds != nil {
		bb := it.Target.Bounds
		t.Box = Box{Left: bb.Left, Top: bb.Top, Right: bb.Right, Bottom: bb.Bottom}
	} else if sc.Width > 0 {
		t.Box = Box{Right: sc.Width, Bottom: sc.Height}
	}
	if s := it.Target.Snapshot; s != nil {
		t.Role, t.Tag, t.Text, t.ContentDescription, t.Class = s.Role, s.TestTag, s.Text, s.ContentDescription, s.Class
	}
	tree := b.tree(ctx, sc.NodesArtifact)
	var nearby []capture.Node
	if tree != nil {
		if n, ok := tree.ByUID(it.Target.NodeUID); ok && it.Target.Type == store.TargetNode {
			t.Path = n.IndexPath
			t.Password, t.Editable, t.Sensitive = n.Password, n.Editable, n.Redacted
			for _, anc := range tree.Ancestors(n.UID) {
				if isInterop(anc.Class) {
					t.Interop = true
				}
			}
		}
		if it.Target.Type != store.TargetScreen && t.Box.Right > t.Box.Left {
			hit := tree.HitArea(capture.Bounds{Left: t.Box.Left, Top: t.Box.Top, Right: t.Box.Right, Bottom: t.Box.Bottom})
			nearby = hit.Nearby
			if it.Target.Type == store.TargetArea && hit.Node != nil {
				// An area's best-overlapping node stands in for the selection.
				nearby = append([]capture.Node{*hit.Node}, nearby...)
			}
		}
	}
	if idx != nil && it.Target.Type != store.TargetScreen {
		q := source.Query{Text: t.Text, ContentDescription: t.ContentDescription, TestTag: t.Tag, Role: t.Role, Activity: sc.Activity}
		if s := it.Target.Snapshot; s != nil {
			q.ResourceID = s.ResourceID // a View's android:id, matched in layout XML
		}
		if t.Password || t.Editable || t.Sensitive {
			q.Text = "" // never search for what the user typed
		}
		for _, n := range nearby {
			if n.UID == it.Target.NodeUID || n.Redacted {
				continue
			}
			q.Nearby = append(q.Nearby, source.NearbyNode{Text: n.Text, ContentDescription: n.ContentDescription, TestTag: n.TestTag, Role: n.Role, ResourceID: n.ResourceID})
		}
		cands := idx.Match(q)
		if len(cands) > keptCandidates {
			cands = cands[:keptCandidates]
		}
		hi.Candidates = cands
		hi.EditSurfaces = source.EditSurfaces(it.Comment, source.SurfaceTarget{Kind: t.Kind, Class: t.Class, Interop: t.Interop}, cands)
	}
	return hi
}

func isInterop(class string) bool {
	c := strings.ToLower(class)
	return strings.Contains(c, "webview") || strings.Contains(c, "androidview")
}

// tree loads and caches the UI tree saved with a screen.
func (b *Builder) tree(ctx context.Context, artifact string) *capture.Tree {
	if artifact == "" {
		return nil
	}
	b.mu.Lock()
	if t, ok := b.trees[artifact]; ok {
		b.mu.Unlock()
		return t
	}
	b.mu.Unlock()
	data, err := b.Store.ReadArtifact(ctx, artifact)
	if err != nil {
		return nil
	}
	var nodes []capture.Node
	if err := json.Unmarshal(data, &nodes); err != nil {
		return nil
	}
	t := capture.NewTree(nodes)
	b.mu.Lock()
	if b.trees == nil {
		b.trees = map[string]*capture.Tree{}
	}
	if len(b.trees) > 64 {
		clear(b.trees)
	}
	b.trees[artifact] = t
	b.mu.Unlock()
	return t
}

// ExportJSON is the full JSON export of a session.
func (b *Builder) ExportJSON(ctx context.Context, sessionID string) ([]byte, error) {
	hs, _, err := b.Session(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	data, err := ExportJSON(hs)
	if err != nil {
		return nil, fmt.Errorf("export session %s: %w", sessionID, err)
	}
	return data, nil
}

// ExportMarkdown is the full Markdown export of a session.
func (b *Builder) ExportMarkdown(ctx context.Context, sessionID string) (string, error) {
	hs, _, err := b.Session(ctx, sessionID)
	if err != nil {
		return "", err
	}
	return ExportMarkdown(hs), nil
}

// verification carries the agent's check of its fix into the prompt and the export.
// A reopened item also gets a warning line: the agent must not repeat that fix.
func (b *Builder) verification(ctx context.Context, it store.Item) *Verification {
	v := it.Verification
	if v == nil && it.Verdict == "" {
		return nil
	}
	out := &Verification{Verdict: it.Verdict, VerdictNote: it.VerdictNote}
	if v != nil {
		out.Summary = v.Summary
		if c, err := b.Store.GetCapture(ctx, v.CaptureID); err == nil {
			out.AfterScreenshotPath, _ = b.Store.ArtifactPath(c.ImageArtifact)
		}
	}
	return out
}
