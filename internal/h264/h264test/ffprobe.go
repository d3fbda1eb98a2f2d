package h264test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// Probed is what ffprobe reads from a video file: the first video stream's codec
// and size, the frames it decoded (-count_frames) and the file's duration.
type Probed struct {
	Codec    string
	Width    int
	Height   int
	Frames   int
	Duration float64 // seconds
}

// Probe reads the video file at path with ffprobe, an independent demuxer and
// decoder. Without ffprobe the test is skipped, or fails where ffmpeg is required.
func Probe(t testing.TB, path string) Probed {
	t.Helper()
	bin, err := exec.LookPath("ffprobe")
	if err != nil {
		if os.Getenv("FIXTHIS_REQUIRE_FFMPEG") != "" || os.Getenv("CI") != "" {
			t.Fatalf("ffprobe is required to check clips (Debian/Ubuntu: apt-get install ffmpeg): %v", err)
		}
		t.Skip("ffprobe is not installed; skipping the clip check")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, "-v", "error", "-count_frames", "-select_streams", "v:0",
		"-show_entries", "stream=codec_name,width,height,nb_read_frames:format=duration", "-of", "json", path)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ffprobe %s: %v: %s", path, err, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Errorf("ffprobe reported errors reading %s:\n%s", path, stderr.String())
	}
	var r struct {
		Streams []struct {
			Codec  string `json:"codec_name"`
			Width  int    `json:"width"`
			Height int    `json:"height"`
			Frames string `json:"nb_read_frames"`
		} `json:"streams"`
		Format struct {
			Duration string `json:"duration"`
		} `json:"format"`
	}
	if err := json.Unmarshal(out, &r); err != nil || len(r.Streams) != 1 {
		t.Fatalf("ffprobe output %s: %v", out, err)
	}
	s := r.Streams[0]
	n, _ := strconv.Atoi(s.Frames)
	d, _ := strconv.ParseFloat(r.Format.Duration, 64)
	return Probed{Codec: s.Codec, Width: s.Width, Height: s.Height, Frames: n, Duration: d}
}
