package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// voiceBench measures the voice path of a running `fixthis serve` whose interviewer
// is the fake Realtime server (OPENAI_BASE_URL): Select-mode click → [PAGE] note at
// the fake, audio chunk → append at the fake (chunked POSTs and one streamed body),
// and the CPU the fixthis process spends while listening.
//
//	benchclient voice -url URL -token T -fake FAKEURL -pid PID [-clicks 30] [-listen 10s]
func voiceBench(args []string) error {
	fs := flag.NewFlagSet("voice", flag.ContinueOnError)
	url := fs.String("url", "", "console URL")
	token := fs.String("token", "", "console token")
	fake := fs.String("fake", "", "the fake's base URL (…/v1)")
	pid := fs.Int("pid", 0, "the fixthis serve process, for its CPU time")
	clicks := fs.Int("clicks", 30, "clicks and chunks to time")
	listen := fs.Duration("listen", 10*time.Second, "how long to listen for the CPU figure")
	if err := fs.Parse(args); err != nil {
		return err
	}
	fakeRoot := strings.TrimSuffix(*fake, "/v1")
	c := consoleClient{base: strings.TrimRight(*url, "/"), token: *token}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := openEvents(ctx, c.base, c.token); err != nil { // a watching console
		return err
	}
	var sess struct{ SessionID string }
	if err := c.call("POST", "/api/sessions", map[string]string{"title": "Voice bench"}, &sess); err != nil {
		return err
	}
	var vs struct{ VoiceSessionID string }
	if err := c.call("POST", "/api/voice/sessions", map[string]any{"sessionId": sess.SessionID, "spokenReplies": false}, &vs); err != nil {
		return err
	}
	defer c.call("DELETE", "/api/voice/sessions/"+vs.VoiceSessionID, nil, nil)
	// The screen stands still; FixThis keeps its tree once its first capture is done
	// (for an app without a sidekick, after the device's warm uiautomator dump). An
	// untimed probe click waits for it.
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(300 * time.Millisecond) {
		var a struct{ NodeUID string }
		if err := c.call("POST", "/api/voice/sessions/"+vs.VoiceSessionID+"/anchors",
			map[string]any{"kind": "screen", "mode": "select", "note": "probe"}, nil); err != nil {
			return err
		}
		if err := c.call("POST", "/api/voice/sessions/"+vs.VoiceSessionID+"/anchors",
			map[string]any{"kind": "click", "mode": "select", "x": 540, "y": 700}, &a); err != nil {
			return err
		}
		if a.NodeUID != "" {
			break
		}
		if time.Now().After(deadline) {
			return errors.New("no click resolved to a node within 15 s of a still screen")
		}
	}
	time.Sleep(1100 * time.Millisecond) // past the 1 s refresh window of the probe

	// Clicks alternate between two points, so none is a refresh of the one before.
	points := [][2]int{{540, 700}, {540, 1500}}
	var clickMs []float64
	resolved := 0
	for i := range *clicks {
		p := points[i%2]
		t0 := time.Now()
		var a struct{ AnchorID, NodeUID string }
		if err := c.call("POST", "/api/voice/sessions/"+vs.VoiceSessionID+"/anchors",
			map[string]any{"kind": "click", "mode": "select", "x": p[0], "y": p[1]}, &a); err != nil {
			return err
		}
		at, err := waitReceived(fakeRoot, func(r received) bool {
			return r.Type == "conversation.item.create" && strings.Contains(string(r.Event), "(anchor id: "+a.AnchorID+")") && r.At.After(t0)
		})
		if err != nil {
			return err
		}
		clickMs = append(clickMs, ms(at.Sub(t0)))
		if a.NodeUID != "" {
			resolved++
		}
		time.Sleep(150 * time.Millisecond)
	}

	chunk := make([]byte, 4800) // 100 ms of PCM16 mono 24 kHz (silence)
	var chunkMs []float64
	for range *clicks {
		before := countAppends(fakeRoot)
		t0 := time.Now()
		if err := c.audio(vs.VoiceSessionID, bytes.NewReader(chunk), int64(len(chunk))); err != nil {
			return err
		}
		at, err := waitNthAppend(fakeRoot, before+1)
		if err != nil {
			return err
		}
		chunkMs = append(chunkMs, ms(at.Sub(t0)))
		time.Sleep(100 * time.Millisecond)
	}

	// One streamed body: a piece every 100 ms, timed from its write to the fake.
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- c.audio(vs.VoiceSessionID, pr, -1) }()
	var streamMs []float64
	for range *clicks {
		before := countAppends(fakeRoot)
		t0 := time.Now()
		if _, err := pw.Write(chunk); err != nil {
			return err
		}
		at, err := waitNthAppend(fakeRoot, before+1)
		if err != nil {
			return err
		}
		streamMs = append(streamMs, ms(at.Sub(t0)))
		time.Sleep(100 * time.Millisecond)
	}
	pw.Close()
	if err := <-done; err != nil {
		return fmt.Errorf("streamed body: %w", err)
	}

	// CPU while listening: real-time 100 ms chunks for the whole window.
	cpu0, err := cpuTicks(*pid)
	if err != nil {
		return err
	}
	start := time.Now()
	for next := start; time.Since(start) < *listen; next = next.Add(100 * time.Millisecond) {
		if err := c.audio(vs.VoiceSessionID, bytes.NewReader(chunk), int64(len(chunk))); err != nil {
			return err
		}
		time.Sleep(time.Until(next.Add(100 * time.Millisecond)))
	}
	wall := time.Since(start)
	cpu1, err := cpuTicks(*pid)
	if err != nil {
		return err
	}
	cpuPct := float64(cpu1-cpu0) / 100 / wall.Seconds() * 100 // USER_HZ is 100 on Linux

	for _, row := range []struct {
		label string
		v     []float64
	}{
		{"click → [PAGE] note at the fake (Select mode)", clickMs},
		{"audio chunk POST (100 ms) → append at the fake", chunkMs},
		{"streamed body, 100 ms piece → append at the fake", streamMs},
	} {
		slices.Sort(row.v)
		fmt.Printf("  %-50s %8.1f %8.1f\n", row.label, median(row.v), percentile(row.v, 0.9))
	}
	fmt.Printf("  (%d of %d clicks resolved to a node from the kept tree)\n", resolved, len(clickMs))
	fmt.Printf("  %-50s %7.1f%%  (over %s, budget ≤ 10%%)\n", "fixthis CPU while listening (one core)", cpuPct, wall.Round(time.Second))
	return nil
}

type consoleClient struct{ base, token string }

func (c consoleClient) call(method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, c.base+path, rd)
	req.Header.Set("X-FixThis-Console-Token", c.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %s %s", method, path, resp.Status, data)
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

func (c consoleClient) audio(id string, body io.Reader, length int64) error {
	req, _ := http.NewRequest("POST", c.base+"/api/voice/sessions/"+id+"/audio", body)
	req.ContentLength = length
	req.Header.Set("X-FixThis-Console-Token", c.token)
	req.Header.Set("Content-Type", "application/octet-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		data, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("audio: %s %s", resp.Status, data)
	}
	return nil
}

type received struct {
	Type  string          `json:"type"`
	At    time.Time       `json:"at"`
	Event json.RawMessage `json:"event"`
}

func fakeReceived(root string) ([]received, error) {
	resp, err := http.Get(root + "/_fake/received")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var body struct{ Events []received }
	err = json.NewDecoder(resp.Body).Decode(&body)
	return body.Events, err
}

func waitReceived(root string, match func(received) bool) (time.Time, error) {
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		evs, err := fakeReceived(root)
		if err != nil {
			return time.Time{}, err
		}
		for _, r := range evs {
			if match(r) {
				return r.At, nil
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	return time.Time{}, errors.New("the fake did not receive it within 5 s")
}

func countAppends(root string) int {
	evs, _ := fakeReceived(root)
	n := 0
	for _, r := range evs {
		if r.Type == "input_audio_buffer.append" {
			n++
		}
	}
	return n
}

func waitNthAppend(root string, n int) (time.Time, error) {
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		evs, err := fakeReceived(root)
		if err != nil {
			return time.Time{}, err
		}
		k := 0
		for _, r := range evs {
			if r.Type == "input_audio_buffer.append" {
				if k++; k == n {
					return r.At, nil
				}
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
	return time.Time{}, fmt.Errorf("append %d did not reach the fake within 5 s", n)
}

// cpuTicks is a process's user + system time in clock ticks (/proc/PID/stat).
func cpuTicks(pid int) (int64, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("read the CPU time of %d: %w", pid, err)
	}
	s := string(raw)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if len(fields) < 13 {
		return 0, errors.New("unexpected /proc stat format")
	}
	u, _ := strconv.ParseInt(fields[11], 10, 64)
	st, _ := strconv.ParseInt(fields[12], 10, 64)
	return u + st, nil
}
