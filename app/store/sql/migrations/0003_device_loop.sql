-- The agent checks its fix on the phone: captures an agent takes (to refer to by id),
-- the verification an agent attaches when it resolves an item and the user's verdict
-- on it, FixThis-wide settings (which device the console last selected, whether
-- agents may control a device) and the log of what agents did on a device.
CREATE TABLE captures (
  id             TEXT PRIMARY KEY,
  serial         TEXT NOT NULL,
  package        TEXT NOT NULL,
  activity       TEXT NOT NULL,
  fingerprint    TEXT NOT NULL,
  width          INTEGER NOT NULL,
  height         INTEGER NOT NULL,
  image_artifact TEXT NOT NULL,
  nodes_artifact TEXT NOT NULL,
  created_at     INTEGER NOT NULL
) STRICT;

-- verification_json: what the agent's after-capture shows ('' when none).
-- verdict: '' | 'verified' (the user looked and agreed) | 'reopened'.
ALTER TABLE items ADD COLUMN verification_json TEXT NOT NULL DEFAULT '';
ALTER TABLE items ADD COLUMN verdict TEXT NOT NULL DEFAULT '';
ALTER TABLE items ADD COLUMN verdict_note TEXT NOT NULL DEFAULT '';

CREATE TABLE settings (
  key        TEXT PRIMARY KEY,
  value      TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE device_actions (
  seq        INTEGER PRIMARY KEY AUTOINCREMENT,
  serial     TEXT NOT NULL,
  action     TEXT NOT NULL,
  detail     TEXT NOT NULL,
  outcome    TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;

-- A user's "Reopen" reaches the agent as a batch of its own kind. SQLite cannot
-- change a CHECK constraint in place, so the queue table is rebuilt with its rows.
CREATE TABLE agent_batches_new (
  seq          INTEGER PRIMARY KEY AUTOINCREMENT,
  id           TEXT NOT NULL UNIQUE,
  session_id   TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  kind         TEXT NOT NULL CHECK (kind IN ('release', 'answer', 'withdrawal', 'reopen')),
  payload_json TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  served_at    INTEGER,
  serve_count  INTEGER NOT NULL DEFAULT 0,
  acked_at     INTEGER
) STRICT;
INSERT INTO agent_batches_new(seq, id, session_id, kind, payload_json, created_at, served_at, serve_count, acked_at)
  SELECT seq, id, session_id, kind, payload_json, created_at, served_at, serve_count, acked_at FROM agent_batches;
DROP TABLE agent_batches;
ALTER TABLE agent_batches_new RENAME TO agent_batches;
CREATE INDEX agent_batches_pending ON agent_batches(session_id, seq) WHERE acked_at IS NULL;
