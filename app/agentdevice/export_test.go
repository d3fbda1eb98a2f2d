package agentdevice

import (
	"context"
	"testing"
	"time"

	"fixthis/app/store"
	"fixthis/sim"
)

// NewSimPhone is a Phone on newSimEnv's simulated phone, with control allowed, for
// the tests in package agentdevice_test (those that go through app/mcp).
func NewSimPhone(t *testing.T) (*Phone, *store.Store, *sim.Device) {
	t.Helper()
	e := newSimEnv(t)
	serial := e.dev.Serial()
	p := New(Options{ADB: e.client, Capturer: e.capturer, Store: e.st, AskTimeout: 300 * time.Millisecond,
		Pick: func(context.Context, string) (Target, error) { return Target{Serial: serial}, nil }})
	if err := SetControl(context.Background(), e.st, serial, true); err != nil {
		t.Fatal(err)
	}
	return p, e.st, e.dev
}
