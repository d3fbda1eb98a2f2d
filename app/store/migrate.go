package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

//go:embed sql/migrations/*.sql
var migrationFS embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

// migrations reads the embedded files and checks the numbering rule of
// sql/README.md: 0001, 0002, … without gaps.
func migrations() ([]migration, error) {
	names, err := fs.Glob(migrationFS, "sql/migrations/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []migration
	for i, name := range names {
		base := path.Base(name)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || len(num) != 4 {
			return nil, fmt.Errorf("migration %s: name must be NNNN_what.sql", base)
		}
		if v != i+1 {
			return nil, fmt.Errorf("migration %s: expected number %04d", base, i+1)
		}
		body, err := migrationFS.ReadFile(name)
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: base, sql: string(body)})
	}
	return out, nil
}

// SchemaVersion is the user_version this binary brings a database to.
func SchemaVersion() int {
	ms, err := migrations()
	if err != nil {
		return 0
	}
	return len(ms)
}

func (s *Store) migrate(ctx context.Context) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	for _, m := range ms {
		err := s.write(ctx, "migrating schema", func(t *tx) error {
			var current int
			if err := t.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
				return err
			}
			if current > len(ms) {
				return fmt.Errorf("database schema %d is newer than this FixThis (%d); upgrade FixThis", current, len(ms))
			}
			if current >= m.version {
				return nil // applied already, possibly by another process just now
			}
			if _, err := t.ExecContext(ctx, m.sql); err != nil {
				return fmt.Errorf("apply %s: %w", m.name, err)
			}
			_, err := t.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.version))
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}
