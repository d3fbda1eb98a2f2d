package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"fixthis/app/source"
)

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
	var q source.Query
	if sub == "match" {
		f.StringVar(&q.Text, "text", "", "visible text of the target")
		f.StringVar(&q.ContentDescription, "content-description", "", "content description of the target")
		f.StringVar(&q.TestTag, "test-tag", "", "testTag of the target")
		f.StringVar(&q.Role, "role", "", "role of the target (Button, Text, …)")
		f.StringVar(&q.Activity, "activity", "", "foreground activity")
		f.StringVar(&q.ResourceID, "resource-id", "", "resource-id of the target View (com.example:id/title)")
	} else if sub != "index" {
		return usagef("unknown subcommand %q: want index or match", sub)
	}
	if err := parse(f, args); err != nil {
		return err
	}
	if *dir == "" {
		return usagef("--project-dir DIR is required")
	}
	start := time.Now()
	idx, err := source.Build(ctx, *dir)
	if err != nil {
		return fmt.Errorf("index %s: %w", *dir, err)
	}
	built := time.Since(start)
	st := idx.Stats()
	if sub == "index" {
		if *asJSON {
			out, _ := json.Marshal(map[string]any{"stats": st, "timingMs": ms(built)})
			fmt.Fprintf(env.Stdout, "%s\n", out)
			return nil
		}
		if st.Reason != "" {
			fmt.Fprintf(env.Stdout, "No sources indexed: %s\n", st.Reason)
		}
		fmt.Fprintf(env.Stdout, "%d modules, %d files (%d Kotlin, %d strings.xml): %d composables, %d UI entries, %d testTags, %d string resources, %d activities, %d shared components — %.0f ms\n",
			st.Modules, st.Files, st.KotlinFiles, st.StringFiles, st.Composables, st.Entries, st.Tags, st.StringRes, st.Activities, st.SharedCallees, ms(built))
		return nil
	}
	if q.Text == "" && q.ContentDescription == "" && q.TestTag == "" && q.ResourceID == "" {
		return usagef("give at least one of --text, --content-description, --test-tag, --resource-id")
	}
	start = time.Now()
	cands := idx.Match(q)
	took := time.Since(start)
	if *asJSON {
		if cands == nil {
			cands = []source.Candidate{}
		}
		out, _ := json.Marshal(map[string]any{"candidates": cands, "timingMs": ms(took)})
		fmt.Fprintf(env.Stdout, "%s\n", out)
		return nil
	}
	if len(cands) == 0 {
		fmt.Fprintln(env.Stdout, "No candidates.")
		return nil
	}
	for i, c := range cands {
		owner := ""
		if c.Owner != "" {
			owner = " inside fun " + c.Owner
		}
		fmt.Fprintf(env.Stdout, "%d. %s:%d%s  conf=%s score=%.2f margin=%.2f matched=%v\n", i+1, c.File, c.Line, owner, c.Confidence, c.Score, c.Margin, c.Matched)
	}
	return nil
}
