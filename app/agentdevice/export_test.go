package agentdevice

import (
	"testing"

	"fixthis/app/store"
	"fixthis/sim"
)

// NewSimPhone is a Phone on newSimEnv's simulated phone, with control allowed, for
// the tests in package agentdevice_test (those that go through app/mcp).
func NewSimPhone(t *testing.T) (*Phone, *store.Store, *sim.Device) {
	t.Helper()
	e := newSimEnv(t)
	e.allowControl(t)
	return New(e.options()), e.st, e.dev
}
