package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"fixthis/adb"
)

// driveFor scrolls the demo's list for a fixed time and prints how many swipes it
// made, for measurements taken elsewhere (the browser) while the screen changes.
func driveFor(args []string) error {
	fs := flag.NewFlagSet("drive", flag.ContinueOnError)
	serial := fs.String("serial", "", "device to drive")
	adbPort := fs.Int("adb-port", 0, "adb server port")
	seconds := fs.Float64("seconds", 5, "how long to scroll")
	every := fs.Duration("every", 0, "pause between swipes (each swipe is one `input swipe` through adb)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *serial == "" || *adbPort == 0 {
		return errors.New("drive: -serial and -adb-port are required")
	}
	client, err := adb.NewClient(adb.Options{Port: *adbPort})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(*seconds*float64(time.Second)))
	defer cancel()
	start := time.Now()
	n, err := drive(ctx, client, *serial, *every)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("drive: %w", err)
	}
	fmt.Printf("%.1f swipes/s\n", float64(n)/time.Since(start).Seconds())
	return nil
}
