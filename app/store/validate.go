package store

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"

	"fixthis/app/errcode"
)

const (
	maxCommentLen   = 20000
	maxBatchItems   = 200
	maxKeyLen       = 200
	maxAgentTextLen = 20000
	// maxTargetBytes bounds one target as stored (snapshot and ancestors
	// included): every item travels to every console on each change.
	maxTargetBytes = 256 << 10
	// maxSnapshotField bounds each text field of a node snapshot.
	maxSnapshotField = 4000
	// maxSerialLen is adb's own bound on a device serial (adb.CheckSerial): a
	// phone FixThis can capture always has a serial the store takes.
	maxSerialLen = 255
)

// echo quotes a refused value for an error message (errcode.Quote), cut
// short so an error never repeats megabytes of input back.
func echo[T ~string](v T) string { return errcode.Quote(string(v)) }

// controlChar reports the first control character in s (multiline text may
// hold newlines and tabs), or -1.
func controlChar(s string, multiline bool) rune {
	for _, r := range s {
		if multiline && (r == '\n' || r == '\t' || r == '\r') {
			continue
		}
		if unicode.IsControl(r) {
			return r
		}
	}
	return -1
}

// checkText refuses invalid UTF-8, control characters and text longer than
// max runes in a stored field.
func checkText(field, s string, max int, multiline bool) error {
	if !utf8.ValidString(s) {
		return invalid("%s is not valid UTF-8 text", field)
	}
	if r := controlChar(s, multiline); r >= 0 {
		return invalid("%s contains the control character U+%04X; remove it", field, r)
	}
	if n := utf8.RuneCountInString(s); n > max {
		return invalid("%s is %d characters long; at most %d", field, n, max)
	}
	return nil
}

// cleanComment trims a comment and refuses an empty or oversized one; an
// empty comment is the console's 422.
func cleanComment(c string) (string, error) {
	c = strings.TrimSpace(c)
	if err := checkText("comment", c, maxCommentLen, true); err != nil {
		return "", err
	}
	if c == "" {
		return "", invalid("comment is empty; write what should change")
	}
	return c, nil
}

func cleanSeverity(s Severity) (Severity, error) {
	switch strings.ToLower(strings.TrimSpace(string(s))) {
	case "", "med", "medium":
		return SeverityMed, nil
	case "high":
		return SeverityHigh, nil
	case "low":
		return SeverityLow, nil
	}
	return "", invalid("severity must be high, med or low, not %s", echo(s))
}

func cleanAgentText(field, s string, required bool) (string, error) {
	s = strings.TrimSpace(s)
	if err := checkText(field, s, maxAgentTextLen, true); err != nil {
		return "", err
	}
	if required && s == "" {
		return "", invalid("%s is required", field)
	}
	return s, nil
}

func checkKey(field, v string) error {
	if strings.TrimSpace(v) == "" {
		return invalid("%s is required", field)
	}
	if len(v) > maxKeyLen || !utf8.ValidString(v) {
		return invalid("%s must be at most %d bytes of text", field, maxKeyLen)
	}
	if r := controlChar(v, false); r >= 0 {
		return invalid("%s contains the control character U+%04X", field, r)
	}
	return nil
}

// validateTarget checks a target's shape and size and drops fields its type
// does not carry, so what is stored is exactly what the type means.
func validateTarget(t *Target) error {
	if err := validateTargetShape(t); err != nil {
		return err
	}
	if t.Snapshot != nil {
		sn := t.Snapshot
		for _, f := range []struct{ name, v string }{{"class", sn.Class}, {"text", sn.Text}, {"testTag", sn.TestTag},
			{"contentDescription", sn.ContentDescription}, {"role", sn.Role}, {"resourceId", sn.ResourceID}} {
			if err := checkText("target snapshot "+f.name, f.v, maxSnapshotField, true); err != nil {
				return err
			}
		}
	}
	if t.NodeUID != "" {
		if err := checkKey("target nodeUid", t.NodeUID); err != nil {
			return err
		}
	}
	if n := len(t.Ancestors); n > maxTargetBytes {
		return errorf(errcode.TooLarge, "target ancestors are %d KiB; at most %d KiB per target", n>>10, maxTargetBytes>>10)
	}
	b, err := json.Marshal(t)
	if err != nil {
		return invalid("target cannot be stored: %v", err)
	}
	if len(b) > maxTargetBytes {
		return errorf(errcode.TooLarge, "target is %d KiB; at most %d KiB per target (snapshot and ancestors included)", len(b)>>10, maxTargetBytes>>10)
	}
	return nil
}

func validateTargetShape(t *Target) error {
	switch t.Type {
	case TargetScreen:
		*t = Target{Type: TargetScreen}
		return nil
	case TargetArea:
		if err := checkBounds(t.Bounds); err != nil {
			return err
		}
		*t = Target{Type: TargetArea, Bounds: t.Bounds}
		return nil
	case TargetNode:
		if strings.TrimSpace(t.NodeUID) == "" {
			return invalid("node target needs nodeUid")
		}
		if err := checkBounds(t.Bounds); err != nil {
			return err
		}
		if len(t.Ancestors) > 0 {
			trimmed := bytes.TrimSpace(t.Ancestors)
			var arr []json.RawMessage
			if err := json.Unmarshal(trimmed, &arr); err != nil {
				return invalid("target ancestors must be a JSON array")
			}
			if len(arr) == 0 {
				t.Ancestors = nil
			}
		}
		return nil
	case "":
		return invalid("target type is required (node, area or screen)")
	}
	return invalid("target type must be node, area or screen, not %s", echo(t.Type))
}

func checkBounds(b *Bounds) error {
	if b == nil {
		return invalid("target needs bounds")
	}
	if b.Left < 0 || b.Top < 0 || b.Right <= b.Left || b.Bottom <= b.Top {
		return invalid("target bounds (%d,%d)-(%d,%d) are empty or negative", b.Left, b.Top, b.Right, b.Bottom)
	}
	return nil
}

// maxCoordinate bounds a target's edges where no screen size is known (the
// agent's device tools take the same limit).
const maxCoordinate = 100_000

// boundsOnScreen refuses target bounds that leave a w×h screen (b may be
// nil: a screen target has none).
func boundsOnScreen(b *Bounds, w, h int) error {
	if b == nil {
		return nil
	}
	if b.Right > w || b.Bottom > h {
		return invalid("target bounds (%d,%d)-(%d,%d) leave the %d×%d screen", b.Left, b.Top, b.Right, b.Bottom, w, h)
	}
	return nil
}
