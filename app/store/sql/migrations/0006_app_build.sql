-- The build of the user's app a session's feedback was handed off against: the
-- installed package, its versionName/versionCode and lastUpdateTime, and the
-- project's git HEAD and whether the work tree was dirty ('' until a handoff).
ALTER TABLE sessions ADD COLUMN app_build_json TEXT NOT NULL DEFAULT '';
