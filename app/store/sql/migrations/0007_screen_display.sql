-- What the window list showed when a screen was frozen: the rotation, the dialog
-- window the UI tree came from, the on-screen keyboard's rectangle, FLAG_SECURE.
-- One JSON object ('{}' for screens saved before this column existed).
ALTER TABLE screens ADD COLUMN display_json TEXT NOT NULL DEFAULT '{}';
