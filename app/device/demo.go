package device

import (
	"context"
	"time"

	"fixthis/sim"
)

// Demo says when the built-in simulated device starts.
type Demo int

const (
	DemoAuto Demo = iota // when no device is connected at start-up
	DemoOn               // always (--demo)
	DemoOff              // never (--no-demo)
)

// runDemo starts the simulated demo device when asked to, or when no device shows up
// within a short grace period, and disconnects exactly that serial on the way out.
func (s *Service) runDemo(ctx context.Context) {
	if s.demo == DemoAuto && !s.waitForNoDevice(ctx) {
		return
	}
	// The device tracker may still be starting the adb server; the demo needs it now.
	if err := s.adb.EnsureServer(ctx); err != nil {
		s.log.Error("the demo device needs an adb server", "err", err)
		return
	}
	dev, err := sim.Start(ctx, sim.Options{Scenario: "demo", LatencyScale: 1})
	if err != nil {
		s.log.Error("start the demo device", "err", err)
		return
	}
	defer dev.Close()
	s.Registry.setDemo(dev.Serial())
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	err = s.adb.Connect(cctx, dev.Serial())
	cancel()
	if err != nil {
		s.log.Error("register the demo device with the adb server", "serial", dev.Serial(), "err", err)
		return
	}
	s.log.Info("demo device started", "serial", dev.Serial())
	s.keepDemoRegistered(ctx, dev.Serial())
	// The demo serial is ours; nothing else is ever disconnected.
	dctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = s.adb.Disconnect(dctx, dev.Serial())
}

// waitForNoDevice reports whether no device came online within the grace period
// (the demo should start), or false when one did or ctx ended.
func (s *Service) waitForNoDevice(ctx context.Context) bool {
	deadline := time.NewTimer(2 * time.Second)
	defer deadline.Stop()
	for {
		if anyOnline(s.Registry.List().Devices) {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-deadline.C:
			return !anyOnline(s.Registry.List().Devices)
		case <-s.Registry.Changes():
		}
	}
}

// keepDemoRegistered re-registers the demo device when the adb server forgot it (the
// server was restarted), until ctx ends.
func (s *Service) keepDemoRegistered(ctx context.Context, serial string) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.Registry.Changes():
		}
		l := s.Registry.List()
		if !l.ServerUp || l.Has(serial) {
			continue
		}
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		if err := s.adb.Connect(cctx, serial); err != nil && ctx.Err() == nil {
			s.log.Warn("re-register the demo device", "serial", serial, "err", err)
		}
		cancel()
	}
}

func anyOnline(list []View) bool {
	for _, d := range list {
		if d.Online() {
			return true
		}
	}
	return false
}
