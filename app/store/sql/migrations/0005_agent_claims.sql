-- Exclusive claims, user decisions, pickup modes and forced saves.
--
-- claimed_by names the agent connection (process + MCP session) that claimed an
-- item; another agent's claim is refused while that connection is alive.
-- resolved_at is when an item became resolved or wont_fix (by either side).
-- forced_save marks an item saved over a screen-fingerprint mismatch.
ALTER TABLE items ADD COLUMN claimed_by TEXT NOT NULL DEFAULT '';
ALTER TABLE items ADD COLUMN claimed_at INTEGER;
ALTER TABLE items ADD COLUMN resolved_at INTEGER;
ALTER TABLE items ADD COLUMN forced_save INTEGER NOT NULL DEFAULT 0;

-- batch: Save to MCP releases the drafts; instant: each saved item is released
-- to the agent as soon as it is saved.
ALTER TABLE sessions ADD COLUMN agent_pickup TEXT NOT NULL DEFAULT 'batch'
  CHECK (agent_pickup IN ('batch', 'instant'));

-- The agent connection a batch was last served to. Until it is acknowledged it
-- is served to that agent only, while that agent's connection is alive.
ALTER TABLE agent_batches ADD COLUMN served_to TEXT NOT NULL DEFAULT '';

-- Live agent connections: every MCP process refreshes the rows of its open
-- connections; a row not refreshed for a while is a connection that is gone.
CREATE TABLE agent_connections (
  id           TEXT PRIMARY KEY,
  last_seen_at INTEGER NOT NULL
) STRICT;

-- When a console last had an event stream open on this project (one row).
-- A waiting agent is told console_gone once no console was seen for a while.
CREATE TABLE console_seen (
  id           INTEGER PRIMARY KEY CHECK (id = 1),
  last_seen_at INTEGER NOT NULL
) STRICT;
