-- Items made from an audit finding keep the finding's check id (touch_target,
-- text_contrast, ...), so the prompt can name it and verification can re-run it.
-- NULL for every other item, and for every item saved before this column existed.
-- audit_dismissals are findings the user dismissed as false positives, per screen
-- (package/activity) and finding key (check + node identity); they stay dismissed
-- across freezes and sessions. IF NOT EXISTS: tests that step user_version back
-- replay this file too.
ALTER TABLE items ADD COLUMN audit_check TEXT;
CREATE TABLE IF NOT EXISTS audit_dismissals (
  screen_key  TEXT NOT NULL,
  finding_key TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  PRIMARY KEY (screen_key, finding_key)
) STRICT;
