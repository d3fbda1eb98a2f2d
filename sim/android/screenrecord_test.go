// screenrecord over adb: Android's argument errors, and a stream ffmpeg decodes.
package android_test

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"fixthis/adb/adbtest"
	"fixthis/internal/h264"
	"fixthis/internal/h264/h264test"
	"fixthis/sim"
)

func TestScreenrecordBadArgsPrintWhatAndroidPrints(t *testing.T) {
	srv := adbtest.StartServer(t)
	dev := srv.ConnectSim(t, sim.Options{Scenario: "demo", LatencyScale: 0})
	tests := []struct {
		args   string
		stderr string
		exit   int
	}{
		{"--time-limit 0 -", "Time limit 0s outside acceptable range [1,180]\n", 2},
		{"--time-limit 181 -", "Time limit 181s outside acceptable range [1,180]\n", 2},
		{"--size 720 -", "Invalid size '720', must be width x height\n", 2},
		{"--size 0x720 -", "Invalid size 0x720, width and height may not be zero\n", 2},
		{"--bit-rate 5 -", "Bit rate 5bps outside acceptable range [100000,200000000]\n", 2},
		{"--bit-rate 4X -", "Unrecognized value: 4X\n", 2},
		{"--output-format=avi -", "Unknown format 'avi'\n", 2},
		{"--output-format=h264", "Must specify output file (see --help).\n", 2},
		{"--frobnicate -", "screenrecord: unrecognized option '--frobnicate'\n", 2},
		{"--size", "screenrecord: option '--size' requires an argument\n", 2},
		{"--output-format=h264 --size 5000x5000 -", "ERROR: unable to configure video/avc codec at 5000x5000 (err=-2147483648)\n", 0},
	}
	for _, tc := range tests {
		r := srv.ADB(t, "-s", dev.Serial(), "shell", "screenrecord "+tc.args)
		if string(r.Stderr) != tc.stderr || r.ExitCode != tc.exit || len(r.Stdout) != 0 {
			t.Errorf("screenrecord %s:\n got stderr %q exit %d stdout %d bytes\nwant stderr %q exit %d",
				tc.args, r.Stderr, r.ExitCode, len(r.Stdout), tc.stderr, tc.exit)
		}
	}
	help := srv.ADB(t, "-s", dev.Serial(), "shell", "screenrecord --help")
	if help.ExitCode != 0 || !strings.Contains(string(help.Stderr), "Default / maximum is 180.") {
		t.Errorf("--help: exit %d, stderr %q", help.ExitCode, help.Stderr)
	}
}

// TestScreenrecordStreamsWhileScrolling records the demo over `adb exec-out` while
// the list scrolls, then decodes the stream with ffmpeg: it must decode cleanly, hold
// a frame per change, and end on exactly what the phone shows.
func TestScreenrecordStreamsWhileScrolling(t *testing.T) {
	h264test.FFmpeg(t)
	srv := adbtest.StartServer(t)
	dev := srv.ConnectSim(t, sim.Options{Scenario: "demo", LatencyScale: 0})
	// No --size: the display's own 1080x2400, so the last frame can be compared with
	// the phone's pixels without a scaler in between.
	const w, h = 1080, 2400
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "adb", "-P", strconv.Itoa(srv.Port), "-s", dev.Serial(), "exec-out",
		"screenrecord", "--output-format=h264", "--time-limit", "3", "-")
	var stream, stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Scroll only once the first picture has arrived, so every scroll is recorded.
	first := make([]byte, 1)
	if _, err := io.ReadFull(stdout, first); err != nil {
		t.Fatalf("no output from screenrecord: %v: %s", err, stderr.String())
	}
	stream.Write(first)
	copied := make(chan error, 1)
	go func() {
		_, err := io.Copy(&stream, stdout)
		copied <- err
	}()
	se := dev.Session()
	changes := 0
	// Three swipes end 1.8 s into the 3 s recording: the last scroll's pictures are
	// encoded before the time limit even on a loaded machine.
	for i := 0; i < 3; i++ {
		v := se.Version()
		se.Swipe(540, 1500, 540, 1300, 300*time.Millisecond)
		if se.Version() != v {
			changes++
		}
		time.Sleep(300 * time.Millisecond)
	}
	if changes < 2 {
		t.Fatalf("only %d of 3 swipes scrolled the demo list", changes)
	}
	last := se.Frame()
	if err := <-copied; err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("adb exec-out screenrecord: %v: %s", err, stderr.String())
	}
	if took := time.Since(start); took < 2900*time.Millisecond || took > 8*time.Second {
		t.Errorf("a 3 s recording took %s", took)
	}
	frames := h264test.Decode(t, stream.Bytes(), w, h)
	// A swipe moves the list over its 300 ms, a step per display frame: the recording
	// holds several pictures of each scroll, never more than the steps.
	if len(frames) <= 1+changes || len(frames) > 1+changes*18 {
		t.Fatalf("decoded %d frames for %d animated scrolls of 18 steps", len(frames), changes)
	}
	want := h264.YCbCr(last)
	if d := h264test.Diff(frames[len(frames)-1], want); d != "" {
		t.Errorf("last decoded frame differs from the phone's screen: %s", d)
	}
}
