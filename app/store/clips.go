package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"time"

	"fixthis/app/errcode"
)

// Clip is a cut of the live screen kept as artifacts: the MP4, its frame strip
// and its timeline.
type Clip struct {
	ClipID     string          `json:"clipId"`
	SessionID  string          `json:"sessionId,omitempty"`
	Serial     string          `json:"serial"`
	Source     string          `json:"source"` // h264 | jpeg: what it was cut from
	DurationMs int64           `json:"durationMs"`
	Frames     int             `json:"frames"`
	Width      int             `json:"width"`
	Height     int             `json:"height"`
	Timeline   json.RawMessage `json:"timeline"`
	VideoURL   string          `json:"videoUrl"`
	StripURL   string          `json:"stripUrl,omitempty"`
	// Path and FrameStripPath are the files, relative to the project directory.
	Path           string    `json:"path"`
	FrameStripPath string    `json:"frameStripPath,omitempty"`
	CreatedAt      time.Time `json:"createdAt"`

	VideoArtifact string `json:"-"`
	StripArtifact string `json:"-"`
}

// ClipInput is a clip to keep.
type ClipInput struct {
	SessionID  string // "" for an agent's recording outside a session
	Serial     string
	Source     string
	MP4        []byte
	Strip      []byte // nil: no strip
	DurationMs int64
	Frames     int
	Width      int
	Height     int
	Timeline   json.RawMessage
}

// SaveClip writes the clip's files (each fsynced before the row names it, so a full
// disk leaves no row and no partial file) and records it.
func (s *Store) SaveClip(ctx context.Context, in ClipInput) (*Clip, error) {
	if len(in.MP4) == 0 {
		return nil, invalid("a clip needs its video")
	}
	if in.SessionID != "" {
		if err := checkKey("sessionId", in.SessionID); err != nil {
			return nil, err
		}
	}
	if len(in.Timeline) == 0 {
		in.Timeline = json.RawMessage("{}")
	}
	video, err := s.PutArtifact(ctx, in.MP4, "mp4")
	if err != nil {
		return nil, err
	}
	strip := ""
	if len(in.Strip) > 0 {
		if strip, err = s.PutArtifact(ctx, in.Strip, "png"); err != nil {
			return nil, err
		}
	}
	c := &Clip{ClipID: "clip-" + newID(), SessionID: in.SessionID, Serial: in.Serial, Source: in.Source,
		DurationMs: in.DurationMs, Frames: in.Frames, Width: in.Width, Height: in.Height, Timeline: in.Timeline,
		VideoArtifact: video, StripArtifact: strip}
	err = s.write(ctx, "saving clip", func(t *tx) error {
		var session any
		if in.SessionID != "" {
			if _, err := openSessionForWrite(ctx, t, in.SessionID, "save a clip"); err != nil {
				return err
			}
			session = in.SessionID
		}
		c.CreatedAt = fromMillis(millis(t.now))
		if _, err := t.ExecContext(ctx, `INSERT INTO clips(id, session_id, serial, source, video_artifact, strip_artifact,
			duration_ms, frames, width, height, timeline_json, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`,
			c.ClipID, session, c.Serial, c.Source, video, strip, c.DurationMs, c.Frames, c.Width, c.Height,
			string(c.Timeline), millis(t.now)); err != nil {
			return fmt.Errorf("insert clip: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	c.setURLs()
	return c, nil
}

func (c *Clip) setURLs() {
	q := ""
	if c.SessionID != "" {
		q = "?sessionId=" + url.QueryEscape(c.SessionID)
	}
	c.Path = relArtifact(c.VideoArtifact)
	c.FrameStripPath = relArtifact(c.StripArtifact)
	c.VideoURL = "/api/clips/" + url.PathEscape(c.ClipID) + "/video" + q
	if c.StripArtifact != "" {
		c.StripURL = "/api/clips/" + url.PathEscape(c.ClipID) + "/strip" + q
	}
}

// relArtifact is an artifact's file relative to the project directory ("" for none).
func relArtifact(key string) string {
	if !artifactKey.MatchString(key) {
		return ""
	}
	return filepath.Join(DataDirName, "artifacts", key[:2], key)
}

const clipColumns = `id, COALESCE(session_id, ''), serial, source, video_artifact, strip_artifact, duration_ms,
	frames, width, height, timeline_json, created_at`

func scanClip(sc interface{ Scan(...any) error }) (*Clip, error) {
	c := &Clip{}
	var timeline string
	var created int64
	if err := sc.Scan(&c.ClipID, &c.SessionID, &c.Serial, &c.Source, &c.VideoArtifact, &c.StripArtifact,
		&c.DurationMs, &c.Frames, &c.Width, &c.Height, &timeline, &created); err != nil {
		return nil, err
	}
	c.Timeline, c.CreatedAt = json.RawMessage(timeline), fromMillis(created)
	c.setURLs()
	return c, nil
}

// GetClip loads a clip; sessionID "" finds only clips outside a session.
func (s *Store) GetClip(ctx context.Context, sessionID, clipID string) (*Clip, error) {
	return getClip(ctx, s.rdb, sessionID, clipID)
}

func getClip(ctx context.Context, q querier, sessionID, clipID string) (*Clip, error) {
	c, err := scanClip(q.QueryRowContext(ctx, `SELECT `+clipColumns+` FROM clips WHERE id = ? AND COALESCE(session_id, '') = ?`,
		clipID, sessionID))
	if errors.Is(err, sql.ErrNoRows) {
		if sessionID == "" {
			return nil, errcode.New(errcode.ClipNotFound, "no clip %s", echo(clipID))
		}
		return nil, errcode.New(errcode.ClipNotFound, "no clip %s in session %s", echo(clipID), echo(sessionID))
	}
	if err != nil {
		return nil, storageErr("reading clip", err)
	}
	return c, nil
}

// sessionClips loads a session's clips by id.
func sessionClips(ctx context.Context, q querier, sessionID string) (map[string]*Clip, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+clipColumns+` FROM clips WHERE session_id = ?`, sessionID)
	if err != nil {
		return nil, fmt.Errorf("query clips: %w", err)
	}
	defer rows.Close()
	out := map[string]*Clip{}
	for rows.Next() {
		c, err := scanClip(rows)
		if err != nil {
			return nil, err
		}
		out[c.ClipID] = c
	}
	return out, rows.Err()
}

// attachClips fills Clip on the items that name one.
func attachClips(ctx context.Context, q querier, items []Item) error {
	bySession := map[string]map[string]*Clip{}
	for i := range items {
		it := &items[i]
		if it.ClipID == "" {
			continue
		}
		clips, ok := bySession[it.SessionID]
		if !ok {
			var err error
			if clips, err = sessionClips(ctx, q, it.SessionID); err != nil {
				return err
			}
			bySession[it.SessionID] = clips
		}
		it.Clip = clips[it.ClipID]
	}
	return nil
}
