-- Screen clips: the last seconds of the live screen, cut into an H.264 MP4 with a
-- frame strip PNG and a timeline (JSON). A clip of a session is kept with it; one an
-- agent recorded outside a session has no session_id. item_clips names an item's
-- clip (of the item's session). IF NOT EXISTS: tests that step user_version back
-- to replay an earlier file replay this one too.
CREATE TABLE IF NOT EXISTS clips (
  id             TEXT PRIMARY KEY,
  session_id     TEXT REFERENCES sessions(id) ON DELETE CASCADE,
  serial         TEXT NOT NULL DEFAULT '',
  source         TEXT NOT NULL,
  video_artifact TEXT NOT NULL,
  strip_artifact TEXT NOT NULL DEFAULT '',
  duration_ms    INTEGER NOT NULL,
  frames         INTEGER NOT NULL,
  width          INTEGER NOT NULL,
  height         INTEGER NOT NULL,
  timeline_json  TEXT NOT NULL DEFAULT '{}',
  created_at     INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS clips_by_session ON clips(session_id, created_at);
CREATE TABLE IF NOT EXISTS item_clips (
  item_id TEXT PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
  clip_id TEXT NOT NULL REFERENCES clips(id) ON DELETE CASCADE
) STRICT;
