package app

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"image/png"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fixthis/app/device"
	"fixthis/app/store"
	"fixthis/capture"
	"fixthis/internal/eventually"
	"fixthis/internal/h264/h264test"
)

// TestClipOfTheLiveVideo scrolls the simulated phone while a console watches its
// video, cuts the last 2 s, and checks the file with ffprobe, the strip, the
// error answers and an item carrying the clip.
func TestClipOfTheLiveVideo(t *testing.T) {
	e := newTestEnv(t)
	e.waitSimSelected()
	var sess store.Session
	e.mustJSON("POST", "/api/sessions", map[string]any{"title": "clips"}, &sess)

	// No console watches yet: nothing is kept.
	r := e.do("POST", "/api/preview/clip", ClipRequest{Seconds: 2, SessionID: sess.SessionID}, nil)
	if r.Status != http.StatusConflict || !strings.Contains(string(r.Body), "CLIP_UNAVAILABLE") {
		t.Fatalf("clip without a live screen: %d %s", r.Status, r.Body)
	}
	for _, secs := range []int{0, 31, -1} {
		r := e.do("POST", "/api/preview/clip", ClipRequest{Seconds: secs, SessionID: sess.SessionID}, nil)
		if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "1–30") {
			t.Errorf("seconds %d: %d %s", secs, r.Status, r.Body)
		}
	}

	req, _ := http.NewRequest("GET", e.srv.URL+"/api/preview/stream", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("GET /api/preview/stream: %v %v", res, err)
	}
	defer res.Body.Close()
	defer e.keepScrolling(5, 300*time.Millisecond, 50*time.Millisecond)()
	// Read the stream until it has carried 2.5 s of pictures.
	br := bufio.NewReader(res.Body)
	waitForSpan(t, 2500*time.Millisecond, func() time.Time {
		for {
			kind, body, err := readStreamMessage(br)
			if err != nil {
				t.Fatal(err)
			}
			if kind == streamAccessUnit {
				return time.UnixMicro(int64(binary.BigEndian.Uint64(body[1:9])))
			}
		}
	})
	var got ClipResponse
	e.mustJSON("POST", "/api/preview/clip", ClipRequest{Seconds: 2, SessionID: sess.SessionID}, &got)
	if got.Clip.Source != "h264" || got.Frames < 2 || got.DurationMs < 1800 || got.DurationMs > 2200 {
		t.Fatalf("clip %+v", got)
	}
	p := h264test.Probe(t, filepath.Join(e.projectDir, got.Clip.Path))
	if p.Codec != "h264" || p.Frames != got.Frames || p.Width != got.Width || p.Height != got.Height ||
		p.Duration < 1.8 || p.Duration > 2.2 {
		t.Errorf("ffprobe sees %+v, the clip says %+v", p, got)
	}
	v := e.do("GET", got.Clip.VideoURL, nil, map[string]string{"Range": "bytes=0-99"})
	if v.Status != http.StatusPartialContent || v.Header.Get("Content-Type") != "video/mp4" || len(v.Body) != 100 {
		t.Errorf("GET video range: %d %s %d bytes", v.Status, v.Header.Get("Content-Type"), len(v.Body))
	}
	s := e.do("GET", got.Clip.StripURL, nil, nil)
	if s.Status != 200 {
		t.Fatalf("GET strip: %d %s", s.Status, s.Body)
	}
	if _, err := png.Decode(bytes.NewReader(s.Body)); err != nil {
		t.Errorf("strip does not decode: %v", err)
	}

	// The console closes its video to annotate: a clip then ends at the freeze.
	res.Body.Close()
	e.freeze()
	eventually.True(t, 10*time.Second, "the video stopped", func() bool { return e.app.device.Video.Viewers() == 0 })
	var frozen ClipResponse
	e.mustJSON("POST", "/api/preview/clip", ClipRequest{Seconds: 1, SessionID: sess.SessionID}, &frozen)
	if frozen.Clip.Source != "h264" || frozen.DurationMs < 900 || frozen.DurationMs > 1100 {
		t.Errorf("clip while frozen: %+v", frozen)
	}

	// A clip alone is a screen note.
	var saved store.SaveBatchResult
	e.mustJSON("POST", "/api/items/batch", map[string]any{"sessionId": sess.SessionID, "workspaceId": "ws",
		"items": []map[string]any{{"draftItemId": "d1", "target": map[string]any{"type": "screen"}, "severity": "med",
			"comment": "the list stutters when I fling it", "clipId": got.ClipID}}}, &saved)
	if it := saved.Items[0]; it.Clip == nil || it.Clip.ClipID != got.ClipID || it.Clip.Path != got.Clip.Path || it.Clip.FrameStripPath == "" {
		t.Errorf("saved item's clip: %+v", it.Clip)
	}

	// A clip note on a frozen screen is saved although the phone has moved on since
	// (the motion is what it shows); a node item on the same frame is refused.
	fr := e.freeze()
	e.sim.Session().Key("HOME") // the launcher: a screen the frame no longer matches
	eventually.True(t, 10*time.Second, "the screen to move", func() bool {
		snap, err := e.app.device.Capturer.Glance(context.Background(), e.sim.Serial())
		then, perr := capture.ParseFingerprint(fr.Screen.Fingerprint)
		if err != nil || perr != nil {
			return false
		}
		now := snap.Fingerprint
		then.Structure, now.Structure = "", ""
		return !then.Matches(now)
	})
	onFrame := func(item map[string]any) map[string]any {
		return map[string]any{"sessionId": sess.SessionID, "workspaceId": "ws", "frozenId": fr.FrozenID,
			"frozenFingerprint": fr.Screen.Fingerprint, "items": []map[string]any{item}}
	}
	r = e.do("POST", "/api/items/batch", onFrame(map[string]any{"draftItemId": "d0", "target": map[string]any{"type": "screen"},
		"severity": "med", "comment": "the list jumps back", "clipId": frozen.ClipID}), map[string]string{"If-Match": `"1"`})
	if r.Status != http.StatusOK {
		t.Fatalf("clip note on a frame the phone has left: %d %s", r.Status, r.Body)
	}
	n := fr.Nodes[0]
	r = e.do("POST", "/api/items/batch", onFrame(map[string]any{"draftItemId": "d9", "severity": "med", "comment": "wrong colour",
		"target": map[string]any{"type": "node", "nodeUid": n.UID, "bounds": n.Bounds}}), map[string]string{"If-Match": r.Header.Get("ETag")})
	if r.Status != http.StatusConflict || !strings.Contains(string(r.Body), "screen_fingerprint_mismatch") {
		t.Errorf("node item on a frame the phone has left: %d %s", r.Status, r.Body)
	}
}

// TestClipOfRawFrames is the fallback without video (--preview jpeg): the clip is
// made from the raw frames that arrived, through the same route.
func TestClipOfRawFrames(t *testing.T) {
	e := newTestEnv(t, func(o *Options) { o.Preview = device.VideoJPEG })
	e.waitSimSelected()
	var sess store.Session
	e.mustJSON("POST", "/api/sessions", map[string]any{"title": "raw clips"}, &sess)
	sse := e.subscribe() // a console watching: the raw-frame loop runs
	defer e.keepScrolling(4, 250*time.Millisecond, 50*time.Millisecond)()
	// Wait until the frames that arrived span 3.5 s.
	waitForSpan(t, 3500*time.Millisecond, func() time.Time {
		f := decodeEvent[device.PreviewFrame](t, sse.next(20*time.Second, "preview-ready", nil))
		at, err := time.Parse(time.RFC3339Nano, f.CapturedAt)
		if err != nil {
			t.Fatal(err)
		}
		return at
	})
	var got ClipResponse
	e.mustJSON("POST", "/api/preview/clip", ClipRequest{Seconds: 3, SessionID: sess.SessionID}, &got)
	if got.Clip.Source != "jpeg" || got.Frames < 2 || got.Clip.StripURL == "" {
		t.Fatalf("clip %+v", got)
	}

	// A recording cut for a session that is unknown or closed is refused and keeps
	// running: the same recording is then cut into the right session, and only that
	// cut ends it.
	var rec RecordingResponse
	e.mustJSON("POST", "/api/preview/clip/record", RecordingRequest{}, &rec)
	sse.next(20*time.Second, "preview-ready", nil)
	var closed store.Session
	e.mustJSON("POST", "/api/sessions", map[string]any{"title": "closed"}, &closed)
	e.mustJSON("POST", "/api/sessions/"+closed.SessionID+"/close", nil, nil)
	for _, bad := range []string{"sess-none", closed.SessionID} {
		r := e.do("POST", "/api/preview/clip", ClipRequest{RecordingID: rec.RecordingID, SessionID: bad}, nil)
		if r.Status < 400 {
			t.Fatalf("recording cut for session %s: %d %s", bad, r.Status, r.Body)
		}
	}
	var recorded ClipResponse
	e.mustJSON("POST", "/api/preview/clip", ClipRequest{RecordingID: rec.RecordingID, SessionID: sess.SessionID}, &recorded)
	if recorded.Clip.SessionID != sess.SessionID || recorded.Frames < 1 {
		t.Errorf("recording cut after two refused cuts: %+v", recorded)
	}
	r := e.do("POST", "/api/preview/clip", ClipRequest{RecordingID: rec.RecordingID, SessionID: sess.SessionID}, nil)
	if r.Status != http.StatusNotFound || !strings.Contains(string(r.Body), "CLIP_NOT_FOUND") {
		t.Errorf("a recording cut twice: %d %s", r.Status, r.Body)
	}

	p := h264test.Probe(t, filepath.Join(e.projectDir, got.Clip.Path))
	want := float64(got.DurationMs) / 1000
	if p.Codec != "h264" || p.Frames != got.Frames || p.Duration < want*0.9 || p.Duration > want*1.1 {
		t.Errorf("ffprobe sees %+v, the clip says %+v", p, got)
	}
	if got.DurationMs < 2900 || got.DurationMs > 3100 {
		t.Errorf("a 3 s clip of 3.5 s of frames lasts %d ms", got.DurationMs)
	}
}

// waitForSpan reads the capture times of pictures with next until they span more
// than span.
func waitForSpan(t *testing.T, span time.Duration, next func() time.Time) {
	t.Helper()
	first := next()
	for next().Sub(first) <= span {
	}
}
