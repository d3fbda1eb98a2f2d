package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"fixthis/adb"
	"fixthis/app/device"
	"fixthis/capture"
)

// runCapture takes one capture of the current screen: DIR/screen.png and DIR/tree.json.
func runCapture(ctx context.Context, env Env, args []string) error {
	f := newFlags("capture", env.Stdout)
	serial := f.String("serial", "", "device serial (default: the only online device)")
	out := f.String("out", ".", "directory for screen.png and tree.json")
	asJSON := f.Bool("json", false, "print one JSON document")
	if err := parse(f, args); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	client, err := connectADB(ctx)
	if err != nil {
		return err
	}
	if *serial == "" {
		if *serial, err = onlyOnlineDevice(ctx, client); err != nil {
			return err
		}
	}
	start := time.Now()
	// The same capturer as the console's freezes and the MCP capture tool: a
	// debuggable app with the FixThis sidekick answers with true Compose semantics,
	// much faster than uiautomator; without one, uiautomator it is.
	capturer := device.NewCapturer(client)
	defer capturer.Close(context.WithoutCancel(ctx))
	snap, err := capturer.Capture(ctx, *serial)
	if err != nil {
		return fmt.Errorf("capture %s: %w", *serial, err)
	}
	if snap.TreeErr != nil {
		fmt.Fprintf(env.Stderr, "fixthis capture: UI tree unavailable: %v\n", snap.TreeErr)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	png, err := os.Create(filepath.Join(*out, "screen.png"))
	if err != nil {
		return err
	}
	if err := capture.EncodeScreenPNG(png, snap.Frame); err != nil {
		png.Close()
		return err
	}
	if err := png.Close(); err != nil {
		return err
	}
	nodes := snap.Nodes
	if nodes == nil {
		nodes = []capture.Node{}
	}
	tree, _ := json.MarshalIndent(map[string]any{"state": snap.State, "nodes": nodes}, "", " ")
	if err := os.WriteFile(filepath.Join(*out, "tree.json"), tree, 0o644); err != nil {
		return err
	}
	total := time.Since(start)
	if *asJSON {
		doc, _ := json.Marshal(captureJSON{
			Serial: *serial, Width: snap.Width, Height: snap.Height,
			Package: snap.State.Package, Activity: snap.State.Activity,
			Display:     snap.Display(),
			Fingerprint: snap.Fingerprint, Nodes: len(snap.Nodes), TreeSource: snap.TreeSource,
			TimingsMs: map[string]float64{
				"frame": ms(snap.Timings.Frame),
				"tree":  ms(snap.Timings.Tree),
				"total": ms(total),
			},
		})
		fmt.Fprintf(env.Stdout, "%s\n", doc)
		return nil
	}
	fmt.Fprintf(env.Stdout, "%s %dx%d %s — %d nodes (%s) in %.0f ms → %s\n", *serial, snap.Width, snap.Height,
		snap.State.Activity, len(snap.Nodes), snap.TreeSource, ms(total), *out)
	return nil
}

// captureJSON is what `fixthis capture --json` prints.
type captureJSON struct {
	Serial   string `json:"serial"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	Package  string `json:"package"`
	Activity string `json:"activity"`
	capture.Display
	Fingerprint capture.Fingerprint `json:"fingerprint"`
	Nodes       int                 `json:"nodes"`
	TreeSource  string              `json:"treeSource"`
	TimingsMs   map[string]float64  `json:"timingsMs"`
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func onlyOnlineDevice(ctx context.Context, client *adb.Client) (string, error) {
	list, err := client.Devices(ctx)
	if err != nil {
		return "", err
	}
	var online []string
	for _, d := range list {
		if d.Online() {
			online = append(online, d.Serial)
		}
	}
	switch len(online) {
	case 0:
		return "", fmt.Errorf("no online device; connect one or start `fixthis sim --connect`")
	case 1:
		return online[0], nil
	}
	return "", usagef("%d devices are online (%v); choose one with --serial", len(online), online)
}
