-- Feedback sessions, evidence screens, items, handoffs, the agent batch queue,
-- the append-only event log, the change feed and agent presence.

CREATE TABLE sessions (
  id                      TEXT PRIMARY KEY,
  title                   TEXT NOT NULL DEFAULT '',
  status                  TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  runtime_evidence_policy TEXT NOT NULL DEFAULT 'auto' CHECK (runtime_evidence_policy IN ('auto', 'manual', 'off')),
  -- revision is the ETag: bumped by every change to user-authored content.
  revision                INTEGER NOT NULL DEFAULT 0,
  -- next_sequence only grows, so a deleted item's number is never reused.
  next_sequence           INTEGER NOT NULL DEFAULT 1,
  created_at              INTEGER NOT NULL,
  updated_at              INTEGER NOT NULL,
  closed_at               INTEGER
) STRICT;

CREATE TABLE screens (
  id             TEXT PRIMARY KEY,
  session_id     TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  preview_id     TEXT NOT NULL DEFAULT '',
  fingerprint    TEXT NOT NULL DEFAULT '',
  package        TEXT NOT NULL DEFAULT '',
  activity       TEXT NOT NULL DEFAULT '',
  width          INTEGER NOT NULL DEFAULT 0,
  height         INTEGER NOT NULL DEFAULT 0,
  image_artifact TEXT NOT NULL DEFAULT '',
  nodes_artifact TEXT NOT NULL DEFAULT '',
  created_at     INTEGER NOT NULL
) STRICT;
CREATE INDEX screens_by_session ON screens(session_id, created_at);
CREATE INDEX screens_by_preview ON screens(session_id, preview_id) WHERE preview_id <> '';

CREATE TABLE items (
  id                   TEXT PRIMARY KEY,
  session_id           TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  screen_id            TEXT REFERENCES screens(id) ON DELETE SET NULL,
  sequence_number      INTEGER NOT NULL,
  client_workspace_id  TEXT NOT NULL,
  client_draft_item_id TEXT NOT NULL,
  target_json          TEXT NOT NULL,
  severity             TEXT NOT NULL CHECK (severity IN ('high', 'med', 'low')),
  comment              TEXT NOT NULL CHECK (length(trim(comment)) > 0),
  delivery             TEXT NOT NULL DEFAULT 'draft' CHECK (delivery IN ('draft', 'sent')),
  status               TEXT NOT NULL DEFAULT 'open'
                       CHECK (status IN ('open', 'ready', 'in_progress', 'needs_clarification', 'wont_fix', 'resolved')),
  modified_after_send  INTEGER NOT NULL DEFAULT 0,
  resolved_by          TEXT NOT NULL DEFAULT '' CHECK (resolved_by IN ('', 'agent', 'user')),
  agent_note           TEXT NOT NULL DEFAULT '',
  agent_summary        TEXT NOT NULL DEFAULT '',
  agent_question       TEXT NOT NULL DEFAULT '',
  user_answer          TEXT NOT NULL DEFAULT '',
  crop_artifact        TEXT NOT NULL DEFAULT '',
  created_at           INTEGER NOT NULL,
  updated_at           INTEGER NOT NULL,
  last_handed_off_at   INTEGER,
  UNIQUE (session_id, sequence_number),
  -- the batch-save idempotency key
  UNIQUE (session_id, client_workspace_id, client_draft_item_id)
) STRICT;
CREATE INDEX items_by_status ON items(status, delivery);

CREATE TABLE handoffs (
  id             TEXT PRIMARY KEY,
  session_id     TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  kind           TEXT NOT NULL CHECK (kind IN ('mcp', 'copy')),
  item_ids_json  TEXT NOT NULL,
  agent_batch_id TEXT NOT NULL DEFAULT '',
  created_at     INTEGER NOT NULL
) STRICT;
CREATE INDEX handoffs_by_session ON handoffs(session_id, created_at);

-- Work for the agent: released items, answers, withdrawals. A batch is
-- re-served until acknowledged, across restarts.
CREATE TABLE agent_batches (
  seq          INTEGER PRIMARY KEY AUTOINCREMENT,
  id           TEXT NOT NULL UNIQUE,
  session_id   TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  kind         TEXT NOT NULL CHECK (kind IN ('release', 'answer', 'withdrawal')),
  payload_json TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  served_at    INTEGER,
  serve_count  INTEGER NOT NULL DEFAULT 0,
  acked_at     INTEGER
) STRICT;
CREATE INDEX agent_batches_pending ON agent_batches(session_id, seq) WHERE acked_at IS NULL;

CREATE TABLE events (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id   TEXT NOT NULL,
  item_id      TEXT NOT NULL DEFAULT '',
  actor        TEXT NOT NULL CHECK (actor IN ('user', 'agent', 'system')),
  kind         TEXT NOT NULL,
  payload_json TEXT NOT NULL DEFAULT '{}',
  at           INTEGER NOT NULL
) STRICT;
CREATE INDEX events_by_session ON events(session_id, id);
CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;

-- Change feed read by every process's watcher. AUTOINCREMENT keeps ids from
-- being reused after old rows are pruned.
CREATE TABLE changes (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id TEXT NOT NULL,
  kind       TEXT NOT NULL,
  at         INTEGER NOT NULL
) STRICT;

-- Agent presence written by the MCP process, read by the console process.
CREATE TABLE agent_presence (
  session_id   TEXT PRIMARY KEY,
  state        TEXT NOT NULL CHECK (state IN ('listening', 'working', 'away')),
  since        INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL
) STRICT;
