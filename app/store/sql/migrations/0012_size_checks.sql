-- An item's check on window sizes: the phone it ran on, whether the phone's own
-- size was put back, and per size (in the order shown) what was found there, with
-- the whole screen and a crop around the node as artifacts. One check per item: a
-- newer check replaces the older one. IF NOT EXISTS: tests that step user_version
-- back replay this file too.
CREATE TABLE IF NOT EXISTS size_checks (
  item_id    TEXT PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
  serial     TEXT NOT NULL,
  restored   INTEGER NOT NULL,
  checked_at INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS size_check_sizes (
  item_id          TEXT NOT NULL REFERENCES size_checks(item_id) ON DELETE CASCADE,
  position         INTEGER NOT NULL,
  name             TEXT NOT NULL,
  width            INTEGER NOT NULL,
  height           INTEGER NOT NULL,
  density          INTEGER NOT NULL,
  width_dp         INTEGER NOT NULL,
  height_dp        INTEGER NOT NULL,
  found            INTEGER NOT NULL,
  matched_by       TEXT NOT NULL DEFAULT '',
  bounds_json      TEXT NOT NULL DEFAULT '',
  clipped          INTEGER NOT NULL DEFAULT 0,
  cut_off          INTEGER NOT NULL DEFAULT 0,
  overlapping_json TEXT NOT NULL DEFAULT '[]',
  image_artifact   TEXT NOT NULL DEFAULT '',
  crop_artifact    TEXT NOT NULL DEFAULT '',
  error            TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (item_id, position)
) STRICT;
