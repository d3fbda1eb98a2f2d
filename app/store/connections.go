package store

import (
	"context"
	"time"
)

// Agent connections. An MCP process names each agent connection it serves
// (its stdio pipe, or one Streamable HTTP session) and refreshes that name's
// row while the connection is open. The rows decide three things across
// processes: whose claim is still held, which agent an unacknowledged batch
// stays reserved to, and whether an agent with a claim is still working.

// ConnectionTTL is how long a connection row stays alive without a refresh.
// MCP processes refresh every few seconds; a process killed without a word
// loses its claims and reservations after this long.
const ConnectionTTL = 15 * time.Second

type agentKey struct{}

// WithAgent names the agent connection a call comes from. Claims and batch
// serves made with this context belong to that connection.
func WithAgent(ctx context.Context, agent string) context.Context {
	return context.WithValue(ctx, agentKey{}, agent)
}

// AgentFrom returns the connection named by WithAgent ("" when none).
func AgentFrom(ctx context.Context) string {
	a, _ := ctx.Value(agentKey{}).(string)
	return a
}

// TouchConnections marks the named connections alive now.
func (s *Store) TouchConnections(ctx context.Context, agents []string) error {
	if len(agents) == 0 {
		return nil
	}
	return s.write(ctx, "refreshing agent connections", func(t *tx) error {
		for _, a := range agents {
			if _, err := t.ExecContext(ctx, `INSERT INTO agent_connections(id, last_seen_at) VALUES (?, ?)
				ON CONFLICT(id) DO UPDATE SET last_seen_at = excluded.last_seen_at`, a, millis(t.now)); err != nil {
				return err
			}
		}
		// Old rows of connections that went away without a word.
		_, err := t.ExecContext(ctx, `DELETE FROM agent_connections WHERE last_seen_at < ?`,
			millis(t.now)-10*ConnectionTTL.Milliseconds())
		return err
	})
}

// EndConnection forgets a connection that closed: its claims and batch
// reservations are free at once, and an agent presence that rested on its
// claims turns away. Every session it held a claim in gets a presence change.
func (s *Store) EndConnection(ctx context.Context, agent string) error {
	return s.write(ctx, "ending agent connection", func(t *tx) error {
		if _, err := t.ExecContext(ctx, `DELETE FROM agent_connections WHERE id = ?`, agent); err != nil {
			return err
		}
		rows, err := t.QueryContext(ctx, `SELECT DISTINCT session_id FROM items WHERE claimed_by = ? AND status = 'in_progress'`, agent)
		if err != nil {
			return err
		}
		sids, err := appendRows(nil, rows, scanString)
		if err != nil {
			return err
		}
		for _, sid := range sids {
			if err := t.change(ctx, sid, ChangePresence); err != nil {
				return err
			}
		}
		return nil
	})
}

func liveCutoff(now time.Time) int64 { return millis(now) - ConnectionTTL.Milliseconds() }

// connectionAlive says whether agent's connection row is fresh.
func connectionAlive(ctx context.Context, q querier, agent string, now time.Time) (bool, error) {
	if agent == "" {
		return false, nil
	}
	var n int
	err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM agent_connections WHERE id = ? AND last_seen_at > ?`,
		agent, liveCutoff(now)).Scan(&n)
	return n > 0, err
}
