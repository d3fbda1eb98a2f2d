// `date +FORMAT`'s conversions.
package shell

import (
	"testing"
	"time"
)

func TestStrftimeConversions(t *testing.T) {
	at := time.Date(2026, 3, 7, 9, 5, 2, 0, time.FixedZone("CET", 3600))
	tests := []struct{ format, want string }{
		{"%Y-%m-%d %H:%M:%S", "2026-03-07 09:05:02"},
		{"%s", "1772870702"},
		{"%z %Z", "+0100 CET"},
		{"100%% %q %", "100% %q %"},
	}
	for _, tc := range tests {
		if got := strftime(tc.format, at); got != tc.want {
			t.Errorf("strftime(%q) = %q, want %q", tc.format, got, tc.want)
		}
	}
}
