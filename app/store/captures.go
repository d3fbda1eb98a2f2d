package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"fixthis/app/errcode"
)

// Capture is a screen an agent captured (fixthis_capture_screen), kept so that a
// later call can refer to it by id: as the "after" screen of a verified resolution.
type Capture struct {
	CaptureID   string    `json:"captureId"`
	Serial      string    `json:"serial"`
	Package     string    `json:"package"`
	Activity    string    `json:"activity"`
	Fingerprint string    `json:"fingerprint"`
	Width       int       `json:"width"`
	Height      int       `json:"height"`
	ImageURL    string    `json:"imageUrl"`
	CreatedAt   time.Time `json:"createdAt"`
	// Conditions are the display settings the capture was taken under.
	Conditions *DisplayConditions `json:"conditions,omitempty"`

	ImageArtifact string `json:"-"`
	NodesArtifact string `json:"-"`
}

// CaptureInput is a capture to keep: its frame as PNG and its UI nodes as JSON.
type CaptureInput struct {
	Serial, Package, Activity, Fingerprint string
	Width, Height                          int
	PNG                                    []byte
	NodesJSON                              []byte
	Conditions                             *DisplayConditions
}

// SaveCapture stores the frame and nodes as artifacts (synced before the row that
// names them) and records the capture.
func (s *Store) SaveCapture(ctx context.Context, in CaptureInput) (*Capture, error) {
	if len(in.PNG) == 0 {
		return nil, invalid("a capture needs its frame")
	}
	img, err := s.PutArtifact(ctx, in.PNG, "png")
	if err != nil {
		return nil, err
	}
	nodes := in.NodesJSON
	if len(nodes) == 0 {
		nodes = []byte("[]")
	}
	nodesKey, err := s.PutArtifact(ctx, nodes, "json")
	if err != nil {
		return nil, err
	}
	c := &Capture{CaptureID: "c-" + newID(), Serial: in.Serial, Package: in.Package, Activity: in.Activity,
		Fingerprint: in.Fingerprint, Width: in.Width, Height: in.Height, ImageArtifact: img, NodesArtifact: nodesKey,
		Conditions: in.Conditions}
	disp, err := json.Marshal(captureDisplay{Conditions: in.Conditions})
	if err != nil {
		return nil, err
	}
	err = s.write(ctx, "saving capture", func(t *tx) error {
		c.CreatedAt = fromMillis(millis(t.now))
		_, err := t.ExecContext(ctx, `INSERT INTO captures(id, serial, package, activity, fingerprint, width, height,
			image_artifact, nodes_artifact, display_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			c.CaptureID, c.Serial, c.Package, c.Activity, c.Fingerprint, c.Width, c.Height, img, nodesKey, string(disp), millis(t.now))
		return err
	})
	if err != nil {
		return nil, err
	}
	c.ImageURL = captureImageURL(c.CaptureID)
	return c, nil
}

// captureDisplay is the captures.display_json object.
type captureDisplay struct {
	Conditions *DisplayConditions `json:"conditions,omitempty"`
}

func captureImageURL(id string) string { return "/api/captures/" + id + "/image" }

// GetCapture returns a kept capture, or CAPTURE_NOT_FOUND.
func (s *Store) GetCapture(ctx context.Context, captureID string) (*Capture, error) {
	if err := checkKey("captureId", captureID); err != nil {
		return nil, err
	}
	var c Capture
	err := s.read(ctx, "reading capture", func(t *sql.Tx) error {
		var created int64
		var disp string
		err := t.QueryRowContext(ctx, `SELECT id, serial, package, activity, fingerprint, width, height, image_artifact,
			nodes_artifact, display_json, created_at FROM captures WHERE id = ?`, captureID).Scan(&c.CaptureID, &c.Serial, &c.Package,
			&c.Activity, &c.Fingerprint, &c.Width, &c.Height, &c.ImageArtifact, &c.NodesArtifact, &disp, &created)
		if errors.Is(err, sql.ErrNoRows) {
			return errorf(errcode.CaptureNotFound, "no capture %s; take one with fixthis_capture_screen", echo(captureID))
		}
		if err != nil {
			return err
		}
		c.CreatedAt = fromMillis(created)
		var d captureDisplay
		if err := json.Unmarshal([]byte(disp), &d); err != nil {
			return fmt.Errorf("capture %s: display_json: %w", c.CaptureID, err)
		}
		c.Conditions = d.Conditions
		return nil
	})
	if err != nil {
		return nil, err
	}
	c.ImageURL = captureImageURL(c.CaptureID)
	return &c, nil
}

// LatestCaptureID is the newest kept capture of an app ("" when there is none): the
// after screen an agent took last, for a check of its fix.
func (s *Store) LatestCaptureID(ctx context.Context, pkg string) (string, error) {
	var id string
	err := s.read(ctx, "reading the latest capture", func(t *sql.Tx) error {
		err := t.QueryRowContext(ctx, `SELECT id FROM captures WHERE package = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`, pkg).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		return err
	})
	return id, err
}

// GetSetting returns a FixThis-wide setting ("" when unset).
func (s *Store) GetSetting(ctx context.Context, key string) (string, error) {
	var v string
	err := s.read(ctx, "reading setting", func(t *sql.Tx) error {
		err := t.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		return err
	})
	return v, err
}

// SetSetting records a FixThis-wide setting and tells every process.
func (s *Store) SetSetting(ctx context.Context, key, value string) error {
	if err := checkKey("key", key); err != nil {
		return err
	}
	return s.write(ctx, "saving setting", func(t *tx) error {
		if _, err := t.ExecContext(ctx, `INSERT INTO settings(key, value, updated_at) VALUES (?, ?, ?)
			ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
			key, value, millis(t.now)); err != nil {
			return fmt.Errorf("save setting %s: %w", key, err)
		}
		return t.change(ctx, "", ChangeSettings)
	})
}

// DeviceAction is one thing an agent did (or tried to do) on a device.
type DeviceAction struct {
	Seq       int64     `json:"seq"`
	Serial    string    `json:"serial"`
	Action    string    `json:"action"`  // tap | swipe | type | key | launch | capture | …
	Detail    string    `json:"detail"`  // what a person reads: "tapped 'Save'"
	Outcome   string    `json:"outcome"` // ok | refused | failed
	CreatedAt time.Time `json:"createdAt"`
}

// RecordDeviceAction logs an agent's device action for the console's activity.
func (s *Store) RecordDeviceAction(ctx context.Context, a DeviceAction) error {
	return s.write(ctx, "recording device action", func(t *tx) error {
		if _, err := t.ExecContext(ctx, `INSERT INTO device_actions(serial, action, detail, outcome, created_at)
			VALUES (?, ?, ?, ?, ?)`, a.Serial, a.Action, a.Detail, a.Outcome, millis(t.now)); err != nil {
			return fmt.Errorf("record device action: %w", err)
		}
		return t.change(ctx, "", ChangeDeviceAction)
	})
}

// DeviceActions returns the newest device actions after seq, oldest first (at most 50).
func (s *Store) DeviceActions(ctx context.Context, afterSeq int64) ([]DeviceAction, error) {
	out := []DeviceAction{}
	err := s.read(ctx, "reading device actions", func(t *sql.Tx) error {
		rows, err := t.QueryContext(ctx, `SELECT seq, serial, action, detail, outcome, created_at FROM
			(SELECT * FROM device_actions WHERE seq > ? ORDER BY seq DESC LIMIT 50) ORDER BY seq`, afterSeq)
		if err != nil {
			return err
		}
		out, err = appendRows(out, rows, scanDeviceAction)
		return err
	})
	return out, err
}

func scanDeviceAction(sc interface{ Scan(...any) error }) (DeviceAction, error) {
	var a DeviceAction
	var created int64
	err := sc.Scan(&a.Seq, &a.Serial, &a.Action, &a.Detail, &a.Outcome, &created)
	a.CreatedAt = fromMillis(created)
	return a, err
}
