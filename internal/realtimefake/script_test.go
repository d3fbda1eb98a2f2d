package realtimefake

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLoadScript(t *testing.T) {
	s, err := LoadScript("testdata/script.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Turns) != 2 || s.Turns[1].Responses[0].ToolCalls[0].Name != "look_at_screen" || s.Turns[0].Responses[1].AudioMs != 600 {
		t.Fatalf("script = %+v", s)
	}
	dir := t.TempDir()
	for name, body := range map[string]string{
		"not json":           `{"turns": [`,
		"nameless call":      `{"turns":[{"responses":[{"toolCalls":[{"arguments":{}}]}]}]}`,
		"prefixless note":    `{"notes":[{"responses":[]}]}`,
		"nameless note call": `{"notes":[{"prefix":"[X]","responses":[{"toolCalls":[{"arguments":{}}]}]}]}`,
	} {
		p := filepath.Join(dir, "s.json")
		_ = os.WriteFile(p, []byte(body), 0o600)
		if _, err := LoadScript(p); err == nil {
			t.Fatalf("%s: loaded", name)
		}
	}
}

func TestLoadScriptNotes(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.json")
	_ = os.WriteFile(p, []byte(`{"notes":[{"prefix":"[ENDPOINT QUESTION]","responses":[{"toolCalls":[{"name":"relay_answer","callId":"call_1"}]}]}]}`), 0o600)
	s, err := LoadScript(p)
	if err != nil {
		t.Fatal(err)
	}
	c := s.Notes[0].Responses[0].ToolCalls[0]
	if c.CallID != "call_1" || string(c.Arguments) != "{}" {
		t.Fatalf("note call = %+v", c)
	}
}

func TestToneChunks(t *testing.T) {
	chunks := toneChunks(250)
	if len(chunks) != 3 || len(chunks[0]) != 2*SampleRate/10 || len(chunks[2]) != 2*SampleRate/20 {
		t.Fatalf("chunk sizes: %d chunks", len(chunks))
	}
}
