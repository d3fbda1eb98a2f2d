package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image/jpeg"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"
)

// displayBench measures a display toggle as the console sees it: PUT /api/display
// (dark theme on, then off) sent → the first preview-ready whose JPEG shows the new
// theme (told apart by its mean luminance), and → that JPEG received. Budget: ≤ 1 s.
//
//	benchclient display -url URL -token T -serial S [-toggles 10]
func displayBench(args []string) error {
	fs := flag.NewFlagSet("display", flag.ContinueOnError)
	base := fs.String("url", "", "fixthis serve base URL")
	token := fs.String("token", "", "console token")
	serial := fs.String("serial", "", "device to toggle")
	toggles := fs.Int("toggles", 10, "dark theme toggles to measure")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *base == "" || *token == "" || *serial == "" {
		return errors.New("display: -url, -token and -serial are required")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	baseURL := strings.TrimSuffix(*base, "/")
	events, err := openEvents(ctx, baseURL, *token)
	if err != nil {
		return err
	}
	// The baseline is the newest frame, read as a console reads it when it opens: a
	// still screen announces no new frame to a new watcher.
	first, err := currentFrame(ctx, baseURL, *token, events)
	if err != nil {
		return fmt.Errorf("display: first frame: %w", err)
	}
	light, err := frameLuminance(ctx, baseURL+first, *token)
	if err != nil {
		return err
	}
	put := func(body map[string]any) error {
		b, _ := json.Marshal(body)
		req, err := http.NewRequestWithContext(ctx, "PUT", baseURL+"/api/display", bytes.NewReader(b))
		if err != nil {
			return err
		}
		req.Header.Set("X-FixThis-Console-Token", *token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		msg, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("PUT /api/display: %d %s", resp.StatusCode, msg)
		}
		return nil
	}
	var toFrame, toImage []float64
	for i := 0; i < *toggles; i++ {
		sent := time.Now()
		if err := put(map[string]any{"serial": *serial, "night": i%2 == 0}); err != nil {
			return err
		}
		wantDark := i%2 == 0
		for {
			f, err := nextFrame(ctx, events, 10*time.Second)
			if err != nil {
				return fmt.Errorf("display: toggle %d: %w", i+1, err)
			}
			l, err := frameLuminance(ctx, baseURL+f.URL, *token)
			if err != nil {
				return err
			}
			got := time.Now()
			if (l < light*0.7) != wantDark {
				continue // a frame from before the phone changed
			}
			toFrame = append(toFrame, ms(f.received.Sub(sent)))
			toImage = append(toImage, ms(got.Sub(sent)))
			break
		}
	}
	if err := put(map[string]any{"serial": *serial, "night": false}); err != nil {
		return err
	}
	slices.Sort(toFrame)
	slices.Sort(toImage)
	fmt.Printf("  %-50s %8.0f %8.0f   (n=%d)\n", "toggle sent → new preview-ready received (ms)", median(toFrame), percentile(toFrame, 0.9), len(toFrame))
	fmt.Printf("  %-50s %8.0f %8.0f   (budget ≤ 1000)\n", "toggle sent → new frame's JPEG received (ms)", median(toImage), percentile(toImage, 0.9))
	return nil
}

// frameLuminance fetches a preview JPEG and returns its mean luminance (0-255).
func frameLuminance(ctx context.Context, url, token string) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("X-FixThis-Console-Token", token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	img, err := jpeg.Decode(resp.Body)
	if err != nil {
		return 0, fmt.Errorf("decode %s: %w", url, err)
	}
	b := img.Bounds()
	var sum float64
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y += 4 {
		for x := b.Min.X; x < b.Max.X; x += 4 {
			r, g, bl, _ := img.At(x, y).RGBA()
			sum += (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(bl)) / 257
			n++
		}
	}
	return sum / float64(max(n, 1)), nil
}

// currentFrame is the URL of the newest live frame: GET /api/preview's, or, when the
// preview has none yet, the first preview-ready.
func currentFrame(ctx context.Context, baseURL, token string, events <-chan frame) (string, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", baseURL+"/api/preview", nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("X-FixThis-Console-Token", token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var doc struct {
		PreviewAvailable bool   `json:"previewAvailable"`
		URL              string `json:"url"`
	}
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return "", fmt.Errorf("GET /api/preview: %d %s", resp.StatusCode, msg)
	}
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		return "", fmt.Errorf("GET /api/preview: %w", err)
	}
	if doc.PreviewAvailable && doc.URL != "" {
		return doc.URL, nil
	}
	f, err := nextFrame(ctx, events, 20*time.Second)
	if err != nil {
		return "", err
	}
	return f.URL, nil
}
