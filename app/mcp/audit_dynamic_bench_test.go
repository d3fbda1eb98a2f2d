package mcp

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"fixthis/adb/adbtest"
	"fixthis/app/agentdevice"
	"fixthis/app/device"
	"fixthis/app/display"
	"fixthis/sim"
)

// BenchmarkDynamicAudit is fixthis_audit_screen {dynamic: true} on the simulated
// phone over adb, on a USB 2 link with a mid-range phone's command latency: the
// static audit, font scale 2, the dark theme and Arabic for the demo app, each
// captured and compared, and the display restored through the display manager.
// Budget 10 s.
func BenchmarkDynamicAudit(b *testing.B) {
	p := adbtest.StartPhone(b, sim.Options{Scenario: "demo", LatencyScale: 1, Link: sim.Links["usb2"], Logf: adbtest.Quiet})
	ctx := context.Background()
	st := openStore(b, b.TempDir())
	serial := p.Device.Serial()
	if err := agentdevice.SetControl(ctx, st, serial, true); err != nil {
		b.Fatal(err)
	}
	m, err := display.Open(filepath.Join(b.TempDir(), "display-originals.json"))
	if err != nil {
		b.Fatal(err)
	}
	capturer := device.NewCapturer(p.Client)
	b.Cleanup(func() { capturer.Close(context.Background()) })
	phone := agentdevice.New(agentdevice.Options{ADB: p.Client, Capturer: capturer, Store: st, AskTimeout: 300 * time.Millisecond, Display: m,
		DisplayTarget: func(context.Context, string) (display.Target, error) {
			return display.Target{Shell: p.Client.Device(serial), Serial: serial, Package: "com.fixthis.demo"}, nil
		},
		Pick: func(context.Context, string) (agentdevice.Target, error) {
			return agentdevice.Target{Serial: serial}, nil
		}})
	c := newClient(b, Deps{Store: st, Device: phone})
	for b.Loop() {
		var out auditOut
		res := call(b, c, "fixthis_audit_screen", map[string]any{"dynamic": true}, &out)
		if res.IsError || out.Dynamic == nil || len(out.Dynamic.Ran) != 3 || !out.Dynamic.Restored || m.Changed(serial) {
			b.Fatalf("%s %+v", text(res), out.Dynamic)
		}
	}
}
