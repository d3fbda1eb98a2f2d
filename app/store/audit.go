package store

import (
	"context"
	"fmt"
)

// Audit findings the user works with: the check id an item added from a finding
// keeps, and the findings dismissed as false positives on a screen.

// maxCheckLen bounds a check id; the audit's ids are short snake_case words.
const maxCheckLen = 40

// checkAuditCheck accepts "" (an item the user wrote) or a snake_case check id.
func checkAuditCheck(c string) error {
	if c == "" {
		return nil
	}
	if len(c) > maxCheckLen {
		return invalid("check must be at most %d characters, not %s", maxCheckLen, echo(c))
	}
	for i := 0; i < len(c); i++ {
		if b := c[i]; (b < 'a' || b > 'z') && b != '_' {
			return invalid("check must be a check id such as touch_target, not %s", echo(c))
		}
	}
	return nil
}

// nullable stores "" as NULL.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// DismissFinding keeps a finding dismissed on a screen: screenKey names the screen
// (its app and activity), findingKey the finding (audit.Finding.Key). Dismissing
// twice is the same as once.
func (s *Store) DismissFinding(ctx context.Context, screenKey, findingKey string) error {
	if err := checkKey("screen", screenKey); err != nil {
		return err
	}
	if err := checkKey("finding key", findingKey); err != nil {
		return err
	}
	return s.write(ctx, "dismissing an audit finding", func(t *tx) error {
		_, err := t.ExecContext(ctx, `INSERT INTO audit_dismissals(screen_key, finding_key, created_at)
			VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, screenKey, findingKey, millis(t.now))
		return err
	})
}

// DismissedFindings are the finding keys dismissed on a screen.
func (s *Store) DismissedFindings(ctx context.Context, screenKey string) (map[string]bool, error) {
	rows, err := s.rdb.QueryContext(ctx, `SELECT finding_key FROM audit_dismissals WHERE screen_key = ?`, screenKey)
	if err != nil {
		return nil, fmt.Errorf("query audit dismissals: %w", err)
	}
	keys, err := appendRows(nil, rows, scanString)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, k := range keys {
		out[k] = true
	}
	return out, nil
}
