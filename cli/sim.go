package cli

import (
	"context"
	"encoding/json"
	"fmt"

	"fixthis/sim"
)

// runSim runs a simulated Android device until interrupted. With --connect it
// registers itself with the adb server and, on exit, disconnects its own serial only.
func runSim(ctx context.Context, env Env, args []string) error {
	f := newFlags("sim", env.Stdout)
	addr := f.String("addr", "127.0.0.1:0", "loopback address the device listens on")
	scenario := f.String("scenario", "demo", "scenario: demo, landscape, dialog, keyboard, secure (built in) or a directory with scenario.json")
	connect := f.Bool("connect", false, "register with the adb server (adb connect) and wait until it lists the device")
	latency := f.Float64("latency-scale", 1, "multiply the scenario's device-side latencies (0: none)")
	link := f.String("link", "none", "throttle the transport like a real link: usb2 (35 MB/s), usb3 (300 MB/s), wifi (5 MB/s, 5 ms) or none")
	asJSON := f.Bool("json", false, "print one JSON line once ready")
	outputs := f.String("outputs", "", "directory of pinned outputs: a shell command line is answered with DIR/<name>.txt, <name> the longest file name that prefixes the line with spaces as _ (DIR/<name>.delay holding e.g. 3s slows it)")
	if err := parse(f, args); err != nil {
		return err
	}
	l, err := sim.LinkNamed(*link)
	if err != nil {
		return usagef("%v", err)
	}
	opts := sim.Options{Addr: *addr, Scenario: *scenario, LatencyScale: *latency, Link: l, Outputs: *outputs}
	return sim.Run(ctx, opts, *connect, 0, func(info sim.Info) {
		if *asJSON {
			line, _ := json.Marshal(info)
			fmt.Fprintf(env.Stdout, "%s\n", line)
			return
		}
		how := "listening"
		if *connect {
			how = "connected to the adb server"
		}
		fmt.Fprintf(env.Stdout, "Simulated %s %s at %s (serial %s). Press Ctrl-C to stop.\n", info.Model, how, info.Addr, info.Serial)
	})
}
