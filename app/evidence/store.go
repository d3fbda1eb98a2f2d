package evidence

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// Store is where redacted raw output goes:
// <Root>/<session-id>/<capture-id>/<collector file>, directories 0700 and
// files 0600, because even redacted debug output can be sensitive.
type Store struct {
	// Root is the absolute runtime-evidence directory.
	Root string
	// Display is Root as people and agents see it (relative to the project),
	// used for the paths in attachments.
	Display string
}

// safeID keeps an id from a URL or the database from escaping Root.
var safeID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,79}$`)

// NewCaptureID returns a fresh random capture id.
func NewCaptureID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	return "rc-" + hex.EncodeToString(b)
}

// Dir returns the directory of one capture (absolute and as shown).
func (s *Store) Dir(sessionID, captureID string) (abs, shown string, err error) {
	if !safeID.MatchString(sessionID) || !safeID.MatchString(captureID) {
		return "", "", fmt.Errorf("runtime evidence: malformed session or capture id %q/%q", sessionID, captureID)
	}
	return filepath.Join(s.Root, sessionID, captureID), filepath.ToSlash(filepath.Join(s.Display, sessionID, captureID)), nil
}

// write stores one file of a capture and returns its shown path.
func (s *Store) write(sessionID, captureID, name, text string) (string, error) {
	abs, shown, err := s.Dir(sessionID, captureID)
	if err != nil {
		return "", err
	}
	if err := mkdirPrivate(abs); err != nil {
		return "", err
	}
	path := filepath.Join(abs, name)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return "", fmt.Errorf("runtime evidence: %w", err)
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return "", fmt.Errorf("runtime evidence: write %s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("runtime evidence: close %s: %w", name, err)
	}
	return shown + "/" + name, nil
}

// mkdirPrivate creates dir and its missing parents 0700, and tightens the
// capture directory itself if it already existed with looser permissions.
func mkdirPrivate(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("runtime evidence: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return fmt.Errorf("runtime evidence: %w", err)
	}
	return nil
}

// storeRaw writes each collector's redacted output and links it from its
// attachment. A write that fails leaves the summary in place and says so in
// the attempt's warnings.
func storeRaw(req Request, att *Attempt, raws []rawOutput) {
	if req.Store == nil {
		return
	}
	if _, shown, err := req.Store.Dir(req.SessionID, att.ID); err == nil {
		att.Dir = shown
	}
	for i := range att.Attachments {
		at := &att.Attachments[i]
		if raws[i].text == "" {
			continue
		}
		path, err := req.Store.write(req.SessionID, att.ID, raws[i].file, raws[i].text)
		if err != nil {
			att.storeWarnings = append(att.storeWarnings, string(at.Kind)+"-"+string(ReasonStorageFailed))
			continue
		}
		at.Artifact = path
	}
}
