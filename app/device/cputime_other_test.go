//go:build !unix

package device

import (
	"testing"
	"time"
)

// cpuTimeKnown is false where getrusage is missing: benchmarks leave their CPU
// metrics out rather than report a number they could not measure.
const cpuTimeKnown = false

func cpuTime(testing.TB) time.Duration { return 0 }
