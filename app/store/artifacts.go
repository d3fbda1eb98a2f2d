package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"fixthis/app/errcode"
)

// PutArtifact stores data under its content hash and returns the artifact key
// ("<sha256>.<ext>"). The file is written to a temporary name, fsynced,
// renamed and its directory fsynced before PutArtifact returns, so a
// transaction that references the key afterwards never points at a missing
// or partial file, whatever crashes.
func (s *Store) PutArtifact(ctx context.Context, data []byte, ext string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	ext = normalizeExt(ext)
	sum := sha256.Sum256(data)
	key := hex.EncodeToString(sum[:]) + "." + ext
	final, err := s.loc.Artifact(key)
	if err != nil {
		return "", err
	}
	if st, err := os.Stat(final); err == nil && st.Size() == int64(len(data)) {
		// Already stored (and synced when it was written). Refresh the mtime
		// so CollectGarbage's grace period covers the save about to use it.
		now := s.opts.Now()
		if err := os.Chtimes(final, now, now); err != nil {
			return "", storageErr("saving artifact "+key, err)
		}
		return key, nil
	}
	if err := writeFileDurably(final, data); err != nil {
		return "", storageErr("saving artifact "+key, err)
	}
	return key, nil
}

func writeFileDurably(final string, data []byte) error {
	dir := filepath.Dir(final)
	created := false
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		created = true
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), final); err != nil {
		return err
	}
	ok = true
	if err := syncDir(dir); err != nil {
		return err
	}
	if created {
		return syncDir(filepath.Dir(dir))
	}
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// ArtifactPath returns the file of an artifact key, checking the key's shape
// so a key from a URL can never name a file outside the artifacts dir.
func (s *Store) ArtifactPath(key string) (string, error) { return s.loc.Artifact(key) }

// ReadArtifact returns an artifact's bytes.
func (s *Store) ReadArtifact(ctx context.Context, key string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := s.loc.Artifact(key)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errorf(errcode.ScreenNotFound, "artifact %s is missing", echo(key))
	}
	return b, storageErr("reading artifact "+key, err)
}

// GCResult reports what CollectGarbage did.
type GCResult struct {
	Removed     int
	FreedBytes  int64
	KeptInGrace int
}

// CollectGarbage removes artifact files no row references, skipping files
// younger than Options.GCGrace so an artifact written for a save whose
// transaction has not committed yet is never removed. It also prunes the
// change feed.
func (s *Store) CollectGarbage(ctx context.Context) (GCResult, error) {
	var res GCResult
	refs := map[string]bool{}
	err := s.read(ctx, "collecting garbage", func(t *sql.Tx) error {
		rows, err := t.QueryContext(ctx, `
			SELECT image_artifact FROM screens WHERE image_artifact <> ''
			UNION SELECT nodes_artifact FROM screens WHERE nodes_artifact <> ''
			UNION SELECT crop_artifact FROM items WHERE crop_artifact <> ''
			UNION SELECT video_artifact FROM clips WHERE session_id IS NOT NULL
			UNION SELECT strip_artifact FROM clips WHERE session_id IS NOT NULL AND strip_artifact <> ''
			UNION SELECT image_artifact FROM size_check_sizes WHERE image_artifact <> ''
			UNION SELECT crop_artifact FROM size_check_sizes WHERE crop_artifact <> ''`)
		if err != nil {
			return err
		}
		keys, err := appendRows(nil, rows, scanString)
		for _, k := range keys {
			refs[k] = true
		}
		return err
	})
	if err != nil {
		return res, err
	}
	cutoff := s.opts.Now().Add(-s.opts.GCGrace)
	root := s.loc.ArtifactsDir()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if d.IsDir() {
			return nil
		}
		name := d.Name()
		if refs[name] {
			return nil
		}
		if !artifactKey.MatchString(name) && !strings.HasPrefix(name, ".tmp-") {
			return nil // not ours; leave it alone
		}
		info, err := d.Info()
		if err != nil {
			return nil // vanished meanwhile
		}
		if info.ModTime().After(cutoff) {
			res.KeptInGrace++
			return nil
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		res.Removed++
		res.FreedBytes += info.Size()
		return nil
	})
	if err != nil {
		return res, storageErr("collecting garbage", fmt.Errorf("walk %s: %w", root, err))
	}
	return res, s.pruneChanges(ctx)
}
