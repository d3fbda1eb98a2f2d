package store

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

const (
	maxCommentLen   = 20000
	maxBatchItems   = 200
	maxKeyLen       = 200
	maxAgentTextLen = 20000
)

// cleanComment trims a comment and refuses an empty or oversized one; an
// empty comment is the console's 422.
func cleanComment(c string) (string, error) {
	c = strings.TrimSpace(c)
	if c == "" {
		return "", invalid("comment is empty; write what should change")
	}
	if !utf8.ValidString(c) || utf8.RuneCountInString(c) > maxCommentLen {
		return "", invalid("comment must be valid text of at most %d characters", maxCommentLen)
	}
	return c, nil
}

func cleanSeverity(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "med", "medium":
		return SeverityMed, nil
	case "high":
		return SeverityHigh, nil
	case "low":
		return SeverityLow, nil
	}
	return "", invalid("severity must be high, med or low, not %q", s)
}

func cleanAgentText(field, s string, required bool) (string, error) {
	s = strings.TrimSpace(s)
	if required && s == "" {
		return "", invalid("%s is required", field)
	}
	if !utf8.ValidString(s) || utf8.RuneCountInString(s) > maxAgentTextLen {
		return "", invalid("%s must be valid text of at most %d characters", field, maxAgentTextLen)
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
	return nil
}

// validateTarget checks a target's shape and drops fields its type does not
// carry, so what is stored is exactly what the type means.
func validateTarget(t *Target) error {
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
	return invalid("target type must be node, area or screen, not %q", t.Type)
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
