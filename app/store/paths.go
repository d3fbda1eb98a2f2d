package store

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// Locations resolves every on-disk path the store uses from one project
// directory, so no caller ever string-joins a path into .fixthis/ itself.
type Locations struct {
	// Project is the Android project directory the user works in.
	Project string
}

// DataDirName is the per-project directory holding the database and artifacts.
const DataDirName = ".fixthis"

// NewLocations returns the locations for projectDir, made absolute so that a
// later chdir by the process cannot move the store.
func NewLocations(projectDir string) (Locations, error) {
	if projectDir == "" {
		projectDir = "."
	}
	abs, err := filepath.Abs(projectDir)
	if err != nil {
		return Locations{}, fmt.Errorf("store: resolve project dir %q: %w", projectDir, err)
	}
	return Locations{Project: abs}, nil
}

// DataDir is <project>/.fixthis, created 0700.
func (l Locations) DataDir() string { return filepath.Join(l.Project, DataDirName) }

// Database is the SQLite file; SQLite adds -wal and -shm beside it.
func (l Locations) Database() string { return filepath.Join(l.DataDir(), "fixthis.db") }

// MCPEndpoint is where the running app records its MCP HTTP endpoint and token (0600),
// so `fixthis mcp-config --http` and the next launch can reuse them.
func (l Locations) MCPEndpoint() string { return filepath.Join(l.DataDir(), "mcp-endpoint.json") }

// SourceIndexCache is the project's source index from the last run, so a restart only
// re-reads the files that changed.
func (l Locations) SourceIndexCache() string { return filepath.Join(l.DataDir(), "source-index.bin") }

// DisplayOriginals is where a phone's display settings are kept from the first change
// FixThis makes until it restores them (0600), so a crash leaves nothing changed for
// long: the next start puts them back.
func (l Locations) DisplayOriginals() string {
	return filepath.Join(l.DataDir(), "display-originals.json")
}

// RuntimeEvidenceDir holds redacted runtime evidence, one directory per session
// and capture (see app/evidence.Store).
func (l Locations) RuntimeEvidenceDir() string { return filepath.Join(l.DataDir(), "runtime-evidence") }

// ArtifactsDir holds content-addressed files of saved screens (images, crops, trees) and clips.
func (l Locations) ArtifactsDir() string { return filepath.Join(l.DataDir(), "artifacts") }

// artifactKey is "<64 hex sha256>.<ext>"; the strict pattern keeps a key
// coming from a URL or the database from ever escaping the artifacts dir.
var artifactKey = regexp.MustCompile(`^[0-9a-f]{64}\.[a-z0-9]{1,8}$`)

// Artifact returns the path of the artifact with the given key, sharded by the
// first two hex digits so no directory grows past a few hundred entries.
func (l Locations) Artifact(key string) (string, error) {
	if !artifactKey.MatchString(key) {
		return "", invalid("artifact key %s is malformed", echo(key))
	}
	return filepath.Join(l.ArtifactsDir(), key[:2], key), nil
}

// normalizeExt turns ".PNG" or "png" into "png".
func normalizeExt(ext string) string {
	return strings.ToLower(strings.TrimPrefix(ext, "."))
}
