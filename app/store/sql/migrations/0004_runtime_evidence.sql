-- Runtime evidence attempts: one row per item per capture. A capture made for
-- several items at once (Save to MCP under Auto) shares its capture id and its
-- files under .fixthis/runtime-evidence/<session-id>/<capture-id>/. The row
-- holds only bounded summaries and status metadata, never raw output.
CREATE TABLE evidence_attempts (
  capture_id   TEXT NOT NULL,
  item_id      TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
  session_id   TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  -- Who asked: Save to MCP under Auto, the console's Capture diagnostics, or
  -- the agent's fixthis_capture_runtime_evidence.
  trigger      TEXT NOT NULL CHECK (trigger IN ('auto', 'manual', 'agent')),
  status       TEXT NOT NULL CHECK (status IN ('complete', 'partial', 'failed', 'unsupported')),
  attempt_json TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  PRIMARY KEY (capture_id, item_id)
) STRICT;
CREATE INDEX evidence_by_item ON evidence_attempts(item_id, created_at);
