package mcp

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"fixthis/app/store"
)

func reportP50(b *testing.B, op func(i int)) {
	durs := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		op(i)
		durs = append(durs, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(durs, func(i, j int) bool { return durs[i] < durs[j] })
	b.ReportMetric(float64(durs[len(durs)/2].Microseconds())/1000, "p50-ms")
}

// BenchmarkToolCalls measures whole tool calls (client → JSON-RPC → store →
// result) on a 1,000-item store: 10 sessions of 100 released items.
func BenchmarkToolCalls(b *testing.B) {
	ctx := context.Background()
	s := openStore(b, b.TempDir())
	var items []store.Item
	for i := 0; i < 10; i++ {
		sess, its := seed(b, s, 100)
		if _, err := s.ReleaseToAgent(ctx, sess.SessionID, nil); err != nil {
			b.Fatal(err)
		}
		items = append(items, its...)
	}
	c := newClient(b, Deps{Store: s, Prompt: listPrompter{}})
	run := func(name string, args func(i int) map[string]any) {
		b.Run(name, func(b *testing.B) {
			reportP50(b, func(i int) {
				if res := call(b, c, name, args(i), nil); res.IsError {
					b.Fatalf("%s: %s", name, text(res))
				}
			})
		})
	}
	// A batch is queued and unacknowledged, so the wait returns it at once:
	// this is the fixed cost of a wait (lease, queue read, result).
	run("fixthis_wait_for_feedback", func(i int) map[string]any {
		return map[string]any{"sessionId": items[0].SessionID, "timeoutSeconds": 5}
	})
	run("fixthis_list_feedback", func(i int) map[string]any { return map[string]any{"sessionId": items[0].SessionID} })
	run("fixthis_read_feedback", func(i int) map[string]any {
		it := items[i%len(items)]
		return map[string]any{"sessionId": it.SessionID, "itemId": it.ItemID}
	})
	run("fixthis_claim_feedback", func(i int) map[string]any {
		it := items[i%len(items)]
		return map[string]any{"sessionId": it.SessionID, "itemId": it.ItemID}
	})
	for _, it := range items { // only the claim holder may resolve
		call(b, c, "fixthis_claim_feedback", map[string]any{"sessionId": it.SessionID, "itemId": it.ItemID}, nil)
	}
	run("fixthis_resolve_feedback", func(i int) map[string]any {
		it := items[i%len(items)]
		// needs_clarification keeps the claim, so every round takes the same path
		// (a resolved item refuses a second outcome).
		return map[string]any{"sessionId": it.SessionID, "itemId": it.ItemID, "status": "needs_clarification", "summary": fmt.Sprint("which one? ", i)}
	})
}

// BenchmarkSaveToWait measures a console Save to MCP (another store handle,
// as another process) until the agent's parked wait returns the batch, with
// the production 100 ms poll interval.
func BenchmarkSaveToWait(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	agentStore, err := store.Open(ctx, dir, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer agentStore.Close()
	console := openStore(b, dir)
	c := newClient(b, Deps{Store: agentStore})
	durs := make([]time.Duration, 0, b.N)
	for i := 0; i < b.N; i++ {
		sess, _ := seed(b, console, 1)
		done := make(chan waitOut, 1)
		go func() {
			var out waitOut
			call(b, c, "fixthis_wait_for_feedback", map[string]any{"sessionId": sess.SessionID, "timeoutSeconds": 5}, &out)
			done <- out
		}()
		time.Sleep(30 * time.Millisecond) // let the wait park
		start := time.Now()
		rel, err := console.ReleaseToAgent(ctx, sess.SessionID, nil)
		if err != nil {
			b.Fatal(err)
		}
		out := <-done
		durs = append(durs, time.Since(start))
		if out.BatchID != rel.BatchID {
			b.Fatalf("wait returned %+v", out)
		}
		call(b, c, "fixthis_ack_feedback", map[string]any{"batchId": rel.BatchID}, nil)
	}
	sort.Slice(durs, func(i, j int) bool { return durs[i] < durs[j] })
	b.ReportMetric(float64(durs[len(durs)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(durs[len(durs)-1].Microseconds())/1000, "max-ms")
}
