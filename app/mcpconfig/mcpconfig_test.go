package mcpconfig

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var ep = Endpoint{Binary: "/opt/fixthis/fixthis", ProjectDir: "/home/me/app", URL: "http://127.0.0.1:4242/mcp", Token: "tok"}

func TestRender(t *testing.T) {
	tests := []struct {
		target string
		http   bool
		want   []string
	}{
		{"claude", false, []string{`"command": "/opt/fixthis/fixthis"`, `"mcp"`, `"--project-dir"`, `"/home/me/app"`}},
		{"claude", true, []string{`"type": "http"`, `"url": "http://127.0.0.1:4242/mcp"`, `"Authorization": "Bearer tok"`}},
		{"cursor", true, []string{`"url": "http://127.0.0.1:4242/mcp"`, `"Bearer tok"`}},
		{"codex", false, []string{"[mcp_servers.fixthis]", `command = "/opt/fixthis/fixthis"`, `args = ["mcp", "--project-dir", "/home/me/app"]`}},
		{"codex", true, []string{`url = "http://127.0.0.1:4242/mcp"`, `Authorization = "Bearer tok"`}},
	}
	for _, tc := range tests {
		got, err := Render(tc.target, ep, tc.http)
		if err != nil {
			t.Fatalf("%s http=%v: %v", tc.target, tc.http, err)
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s http=%v: missing %q in\n%s", tc.target, tc.http, w, got)
			}
		}
	}
	if _, err := Render("vim", ep, false); err == nil {
		t.Fatal("unknown target accepted")
	}
	if _, err := Render("claude", Endpoint{}, true); err == nil {
		t.Fatal("HTTP config without a running app accepted")
	}
}

func TestWriteMergesJSONKeepingOtherServers(t *testing.T) {
	dir := t.TempDir()
	existing := `{"mcpServers":{"other":{"command":"x"}},"theme":"dark"}`
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(existing), 0o644); err != nil {
		t.Fatal(err)
	}
	path, err := Write(dir, "claude", ep, false)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	servers := doc["mcpServers"].(map[string]any)
	if servers["other"] == nil || servers["fixthis"] == nil || doc["theme"] != "dark" {
		t.Fatalf("merge lost something: %s", data)
	}
}

func TestWriteRefusesBrokenJSON(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".cursor"), 0o755)
	os.WriteFile(filepath.Join(dir, ".cursor", "mcp.json"), []byte("{oops"), 0o644)
	if _, err := Write(dir, "cursor", ep, false); err == nil {
		t.Fatal("broken config overwritten")
	}
}

func TestWriteTOMLReplacesOnlyOurTable(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".codex"), 0o755)
	old := "model = \"o3\"\n\n[mcp_servers.fixthis]\ncommand = \"old\"\n\n[mcp_servers.fixthis.env]\nA = \"1\"\n\n[mcp_servers.other]\ncommand = \"y\"\n"
	os.WriteFile(filepath.Join(dir, ".codex", "config.toml"), []byte(old), 0o644)
	path, err := Write(dir, "codex", ep, true)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	got := string(data)
	for _, want := range []string{`model = "o3"`, "[mcp_servers.other]", `url = "http://127.0.0.1:4242/mcp"`} {
		if !strings.Contains(got, want) {
			t.Fatalf("missing %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, `command = "old"`) || strings.Count(got, "[mcp_servers.fixthis]") != 1 {
		t.Fatalf("old table not replaced:\n%s", got)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("HTTP config with a token is %v, want 0600", st.Mode().Perm())
	}
	// Appending to a file without our table.
	os.WriteFile(path, []byte("model = \"o3\""), 0o644)
	if _, err := Write(dir, "codex", ep, false); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(path)
	if !strings.HasPrefix(string(data), "model = \"o3\"\n\n[mcp_servers.fixthis]\n") {
		t.Fatalf("append: %q", data)
	}
}
