// Package mcpconfig writes the MCP client configuration for the agents FixThis works
// with: Claude Code (.mcp.json), Codex (.codex/config.toml) and Cursor
// (.cursor/mcp.json). Stdio launches `fixthis mcp` as a sidecar; HTTP points the agent
// at the running app's /mcp endpoint with its bearer token.
package mcpconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Targets are the supported agents.
var Targets = []string{"claude", "codex", "cursor"}

// Endpoint is what a config points at.
type Endpoint struct {
	Binary     string // absolute path of the fixthis binary (stdio)
	ProjectDir string // absolute project directory (stdio)
	URL        string // http://127.0.0.1:PORT/mcp (HTTP)
	Token      string // bearer token (HTTP)
}

// ServerName is the key the FixThis server gets in every config.
const ServerName = "fixthis"

// File is the project-relative path a target's config lives at.
func File(target string) (string, error) {
	switch target {
	case "claude":
		return ".mcp.json", nil
	case "codex":
		return filepath.Join(".codex", "config.toml"), nil
	case "cursor":
		return filepath.Join(".cursor", "mcp.json"), nil
	}
	return "", fmt.Errorf("unknown target %q: want claude, codex or cursor", target)
}

// Render returns the config snippet for target (the whole file for a project that has
// none yet).
func Render(target string, ep Endpoint, http bool) (string, error) {
	if http && (ep.URL == "" || ep.Token == "") {
		return "", errors.New("no running FixThis app to point at: start `fixthis` or `fixthis serve` first, or use the stdio config")
	}
	switch target {
	case "claude", "cursor":
		doc := map[string]any{"mcpServers": map[string]any{ServerName: jsonServer(target, ep, http)}}
		out, _ := json.MarshalIndent(doc, "", "  ")
		return string(out) + "\n", nil
	case "codex":
		return tomlServer(ep, http), nil
	}
	_, err := File(target)
	return "", err
}

func jsonServer(target string, ep Endpoint, http bool) map[string]any {
	if http {
		s := map[string]any{"url": ep.URL, "headers": map[string]string{"Authorization": "Bearer " + ep.Token}}
		if target == "claude" {
			s["type"] = "http"
		}
		return s
	}
	return map[string]any{"command": ep.Binary, "args": []string{"mcp", "--project-dir", ep.ProjectDir}}
}

func tomlServer(ep Endpoint, http bool) string {
	var b strings.Builder
	b.WriteString("[mcp_servers." + ServerName + "]\n")
	if http {
		fmt.Fprintf(&b, "url = %s\n", strconv.Quote(ep.URL))
		fmt.Fprintf(&b, "http_headers = { Authorization = %s }\n", strconv.Quote("Bearer "+ep.Token))
	} else {
		fmt.Fprintf(&b, "command = %s\n", strconv.Quote(ep.Binary))
		fmt.Fprintf(&b, "args = [\"mcp\", \"--project-dir\", %s]\n", strconv.Quote(ep.ProjectDir))
	}
	return b.String()
}

// Write merges the FixThis server into the target's config file under projectDir,
// keeping every other server and setting, and returns the file's path.
func Write(projectDir, target string, ep Endpoint, http bool) (string, error) {
	rel, err := File(target)
	if err != nil {
		return "", err
	}
	path := filepath.Join(projectDir, rel)
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	var merged []byte
	switch target {
	case "codex":
		merged = mergeTOML(old, tomlServer(ep, http))
	default:
		if merged, err = mergeJSON(old, jsonServer(target, ep, http)); err != nil {
			return "", fmt.Errorf("%s: %w", path, err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	// An HTTP config holds a bearer token: keep it private to the user.
	mode := os.FileMode(0o644)
	if http {
		mode = 0o600
	}
	if err := os.WriteFile(path, merged, mode); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	if http {
		_ = os.Chmod(path, 0o600)
	}
	return path, nil
}

func mergeJSON(old []byte, server map[string]any) ([]byte, error) {
	doc := map[string]any{}
	if len(bytes.TrimSpace(old)) > 0 {
		if err := json.Unmarshal(old, &doc); err != nil {
			return nil, fmt.Errorf("existing config is not valid JSON, not touching it: %w", err)
		}
	}
	servers, _ := doc["mcpServers"].(map[string]any)
	if servers == nil {
		servers = map[string]any{}
	}
	servers[ServerName] = server
	doc["mcpServers"] = servers
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// tableHeader matches any TOML table header line.
var tableHeader = regexp.MustCompile(`(?m)^\s*\[`)

// mergeTOML replaces the [mcp_servers.fixthis] table (and its sub-tables) or appends it.
func mergeTOML(old []byte, section string) []byte {
	text := string(old)
	header := "[mcp_servers." + ServerName + "]"
	start := strings.Index(text, header)
	if start < 0 {
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		if text != "" {
			text += "\n"
		}
		return []byte(text + section)
	}
	end := len(text)
	rest := text[start+len(header):]
	for _, loc := range tableHeader.FindAllStringIndex(rest, -1) {
		line := strings.TrimSpace(rest[loc[0]:])
		if strings.HasPrefix(line, "[mcp_servers."+ServerName+".") {
			continue // a sub-table of ours (e.g. env) goes with it
		}
		end = start + len(header) + loc[0]
		break
	}
	tail := text[end:]
	if tail != "" {
		section += "\n"
	}
	return []byte(text[:start] + section + tail)
}
