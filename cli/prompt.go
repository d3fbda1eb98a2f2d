package cli

import (
	"context"
	"fmt"
	"slices"

	"fixthis/app/handoff"
	"fixthis/app/source"
	"fixthis/app/store"
)

// stringList is a repeatable flag (--item A --item B).
type stringList []string

func (s *stringList) String() string     { return fmt.Sprint([]string(*s)) }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// runPrompt prints the compact handoff prompt of a session (the newest by default).
func runPrompt(ctx context.Context, env Env, args []string) error {
	f := newFlags("prompt", env.Stdout)
	var af appFlags
	f.StringVar(&af.projectDir, "project-dir", "", "project whose .fixthis store to read (default: current directory)")
	sessionID := f.String("session", "", "session id (default: the most recently updated session)")
	var items stringList
	f.Var(&items, "item", "item id to include (repeatable; default: every open item)")
	if err := parse(f, args); err != nil {
		return err
	}
	if err := af.resolve(); err != nil {
		return err
	}
	// A read-only command: a project without FixThis data stays without it.
	if loc, err := store.NewLocations(af.projectDir); err == nil && !store.DataExists(loc) {
		return fmt.Errorf("no feedback sessions in %s/.fixthis yet; annotate something in the console first", af.projectDir)
	}
	st, err := store.Open(ctx, af.projectDir, store.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	if *sessionID == "" {
		list, err := st.ListSessions(ctx)
		if err != nil {
			return err
		}
		if len(list) == 0 {
			return fmt.Errorf("no feedback sessions in %s/.fixthis yet; annotate something in the console first", af.projectDir)
		}
		latest := slices.MaxFunc(list, func(a, b store.SessionSummary) int { return a.UpdatedAt.Compare(b.UpdatedAt) })
		*sessionID = latest.SessionID
	}
	idx, err := source.Build(ctx, af.projectDir)
	reason := source.ReadinessOf(idx, err)
	if reason == source.Failed {
		idx = nil
	}
	b := &handoff.Builder{Store: st, Index: func() (*source.Index, source.Readiness) { return idx, reason }}
	hs, sess, err := b.Session(ctx, *sessionID)
	if err != nil {
		return err
	}
	ids := []string(items)
	if len(ids) == 0 {
		ids = sess.OpenItemIDs()
	}
	if len(ids) == 0 {
		return fmt.Errorf("session %s has no open feedback", *sessionID)
	}
	fmt.Fprint(env.Stdout, handoff.Render(hs, handoff.Options{ItemIDs: ids, NoSource: reason}))
	return nil
}
