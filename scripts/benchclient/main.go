// Command benchclient is the measuring side of scripts/bench.sh: it picks free ports,
// summarises timings, and measures the live preview of a running `fixthis serve` as a
// browser sees it (preview-ready over SSE, then the JPEG by URL).
//
//	benchclient freeport
//	benchclient stats < numbers            # prints "median p90 n"
//	benchclient live -url URL -token T -serial S -adb-port P [-frames 30]
//	benchclient voice -url URL -token T -fake FAKEURL -pid PID [-clicks 30] [-listen 10s]
//	benchclient display -url URL -token T -serial S [-toggles 10]
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"fixthis/adb"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: benchclient freeport | stats | live -url URL -token T -serial S -adb-port P [-frames N] | drive -serial S -adb-port P -seconds N [-every D]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "freeport":
		var port int
		if port, err = freePort(); err == nil {
			fmt.Println(port)
		}
	case "stats":
		err = stats(os.Stdin, os.Stdout)
	case "live":
		err = live(os.Args[2:])
	case "drive":
		err = driveFor(os.Args[2:])
	case "voice":
		err = voiceBench(os.Args[2:])
	case "display":
		err = displayBench(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchclient:", err)
		os.Exit(1)
	}
}

// freePort returns a loopback port outside adb's own ranges (5037, 5554-5585).
func freePort() (int, error) {
	for range 20 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, fmt.Errorf("find a free port: %w", err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if port != 5037 && (port < 5554 || port > 5585) {
			return port, nil
		}
	}
	return 0, errors.New("no free port outside adb's ranges")
}

// percentile is the nearest-rank percentile of sorted values.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

func median(sorted []float64) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

func stats(r io.Reader, w io.Writer) error {
	var vals []float64
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.TrimSpace(sc.Text())
		if f == "" {
			continue
		}
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return fmt.Errorf("stats: %q is not a number", f)
		}
		vals = append(vals, v)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("stats: read: %w", err)
	}
	if len(vals) == 0 {
		return errors.New("stats: no numbers on stdin")
	}
	slices.Sort(vals)
	_, err := fmt.Fprintf(w, "%.0f %.0f %d\n", median(vals), percentile(vals, 0.9), len(vals))
	return err
}

// frame is one preview-ready as this client received it.
type frame struct {
	PreviewID  string    `json:"previewId"`
	URL        string    `json:"url"`
	CapturedAt time.Time `json:"capturedAt"`
	received   time.Time
}

func live(args []string) error {
	fs := flag.NewFlagSet("live", flag.ContinueOnError)
	base := fs.String("url", "", "fixthis serve base URL (http://127.0.0.1:PORT/)")
	token := fs.String("token", "", "console token")
	serial := fs.String("serial", "", "device to drive")
	adbPort := fs.Int("adb-port", 0, "adb server port")
	frames := fs.Int("frames", 30, "frames to measure after the first")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *base == "" || *token == "" || *serial == "" || *adbPort == 0 {
		return errors.New("live: -url, -token, -serial and -adb-port are required")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	baseURL := strings.TrimSuffix(*base, "/")

	events, err := openEvents(ctx, baseURL, *token)
	if err != nil {
		return err
	}
	// The first frame arrives once the loop sees a watcher; measuring starts after it.
	if _, err := nextFrame(ctx, events, 20*time.Second); err != nil {
		return fmt.Errorf("live: first preview-ready: %w", err)
	}
	client, err := adb.NewClient(adb.Options{Port: *adbPort})
	if err != nil {
		return err
	}
	driveCtx, stopDriving := context.WithCancel(ctx)
	defer stopDriving()
	driveErr := make(chan error, 1)
	go func() {
		_, err := drive(driveCtx, client, *serial, 40*time.Millisecond)
		driveErr <- err
	}()

	var toEvent, toImage []float64
	var bytesTotal int
	var first, last time.Time
	for i := 0; i < *frames; i++ {
		f, err := nextFrame(ctx, events, 10*time.Second)
		if err != nil {
			return fmt.Errorf("live: frame %d of %d: %w", i+1, *frames, err)
		}
		n, gotImage, err := fetch(ctx, baseURL+f.URL, *token)
		if err != nil {
			return fmt.Errorf("live: fetch %s: %w", f.URL, err)
		}
		bytesTotal += n
		toEvent = append(toEvent, ms(f.received.Sub(f.CapturedAt)))
		toImage = append(toImage, ms(gotImage.Sub(f.CapturedAt)))
		if i == 0 {
			first = f.received
		}
		last = f.received
	}
	stopDriving()
	if err := <-driveErr; err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("live: driver: %w", err)
	}
	slices.Sort(toEvent)
	slices.Sort(toImage)
	fps := float64(len(toEvent)-1) / last.Sub(first).Seconds()
	fmt.Printf("  %-50s %8.0f %8.0f   (n=%d)\n", "capturedAt → preview-ready received (ms)", median(toEvent), percentile(toEvent, 0.9), len(toEvent))
	fmt.Printf("  %-50s %8.0f %8.0f   (avg JPEG %d KB)\n", "capturedAt → JPEG bytes received (ms)", median(toImage), percentile(toImage, 0.9), bytesTotal/len(toImage)/1024)
	fmt.Printf("  %-50s %8.1f\n", "frames per second while the screen changes", fps)
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// openEvents streams preview-ready events, stamped on arrival, into a channel.
func openEvents(ctx context.Context, baseURL, token string) (<-chan frame, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", baseURL+"/api/events?consoleToken="+token, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("open /api/events: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("open /api/events: status %s", resp.Status)
	}
	out := make(chan frame, 1024)
	go func() {
		defer resp.Body.Close()
		defer close(out)
		br := bufio.NewReader(resp.Body)
		var typ, data string
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimRight(line, "\r\n")
			switch {
			case line == "":
				if typ == "preview-ready" {
					f := frame{received: time.Now()}
					if json.Unmarshal([]byte(data), &f) == nil {
						out <- f
					}
				}
				typ, data = "", ""
			case strings.HasPrefix(line, "event: "):
				typ = line[7:]
			case strings.HasPrefix(line, "data: "):
				data += line[6:]
			}
		}
	}()
	return out, nil
}

func nextFrame(ctx context.Context, events <-chan frame, timeout time.Duration) (frame, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case f, ok := <-events:
		if !ok {
			return frame{}, errors.New("event stream ended")
		}
		return f, nil
	case <-t.C:
		return frame{}, fmt.Errorf("no preview-ready within %s", timeout)
	case <-ctx.Done():
		return frame{}, ctx.Err()
	}
}

// fetch downloads a preview image and returns its size and when the last byte came.
func fetch(ctx context.Context, url, token string) (int, time.Time, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return 0, time.Time{}, err
	}
	req.Header.Set("X-FixThis-Console-Token", token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, time.Time{}, err
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	done := time.Now()
	if err != nil {
		return 0, time.Time{}, err
	}
	if resp.StatusCode != http.StatusOK {
		return 0, time.Time{}, fmt.Errorf("status %s", resp.Status)
	}
	return int(n), done, nil
}

// drive scrolls the demo's trail list as a reader does: three swipes of 600 px down,
// each over half a second, then three back up. The phone moves the list a step per
// display frame while the finger moves, so the screen changes about 60 times a
// second for as long as the driver runs. It returns how many swipes it made.
func drive(ctx context.Context, client *adb.Client, serial string, every time.Duration) (int, error) {
	const steps = 3
	for i := 0; ; i++ {
		cmd := "input swipe 540 1700 540 1100 500"
		if (i/steps)%2 == 1 {
			cmd = "input swipe 540 1100 540 1700 500"
		}
		res, err := client.Device(serial).Shell(ctx, cmd)
		if err != nil {
			return i, err
		}
		if res.ExitCode != 0 {
			return i, fmt.Errorf("%s: exit %d: %s", cmd, res.ExitCode, res.Stderr)
		}
		select {
		case <-ctx.Done():
			return i + 1, ctx.Err()
		case <-time.After(every):
		}
	}
}
