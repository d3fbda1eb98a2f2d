-- The phone's display conditions (dark theme, font scale, density, the app's locale,
-- animation speed) when an agent's capture was taken, so a verified resolve records
-- what the after screen was checked under. One JSON object ('{}': none known).
ALTER TABLE captures ADD COLUMN display_json TEXT NOT NULL DEFAULT '{}';
