package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"fixthis/app/errcode"
)

// SizeCheck is an item's latest check on window sizes: for each size shown, in
// order, whether the item's node was found there and how it sat on the screen.
type SizeCheck struct {
	Serial string `json:"serial"`
	// Restored: the phone's own size was put back after the check.
	Restored  bool          `json:"restored"`
	CheckedAt time.Time     `json:"checkedAt"`
	Sizes     []SizeOutcome `json:"sizes"`
}

// SizeOutcome is one size of a check.
type SizeOutcome struct {
	Name     string `json:"name"`
	Width    int    `json:"width"` // pixels
	Height   int    `json:"height"`
	Density  int    `json:"density"`
	WidthDp  int    `json:"widthDp"`
	HeightDp int    `json:"heightDp"`
	Found    bool   `json:"found"`
	// MatchedBy is the key that found the node (testTag, resourceId, …).
	MatchedBy string  `json:"matchedBy,omitempty"`
	Bounds    *Bounds `json:"bounds,omitempty"`
	// Clipped: part of the node lies outside the screen.
	Clipped bool `json:"clipped,omitempty"`
	// CutOff: part of the node lies outside one of its ancestors (a container
	// too small for it).
	CutOff bool `json:"cutOff,omitempty"`
	// Overlapping names labelled nodes outside its own branch that cover part of it.
	Overlapping []string `json:"overlapping,omitempty"`
	// Error is why this size could not be shown or captured.
	Error string `json:"error,omitempty"`
	// ImageURL is the whole screen at this size, CropURL the node with a margin
	// (found nodes only); both on the console API.
	ImageURL string `json:"imageUrl,omitempty"`
	CropURL  string `json:"cropUrl,omitempty"`
	// Path and CropPath are the same pictures' files, relative to the project.
	Path     string `json:"path,omitempty"`
	CropPath string `json:"cropPath,omitempty"`

	ImageArtifact string `json:"-"`
	CropArtifact  string `json:"-"`
}

// SizeCheckInput is a finished check to store on an item.
type SizeCheckInput struct {
	SessionID, ItemID, Serial string
	Restored                  bool
	Sizes                     []SizeOutcomeInput
}

// SizeOutcomeInput is one size with its pictures as PNG (either may be empty).
type SizeOutcomeInput struct {
	SizeOutcome
	PNG, CropPNG []byte
}

// Bounds on what a check may store.
const (
	MaxSizeOutcomes    = 8
	maxSizeNameLen     = 64
	maxSizeErrorLen    = 500
	maxOverlapping     = 5
	maxOverlappingText = 64
	maxSizePixels      = 20000
)

func checkSizeOutcome(i int, o SizeOutcome) error {
	field := "size " + strconv.Itoa(i+1)
	if o.Name == "" {
		return invalid("%s has no name", field)
	}
	if err := checkText(field+" name", o.Name, maxSizeNameLen, false); err != nil {
		return err
	}
	if err := checkText(field+" error", o.Error, maxSizeErrorLen, false); err != nil {
		return err
	}
	if err := checkText(field+" matchedBy", o.MatchedBy, maxSizeNameLen, false); err != nil {
		return err
	}
	for _, n := range []int{o.Width, o.Height, o.Density, o.WidthDp, o.HeightDp} {
		if n < 0 || n > maxSizePixels {
			return invalid("%s: %d is no screen dimension (0 to %d)", field, n, maxSizePixels)
		}
	}
	if len(o.Overlapping) > maxOverlapping {
		return invalid("%s names %d overlapping nodes; at most %d", field, len(o.Overlapping), maxOverlapping)
	}
	for _, s := range o.Overlapping {
		if err := checkText(field+" overlapping node", s, maxOverlappingText, false); err != nil {
			return err
		}
	}
	if o.Found != (o.Bounds != nil) {
		return invalid("%s: a found node has bounds and a missing one none", field)
	}
	return nil
}

// SaveSizeCheck stores a check on an item, replacing the check before it: the
// pictures first as artifacts (synced), then the rows in one transaction.
func (s *Store) SaveSizeCheck(ctx context.Context, in SizeCheckInput) (*SizeCheck, error) {
	if err := checkKey("itemId", in.ItemID); err != nil {
		return nil, err
	}
	if len(in.Sizes) == 0 || len(in.Sizes) > MaxSizeOutcomes {
		return nil, invalid("a size check has %d sizes; give 1 to %d", len(in.Sizes), MaxSizeOutcomes)
	}
	if err := checkText("serial", in.Serial, maxSerialLen, false); err != nil {
		return nil, err
	}
	out := &SizeCheck{Serial: in.Serial, Restored: in.Restored, Sizes: make([]SizeOutcome, len(in.Sizes))}
	for i, sz := range in.Sizes {
		if err := checkSizeOutcome(i, sz.SizeOutcome); err != nil {
			return nil, err
		}
		o := sz.SizeOutcome
		o.ImageArtifact, o.CropArtifact, o.ImageURL, o.CropURL, o.Path, o.CropPath = "", "", "", "", "", ""
		var err error
		if len(sz.PNG) > 0 {
			if o.ImageArtifact, err = s.PutArtifact(ctx, sz.PNG, "png"); err != nil {
				return nil, err
			}
		}
		if len(sz.CropPNG) > 0 {
			if o.CropArtifact, err = s.PutArtifact(ctx, sz.CropPNG, "png"); err != nil {
				return nil, err
			}
		}
		out.Sizes[i] = o
	}
	err := s.write(ctx, "saving size check", func(t *tx) error {
		sessionID := in.SessionID
		if sessionID == "" {
			err := t.QueryRowContext(ctx, `SELECT session_id FROM items WHERE id = ?`, in.ItemID).Scan(&sessionID)
			if errors.Is(err, sql.ErrNoRows) {
				return errorf(errcode.ItemNotFound, "no item %s", echo(in.ItemID))
			}
			if err != nil {
				return err
			}
		}
		if _, err := getItem(ctx, t, sessionID, in.ItemID); err != nil {
			return err
		}
		out.CheckedAt = fromMillis(millis(t.now))
		if _, err := t.ExecContext(ctx, `DELETE FROM size_checks WHERE item_id = ?`, in.ItemID); err != nil {
			return err
		}
		if _, err := t.ExecContext(ctx, `INSERT INTO size_checks(item_id, serial, restored, checked_at) VALUES (?, ?, ?, ?)`,
			in.ItemID, in.Serial, in.Restored, millis(t.now)); err != nil {
			return fmt.Errorf("insert size check: %w", err)
		}
		for i, o := range out.Sizes {
			if err := insertSizeOutcome(ctx, t, in.ItemID, i, o); err != nil {
				return err
			}
		}
		return t.change(ctx, sessionID, ChangeSession)
	})
	if err != nil {
		return nil, err
	}
	setSizeURLs(in.ItemID, out)
	return out, nil
}

func insertSizeOutcome(ctx context.Context, t *tx, itemID string, pos int, o SizeOutcome) error {
	bounds := ""
	if o.Bounds != nil {
		b, err := json.Marshal(o.Bounds)
		if err != nil {
			return err
		}
		bounds = string(b)
	}
	overlapping := o.Overlapping
	if overlapping == nil {
		overlapping = []string{}
	}
	ov, err := json.Marshal(overlapping)
	if err != nil {
		return err
	}
	_, err = t.ExecContext(ctx, `INSERT INTO size_check_sizes(item_id, position, name, width, height, density,
		width_dp, height_dp, found, matched_by, bounds_json, clipped, cut_off, overlapping_json, image_artifact,
		crop_artifact, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		itemID, pos, o.Name, o.Width, o.Height, o.Density, o.WidthDp, o.HeightDp, o.Found, o.MatchedBy, bounds,
		o.Clipped, o.CutOff, string(ov), o.ImageArtifact, o.CropArtifact, o.Error)
	if err != nil {
		return fmt.Errorf("insert size %d: %w", pos+1, err)
	}
	return nil
}

// sizePictureURL is where the console API serves a size's picture: kind is
// "image" (the whole screen) or "crop"; position counts from 0. The check's time
// is in the query because a newer check serves other pictures at the same path,
// and pictures are cached as immutable.
func sizePictureURL(itemID string, checkedAt time.Time, position int, kind string) string {
	return "/api/items/" + url.PathEscape(itemID) + "/sizes/" + strconv.Itoa(position) + "/" + kind +
		"?checked=" + strconv.FormatInt(millis(checkedAt), 10)
}

func setSizeURLs(itemID string, c *SizeCheck) {
	for i := range c.Sizes {
		o := &c.Sizes[i]
		if o.ImageArtifact != "" {
			o.ImageURL, o.Path = sizePictureURL(itemID, c.CheckedAt, i, "image"), relArtifact(o.ImageArtifact)
		}
		if o.CropArtifact != "" {
			o.CropURL, o.CropPath = sizePictureURL(itemID, c.CheckedAt, i, "crop"), relArtifact(o.CropArtifact)
		}
	}
}

// SizePicture returns the artifact key of one size's picture of an item's latest
// check (kind "image" or "crop"), or SCREENSHOT_NOT_FOUND.
func (s *Store) SizePicture(ctx context.Context, itemID string, position int, kind string) (string, error) {
	if err := checkKey("itemId", itemID); err != nil {
		return "", err
	}
	col := map[string]string{"image": "image_artifact", "crop": "crop_artifact"}[kind]
	if col == "" {
		return "", invalid("a size's picture is image or crop, not %s", echo(kind))
	}
	var key string
	err := s.read(ctx, "reading size picture", func(t *sql.Tx) error {
		err := t.QueryRowContext(ctx, `SELECT `+col+` FROM size_check_sizes WHERE item_id = ? AND position = ?`,
			itemID, position).Scan(&key)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && key == "") {
			return errorf(errcode.ScreenshotNotFound, "item %s has no %s for size %d; check it on sizes first", echo(itemID), kind, position+1)
		}
		return err
	})
	return key, err
}

// attachSizeChecks fills Sizes on the items that have been checked on sizes,
// with one query per session.
func attachSizeChecks(ctx context.Context, q querier, items []Item) error {
	bySession := map[string][]int{}
	for i := range items {
		bySession[items[i].SessionID] = append(bySession[items[i].SessionID], i)
	}
	for sessionID, idx := range bySession {
		checks, err := sessionSizeChecks(ctx, q, sessionID)
		if err != nil {
			return err
		}
		for _, i := range idx {
			items[i].Sizes = checks[items[i].ItemID]
		}
	}
	return nil
}

func sessionSizeChecks(ctx context.Context, q querier, sessionID string) (map[string]*SizeCheck, error) {
	rows, err := q.QueryContext(ctx, `SELECT c.item_id, c.serial, c.restored, c.checked_at, s.name, s.width, s.height,
		s.density, s.width_dp, s.height_dp, s.found, s.matched_by, s.bounds_json, s.clipped, s.cut_off,
		s.overlapping_json, s.image_artifact, s.crop_artifact, s.error
		FROM size_checks c JOIN items i ON i.id = c.item_id JOIN size_check_sizes s ON s.item_id = c.item_id
		WHERE i.session_id = ? ORDER BY c.item_id, s.position`, sessionID)
	if err != nil {
		return nil, fmt.Errorf("query size checks: %w", err)
	}
	defer rows.Close()
	out := map[string]*SizeCheck{}
	for rows.Next() {
		var itemID, bounds, overlapping string
		var checked int64
		var c SizeCheck
		var o SizeOutcome
		if err := rows.Scan(&itemID, &c.Serial, &c.Restored, &checked, &o.Name, &o.Width, &o.Height, &o.Density,
			&o.WidthDp, &o.HeightDp, &o.Found, &o.MatchedBy, &bounds, &o.Clipped, &o.CutOff, &overlapping,
			&o.ImageArtifact, &o.CropArtifact, &o.Error); err != nil {
			return nil, err
		}
		if bounds != "" {
			o.Bounds = &Bounds{}
			if err := json.Unmarshal([]byte(bounds), o.Bounds); err != nil {
				return nil, fmt.Errorf("size check of item %s: bounds_json: %w", itemID, err)
			}
		}
		if err := json.Unmarshal([]byte(overlapping), &o.Overlapping); err != nil {
			return nil, fmt.Errorf("size check of item %s: overlapping_json: %w", itemID, err)
		}
		if len(o.Overlapping) == 0 {
			o.Overlapping = nil
		}
		got := out[itemID]
		if got == nil {
			c.CheckedAt = fromMillis(checked)
			got = &c
			out[itemID] = got
		}
		got.Sizes = append(got.Sizes, o)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for itemID, c := range out {
		setSizeURLs(itemID, c)
	}
	return out, nil
}
