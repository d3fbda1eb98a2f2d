package mcp

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// serialRecorder is the app side's recorder, keeping the serial each call named.
type serialRecorder struct {
	mu      sync.Mutex
	serials []string
}

func (r *serialRecorder) RecordScreen(_ context.Context, serial string, seconds int) (*RecordedClip, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.serials = append(r.serials, serial)
	return &RecordedClip{ClipID: "c1", Serial: serial, DurationMs: int64(seconds) * 1000}, nil
}

// TestTheSidecarsSerialGoesOnlyWhereATakesOne: `fixthis mcp --serial X` adds X to
// the calls it forwards to the app, but only to tools that take a serial; the
// app refuses an argument a tool does not declare.
func TestTheSidecarsSerialGoesOnlyWhereATakesOne(t *testing.T) {
	s, _, items := seededStore(t, 1)
	rec := &serialRecorder{}
	app := httptest.NewServer(HTTPHandler(NewServer(Deps{Store: s, Recorder: rec}), "secret-token", nil))
	defer app.Close()
	endpoint := func() (string, string, error) { return app.URL + "/mcp", "secret-token", nil }
	sidecar := newClient(t, Deps{Store: s, Forward: NewForwarder(endpoint, "emulator-5554", "test")})

	res := call(t, sidecar, "fixthis_record_screen", map[string]any{"seconds": 1}, nil)
	if res.IsError || len(rec.serials) != 1 || rec.serials[0] != "emulator-5554" {
		t.Fatalf("record_screen through the sidecar: %q, the app saw %v", text(res), rec.serials)
	}
	// The app has no evidence collector here, so the call fails, but for that
	// reason and not for the sidecar's serial.
	res = call(t, sidecar, "fixthis_capture_runtime_evidence", map[string]any{"itemId": items[0].ItemID}, nil)
	if msg := text(res); strings.Contains(msg, "unknown argument") {
		t.Fatalf("capture_runtime_evidence through the sidecar: %q", msg)
	}
}
