package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"text/tabwriter"
	"time"

	"fixthis/adb"
)

// runDevices lists what the adb server knows, described like the console's picker.
func runDevices(ctx context.Context, env Env, args []string) error {
	f := newFlags("devices", env.Stdout)
	asJSON := f.Bool("json", false, "print one JSON document")
	if err := parse(f, args); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	client, err := connectADB(ctx)
	if err != nil {
		return err
	}
	list, err := client.Devices(ctx)
	if err != nil {
		return err
	}
	for i, d := range list {
		if d.Online() {
			if full, err := client.Describe(ctx, d.Serial); err == nil {
				list[i].AndroidVersion, list[i].SDK, list[i].Screen = full.AndroidVersion, full.SDK, full.Screen
			}
		}
	}
	if *asJSON {
		if list == nil {
			list = []adb.Device{}
		}
		out, _ := json.Marshal(map[string]any{"devices": list})
		fmt.Fprintf(env.Stdout, "%s\n", out)
		return nil
	}
	if len(list) == 0 {
		fmt.Fprintln(env.Stdout, "No devices. Connect a phone with USB debugging enabled, or run `fixthis sim --connect` for a simulated one.")
		return nil
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SERIAL\tSTATE\tMODEL\tANDROID\tSCREEN\tCONNECTION")
	for _, d := range list {
		screen := "-"
		if d.Screen != nil {
			screen = fmt.Sprintf("%dx%d@%d", d.Screen.Width, d.Screen.Height, d.Screen.Density)
		}
		android := d.AndroidVersion
		if android == "" {
			android = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", d.Serial, d.State, d.Model, android, screen, d.Connection)
	}
	tw.Flush()
	for _, d := range list {
		if d.Hint != "" {
			fmt.Fprintf(env.Stdout, "\n%s: %s\n", d.Serial, d.Hint)
		}
	}
	return nil
}

// connectADB returns a client for the adb server of ANDROID_ADB_SERVER_PORT, started
// when none answers.
func connectADB(ctx context.Context) (*adb.Client, error) {
	client, err := adb.NewClient(adb.Options{})
	if err != nil {
		return nil, err
	}
	if err := client.EnsureServer(ctx); err != nil {
		return nil, err
	}
	return client, nil
}
