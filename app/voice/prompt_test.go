package voice

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"fixthis/internal/golden"
)

// The exact session.update sent on connect is pinned: persona, tools, transcription,
// turn detection, voice. Regenerate with UPDATE_GOLDEN=1 after a deliberate change.
func TestSessionUpdateIsPinned(t *testing.T) {
	for _, tc := range []struct {
		file   string
		brief  string
		spoken bool
	}{
		{"testdata/session-update.json", "", true},
		{"testdata/session-update-brief-text.json", "The app is a hiking planner. Speak German.", false},
	} {
		got, err := SessionUpdate("marin", tc.brief, tc.spoken)
		if err != nil {
			t.Fatal(err)
		}
		// Indenting keeps the bytes' order: the golden file is what goes on the wire.
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, got, "", "  "); err != nil {
			t.Fatal(err)
		}
		pretty.WriteString("\n")
		golden.File(t, tc.file, pretty.Bytes(), os.Getenv("UPDATE_GOLDEN") == "1", "UPDATE_GOLDEN=1")
	}
}

func TestToolsAndPersonaKeepTheContract(t *testing.T) {
	var tools []struct {
		Type       string `json:"type"`
		Name       string `json:"name"`
		Parameters struct {
			Type                 string                     `json:"type"`
			Properties           map[string]json.RawMessage `json:"properties"`
			Required             []string                   `json:"required"`
			AdditionalProperties *bool                      `json:"additionalProperties"`
		} `json:"parameters"`
	}
	raw, _ := json.Marshal(Tools())
	if err := json.Unmarshal(raw, &tools); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"record_unit":    {"statement", "anchors", "transcript_excerpt"},
		"update_unit":    {"unit_id", "statement", "anchors_add"},
		"withdraw_unit":  {"unit_id", "reason"},
		"relay_answer":   {"unit_id", "answer_text"},
		"look_at_screen": {"reason"},
	}
	if len(tools) != len(want) {
		t.Fatalf("%d tools, want %d", len(tools), len(want))
	}
	for _, tool := range tools {
		params, ok := want[tool.Name]
		if !ok || tool.Type != "function" || tool.Parameters.Type != "object" {
			t.Fatalf("unexpected tool %+v", tool)
		}
		if ap := tool.Parameters.AdditionalProperties; ap == nil || *ap {
			t.Errorf("%s: additionalProperties must be false", tool.Name)
		}
		if len(tool.Parameters.Properties) != len(params) {
			t.Errorf("%s: parameters %v, want %v", tool.Name, tool.Parameters.Properties, params)
		}
		for _, p := range params {
			if _, ok := tool.Parameters.Properties[p]; !ok {
				t.Errorf("%s lacks parameter %s", tool.Name, p)
			}
		}
	}
	i := strings.Index(Persona, "[SCREEN CONTEXT]")
	if i < 0 || strings.Contains(Persona[i+1:], "\n[") {
		t.Fatal("the persona's [SCREEN CONTEXT] section must be there and be its last section")
	}
	for _, web := range []string{"web page", "selector", "route", "riffrec", "docked"} {
		if strings.Contains(Persona, web) {
			t.Errorf("the persona still describes a web page: %q", web)
		}
	}
	if got := Instructions("brief"); !strings.HasSuffix(got, "[SCREEN CONTEXT]"+Persona[i+len("[SCREEN CONTEXT]"):]+"\n\n[SESSION BRIEF]\nbrief") {
		t.Fatal("the brief must follow the persona as [SESSION BRIEF]")
	}
}

func TestBriefChecks(t *testing.T) {
	cases := []struct {
		brief string
		ok    bool
	}{
		{"The app is a hiking planner. Users are mostly German speakers.", true},
		{"Talk about the token bucket design and the secret menu.", true},
		{"Use sk-abcdefghijklmnopqrstuvwx for tests", false},
		{"export OPENAI_API_KEY=abc123def456", false},
		{"password: hunter22", false},
		{"see https://user:pw@example.com/x", false},
		{"download https://example.com/f?token=abcdef123456", false},
		{"-----BEGIN RSA PRIVATE KEY-----", false},
		{"ghp_abcdefghijklmnopqrstuvwxyz0123456789", false},
		{"Bearer 9f8e7d6c5b4a39281706f5e4", false},
		{"Authorization: Basic dXNlcjpodW50ZXIyMnBhc3M=", false},
		{"call it with eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc123", false},
		{"The bearer of bad news is the error banner; basic users see it first.", true},
		{strings.Repeat("a", MaxBriefChars+1), false},
		{strings.Repeat("ä", MaxBriefChars), true},
	}
	for _, tc := range cases {
		err := CheckBrief(tc.brief)
		if (err == nil) != tc.ok {
			t.Errorf("CheckBrief(%.40q) = %v, want ok=%v", tc.brief, err, tc.ok)
		}
		if err != nil && (strings.Contains(err.Error(), "hunter22") || strings.Contains(err.Error(), "abc123")) {
			t.Errorf("the refusal echoes the secret: %v", err)
		}
	}
	dir := t.TempDir()
	if b, err := LoadBrief(dir); b != "" || err != nil {
		t.Fatalf("no brief: %q %v", b, err)
	}
	_ = os.WriteFile(dir+"/"+BriefFile, []byte("  Plan hikes.\n"), 0o600)
	if b, err := LoadBrief(dir); b != "Plan hikes." || err != nil {
		t.Fatalf("brief: %q %v", b, err)
	}
}

func TestRealtimeURL(t *testing.T) {
	for base, want := range map[string]string{
		"":                          "wss://api.openai.com/v1/realtime?model=gpt-realtime",
		"http://127.0.0.1:5555/v1/": "ws://127.0.0.1:5555/v1/realtime?model=gpt-realtime",
	} {
		cfg := ConfigFromEnv(func(k string) string {
			if k == "OPENAI_BASE_URL" {
				return base
			}
			return ""
		})
		if got, err := cfg.RealtimeURL(); err != nil || got != want {
			t.Errorf("base %q: %s %v, want %s", base, got, err, want)
		}
	}
	for _, bad := range []string{"ftp://x/v1", "https://u:p@x/v1"} {
		if _, err := (Config{BaseURL: bad, Model: "m"}).RealtimeURL(); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
