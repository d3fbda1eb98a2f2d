package app

import (
	"context"
	"fmt"
	"time"

	"fixthis/adb"
	"fixthis/adb/sim"
	"fixthis/capture"
)

// Demo says when the built-in simulated device starts.
type Demo int

const (
	DemoAuto Demo = iota // when no device is connected at start-up
	DemoOn               // always (--demo)
	DemoOff              // never (--no-demo)
)

// Run starts the background work (device tracking, the live preview loop, the demo
// device) and returns at once; everything stops when ctx ends. Call Wait to wait for it.
func (a *App) Run(ctx context.Context) {
	a.bg.Add(5)
	go func() { defer a.bg.Done(); a.watchPresenceTimeouts(ctx) }()
	go func() { defer a.bg.Done(); a.runSourceIndex(ctx) }()
	go func() { defer a.bg.Done(); a.devices.run(ctx) }()
	go func() { defer a.bg.Done(); a.preview.run(ctx) }()
	go func() { defer a.bg.Done(); a.publishStoreChanges(ctx) }()
	if a.demo != DemoOff {
		a.bg.Add(1)
		go func() { defer a.bg.Done(); a.runDemo(ctx) }()
	}
}

// Wait blocks until the background work started by Run has stopped.
func (a *App) Wait() { a.bg.Wait() }

// runDemo starts the simulated demo device when asked to, or when no device shows up
// within a short grace period, and disconnects exactly that serial on the way out.
func (a *App) runDemo(ctx context.Context) {
	if a.demo == DemoAuto {
		deadline := time.NewTimer(2 * time.Second)
		defer deadline.Stop()
		for {
			p := a.devices.payload()
			if anyOnline(p.Devices) {
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-deadline.C:
				if anyOnline(a.devices.payload().Devices) {
					return
				}
				goto start
			case <-a.devices.changes():
			}
		}
	}
start:
	// The device tracker may still be starting the adb server; the demo needs it now.
	if err := a.adb.EnsureServer(ctx); err != nil {
		a.log.Error("the demo device needs an adb server", "err", err)
		return
	}
	dev, err := sim.Start(ctx, sim.Options{Scenario: "demo", LatencyScale: 1})
	if err != nil {
		a.log.Error("start the demo device", "err", err)
		return
	}
	defer dev.Close()
	a.devices.setDemo(dev.Serial())
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	err = a.adb.Connect(cctx, dev.Serial())
	cancel()
	if err != nil {
		a.log.Error("register the demo device with the adb server", "serial", dev.Serial(), "err", err)
		return
	}
	a.log.Info("demo device started", "serial", dev.Serial())
	a.keepDemoRegistered(ctx, dev.Serial())
	// The demo serial is ours; nothing else is ever disconnected.
	dctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = a.adb.Disconnect(dctx, dev.Serial())
}

// keepDemoRegistered re-registers the demo device when the adb server forgot it (the
// server was restarted), until ctx ends.
func (a *App) keepDemoRegistered(ctx context.Context, serial string) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-a.devices.changes():
		}
		p := a.devices.payload()
		if !p.ServerUp || containsSerial(p.Devices, serial) {
			continue
		}
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		if err := a.adb.Connect(cctx, serial); err != nil && ctx.Err() == nil {
			a.log.Warn("re-register the demo device", "serial", serial, "err", err)
		}
		cancel()
	}
}

func anyOnline(list []DeviceView) bool {
	for _, d := range list {
		if d.Online() {
			return true
		}
	}
	return false
}

// serialDevice adapts one adb serial to capture.Device.
type serialDevice struct {
	client *adb.Client
	serial string
}

func (d serialDevice) Exec(ctx context.Context, cmd string) ([]byte, error) {
	return d.client.Exec(ctx, d.serial, cmd)
}

func (d serialDevice) Shell(ctx context.Context, cmd string) ([]byte, []byte, int, error) {
	res, err := d.client.Shell(ctx, d.serial, cmd)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("%s: %w", d.serial, err)
	}
	return res.Stdout, res.Stderr, res.ExitCode, nil
}

func (a *App) captureDevice(serial string) capture.Device {
	return CaptureDevice(a.adb, serial)
}

// CaptureDevice adapts one adb serial to what package capture needs.
func CaptureDevice(client *adb.Client, serial string) capture.Device {
	return serialDevice{client: client, serial: serial}
}
