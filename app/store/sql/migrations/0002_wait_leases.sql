-- Wait leases: at most one parked fixthis_wait_for_feedback per session across
-- every process serving MCP on this project (the stdio sidecar of each agent
-- and the app's /mcp endpoint). A lease lives while its owner renews it; an
-- expired row is deleted by the next acquire, so a crashed process blocks
-- waits for at most one TTL.
CREATE TABLE wait_leases (
  -- The session id, or '' for a wait on any session.
  session_key TEXT PRIMARY KEY,
  -- Names one wait of one process (process id + per-wait counter).
  owner       TEXT NOT NULL CHECK (owner <> ''),
  acquired_at INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL
) STRICT;
