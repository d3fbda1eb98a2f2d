package app

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"fixthis/app/device"
	"fixthis/app/httpapi"
	"fixthis/internal/h264/h264test"
)

// readStreamMessage reads one GET /api/preview/stream message: kind and body.
func readStreamMessage(r io.Reader) (byte, []byte, error) {
	var head [5]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return 0, nil, err
	}
	body := make([]byte, binary.BigEndian.Uint32(head[:4])-1)
	_, err := io.ReadFull(r, body)
	return head[4], body, err
}

func TestPreviewStreamSendsDecodableVideoWhileScrolling(t *testing.T) {
	h264test.FFmpeg(t)
	// A long quiet spell: on a loaded machine a picture can stall mid-way for longer
	// than the default, and this test checks that every picture decodes.
	e := newTestEnv(t, func(o *Options) { o.Video.TimeLimit, o.Video.Quiet = 2*time.Second, 500*time.Millisecond })
	e.waitSimSelected()
	req, _ := http.NewRequest("GET", e.srv.URL+"/api/preview/stream", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("GET /api/preview/stream: %d %s", res.StatusCode, b)
	}
	br := bufio.NewReader(res.Body)
	kind, body, err := readStreamMessage(br)
	if err != nil || kind != streamConfig {
		t.Fatalf("first message: kind %d, %v", kind, err)
	}
	var cfg device.VideoConfig
	if err := json.Unmarshal(body, &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Width%16 != 0 || cfg.Height%16 != 0 || cfg.DisplayWidth != 1080 || cfg.ContentHeight == 0 {
		t.Fatalf("config %+v", cfg)
	}
	defer e.keepScrolling(5, 300*time.Millisecond, 80*time.Millisecond)()
	// Read until 15 pictures and two key frames (one restart) have come: how fast
	// they come depends on the machine's load, which benchmarks measure, not this test.
	var stream []byte
	pictures, keys := 0, 0
	deadline := time.Now().Add(30 * time.Second)
	for pictures < 15 || keys < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("%d pictures, %d key frames after 30 s of scrolling with a 2 s time limit", pictures, keys)
		}
		kind, body, err := readStreamMessage(br)
		if err != nil {
			t.Fatalf("after %d pictures: %v", pictures, err)
		}
		if kind == streamKeepAlive {
			continue // a second without pictures on a loaded machine
		}
		if kind != streamAccessUnit {
			t.Fatalf("message kind %d", kind)
		}
		arrived := time.UnixMicro(int64(binary.BigEndian.Uint64(body[1:9])))
		if time.Since(arrived) > 5*time.Second || arrived.After(time.Now()) {
			t.Errorf("arrival stamp %s is off", arrived)
		}
		if body[0]&streamFlagKeyUnit != 0 {
			keys++
		}
		stream = append(stream, body[9:]...)
		pictures++
	}
	if got := len(h264test.Decode(t, stream, cfg.Width, cfg.Height)); got != pictures {
		t.Errorf("ffmpeg decoded %d of %d pictures", got, pictures)
	}
}

func TestPreviewStreamRefusedWithJPEGAndSaysWhy(t *testing.T) {
	e := newTestEnv(t, func(o *Options) { o.Preview = device.VideoJPEG })
	e.waitSimSelected()
	r := e.do("GET", "/api/preview/stream", nil, nil)
	var body httpapi.ErrorBody
	r.decode(t, &body)
	if r.Status != http.StatusConflict || body.Error != "video_unavailable" {
		t.Fatalf("GET /api/preview/stream with --preview jpeg: %d %+v", r.Status, body)
	}
	var doc device.PreviewDoc
	e.mustJSON("GET", "/api/preview", nil, &doc)
	if doc.Status.VideoUnavailable == "" {
		t.Errorf("the preview status does not say why there is no video: %+v", doc.Status)
	}
}
