package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"fixthis/app/source"
	"fixthis/app/store"
)

// multiFlag collects a repeatable string flag (--nearby-text A --nearby-text B).
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ", ") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// runSource is `fixthis source index|match`: the source index the prompt's candidates
// come from, for checking what FixThis sees in a project.
func runSource(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 {
		return usagef("want a subcommand: index or match")
	}
	sub, args := args[0], args[1:]
	f := newFlags("source "+sub, env.Stdout)
	dir := f.String("project-dir", "", "Android project to index (required)")
	asJSON := f.Bool("json", false, "print one JSON document")
	useCache := f.Bool("cache", true, "reuse and update the index cache in <project>/.fixthis (the one the app keeps)")
	var q source.Query
	var nearText, nearRID multiFlag
	if sub == "match" {
		f.StringVar(&q.Text, "text", "", "visible text of the target")
		f.StringVar(&q.ContentDescription, "content-description", "", "content description of the target")
		f.StringVar(&q.TestTag, "test-tag", "", "testTag of the target")
		f.StringVar(&q.Role, "role", "", "role of the target (Button, Text, …)")
		f.StringVar(&q.Activity, "activity", "", "foreground activity")
		f.StringVar(&q.ResourceID, "resource-id", "", "resource-id of the target View (com.example:id/title)")
		f.Var(&nearText, "nearby-text", "text of a node near the target (repeatable)")
		f.Var(&nearRID, "nearby-resource-id", "resource-id of a node near the target (repeatable)")
	} else if sub != "index" {
		return usagef("unknown subcommand %q: want index or match", sub)
	}
	if err := parse(f, args); err != nil {
		return err
	}
	if *dir == "" {
		return usagef("--project-dir DIR is required")
	}
	for _, t := range nearText {
		q.Nearby = append(q.Nearby, source.NearbyNode{Text: t})
	}
	for _, r := range nearRID {
		q.Nearby = append(q.Nearby, source.NearbyNode{ResourceID: r})
	}
	if sub == "match" && q.Text == "" && q.ContentDescription == "" && q.TestTag == "" && q.ResourceID == "" {
		return usagef("give at least one of --text, --content-description, --test-tag, --resource-id")
	}
	// A short-lived command: collecting garbage while the index loads costs
	// more CPU than the few megabytes it would give back. The limit still
	// bounds the heap on a very large project; both are restored on return.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 30))
	start := time.Now()
	idx, cached, err := openIndex(ctx, *dir, *useCache)
	if err != nil {
		return fmt.Errorf("index %s: %w", *dir, err)
	}
	built := time.Since(start)
	st := idx.Stats()
	if sub == "index" {
		if *asJSON {
			out, _ := json.Marshal(map[string]any{"stats": st, "cached": cached, "timingMs": ms(built)})
			fmt.Fprintf(env.Stdout, "%s\n", out)
			return nil
		}
		if st.Reason != "" {
			fmt.Fprintf(env.Stdout, "No sources indexed: %s\n", st.Reason)
		}
		how := "built"
		if cached {
			how = "from cache"
		}
		fmt.Fprintf(env.Stdout, "%d modules, %d files (%d code, %d string files, %d layout-like): %d composables, %d UI entries, %d testTags, %d string resources, %d activities, %d shared components — %.0f ms (%s)\n",
			st.Modules, st.Files, st.KotlinFiles, st.StringFiles, st.LayoutFiles, st.Composables, st.Entries, st.Tags, st.StringRes, st.Activities, st.SharedCallees, ms(built), how)
		return nil
	}
	start = time.Now()
	cands := idx.Match(q)
	took := time.Since(start)
	if *asJSON {
		if cands == nil {
			cands = []source.Candidate{}
		}
		out, _ := json.Marshal(map[string]any{"candidates": cands, "confident": source.Confident(cands), "timingMs": ms(took), "indexMs": ms(built), "cached": cached})
		fmt.Fprintf(env.Stdout, "%s\n", out)
		return nil
	}
	if len(cands) == 0 {
		fmt.Fprintln(env.Stdout, "No candidates.")
		return nil
	}
	if !source.Confident(cands) {
		fmt.Fprintln(env.Stdout, "No confident match: the best candidates follow, none strong enough to edit blindly.")
	}
	for i, c := range cands {
		fmt.Fprintf(env.Stdout, "%d. %s\n", i+1, candidateLine(c))
		if c.ResourceFile != "" {
			fmt.Fprintf(env.Stdout, "   string defined at %s:%d\n", c.ResourceFile, c.ResourceLine)
		}
		if c.OwnerFile != "" && c.OwnerFile != c.File {
			fmt.Fprintf(env.Stdout, "   shown by %s:%d\n", c.OwnerFile, c.OwnerLine)
		}
		if len(c.Usages) > 0 {
			fmt.Fprintf(env.Stdout, "   reached from %s\n", strings.Join(c.Usages, ", "))
		}
		if c.Caution != "" {
			fmt.Fprintf(env.Stdout, "   %s\n", c.Caution)
		}
	}
	return nil
}

// candidateLine renders a candidate the way the prompt lists it: location,
// owner, confidence, score, margin and the matched reason tokens.
func candidateLine(c source.Candidate) string {
	l := fmt.Sprintf("%s:%d", c.File, c.Line)
	if c.Owner != "" {
		l += " inside fun " + c.Owner
	}
	l += fmt.Sprintf(" — conf=%s score=%.2f margin=%.2f matched=[%s]", c.Confidence, c.Score, c.Margin, strings.Join(c.Matched, ", "))
	if c.Stale {
		l += " (stale)"
	}
	return l
}

// openIndex restores the project's cached index and re-reads what changed
// since, or builds it; with cache set it writes the result back (0600, in the
// .fixthis folder the app uses), so the next run starts warm.
func openIndex(ctx context.Context, dir string, cache bool) (*source.Index, bool, error) {
	if !cache {
		idx, err := source.Build(ctx, dir)
		return idx, false, err
	}
	loc, err := store.NewLocations(dir)
	if err != nil {
		return nil, false, err
	}
	path := loc.SourceIndexCache()
	if data, err := source.MapCache(path); err == nil {
		// A cache that cannot be read or is another project's is rebuilt below.
		if idx, changed, err := source.Restore(ctx, data, loc.Project); err == nil {
			if len(changed) > 0 {
				saveIndex(idx, path)
			}
			return idx, true, nil
		}
	}
	idx, err := source.Build(ctx, dir)
	if err != nil {
		return nil, false, err
	}
	if idx.Stats().Files > 0 {
		saveIndex(idx, path)
	}
	return idx, false, nil
}

// saveIndex writes the cache; failing to write it only costs the next run a
// rebuild, so errors are not fatal.
func saveIndex(idx *source.Index, path string) { _ = idx.WriteCache(path) }
