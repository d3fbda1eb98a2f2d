package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"fixthis/app/errcode"
)

// AppBuild is the build of the user's app a session was handed off against, so
// the agent knows which build the screenshots came from.
type AppBuild struct {
	Package     string `json:"package"`
	VersionName string `json:"versionName,omitempty"`
	VersionCode int    `json:"versionCode,omitempty"`
	// LastUpdateTime is when that build was installed on the device.
	LastUpdateTime time.Time `json:"lastUpdateTime,omitzero"`
	// GitHead is the project's commit at handoff ("" outside git); GitDirty says
	// the work tree had uncommitted changes.
	GitHead    string    `json:"gitHead,omitempty"`
	GitDirty   bool      `json:"gitDirty,omitempty"`
	RecordedAt time.Time `json:"recordedAt"`
}

// RecordAppBuild stores the build a handoff of the session was made against,
// replacing the previous one. It is not user-authored content: the session's
// revision (its ETag) stays.
func (s *Store) RecordAppBuild(ctx context.Context, sessionID string, b AppBuild) error {
	raw, err := json.Marshal(b)
	if err != nil {
		return fmt.Errorf("encode app build: %w", err)
	}
	return s.write(ctx, "recording the app build", func(t *tx) error {
		res, err := t.ExecContext(ctx, `UPDATE sessions SET app_build_json = ? WHERE id = ?`, string(raw), sessionID)
		if err != nil {
			return fmt.Errorf("record app build: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errorf(errcode.SessionNotFound, "no session %s", echo(sessionID))
		}
		return nil
	})
}

// loadAppBuild reads a session's recorded build; nil when none was recorded.
func loadAppBuild(ctx context.Context, q querier, sessionID string) (*AppBuild, error) {
	var raw string
	if err := q.QueryRowContext(ctx, `SELECT app_build_json FROM sessions WHERE id = ?`, sessionID).Scan(&raw); err != nil {
		return nil, fmt.Errorf("read app build: %w", err)
	}
	if raw == "" {
		return nil, nil
	}
	var b AppBuild
	if err := json.Unmarshal([]byte(raw), &b); err != nil {
		return nil, fmt.Errorf("decode app build of %s: %w", sessionID, err)
	}
	return &b, nil
}
