package sidekick

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func seedFile(f *testing.F, name string) {
	f.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
}

// FuzzParseSession: an app's session file, whatever it holds, is accepted only
// with protocol 1.3, one of its own socket names and a token, and never panics the host.
func FuzzParseSession(f *testing.F) {
	seedFile(f, "session.json")
	f.Add([]byte(`{"bridgeProtocolVersion":"2.0"}`))
	f.Add([]byte(`{"bridgeProtocolVersion":"1.3","packageName":"com.example.notes","socketName":"fixthis_com.example.notes-2","token":"t"}`))
	f.Add([]byte("\x00{"))
	f.Add([]byte(`{"bridgeProtocolVersion":"1.3","packageName":"` + strings.Repeat("x", 1<<20) + `"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseSession(b, "com.example.notes")
		if err != nil {
			if len(err.Error()) > 400 {
				t.Fatalf("error of %d bytes", len(err.Error()))
			}
			return
		}
		if s.BridgeProtocolVersion != Version || s.Token == "" || SocketAttempt(s.SocketName, s.PackageName) < 0 {
			t.Fatalf("accepted %+v", s)
		}
	})
}

// FuzzDecodeResponse: a response frame the app sends decodes or fails; a decoded
// inspection keeps its shape.
func FuzzDecodeResponse(f *testing.F) {
	for _, name := range []string{"inspect.response.json", "inspect_errors.response.json", "unauthorized.response.json", "bad_request.response.json"} {
		seedFile(f, name)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var r Response
		if json.Unmarshal(b, &r) != nil || !r.OK || len(r.Result) == 0 {
			return
		}
		var in json.RawMessage
		if err := json.Unmarshal(r.Result, &in); err != nil {
			t.Fatalf("result that decoded once does not decode again: %v", err)
		}
	})
}
