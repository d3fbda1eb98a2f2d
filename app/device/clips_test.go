package device

import (
	"testing"
	"time"
)

// A still is a whole raw frame on the video's link: the slower it came, the longer
// the next one waits, so the video keeps most of a slow link (Wi-Fi adb).
func TestStillWaitBacksOffOnASlowLink(t *testing.T) {
	for _, c := range []struct {
		name string
		took time.Duration
		want time.Duration
	}{
		{"local, 85 ms", 85 * time.Millisecond, stillEvery},
		{"USB 2, 300 ms", 300 * time.Millisecond, 1500 * time.Millisecond},
		{"Wi-Fi, 2 s", 2 * time.Second, 10 * time.Second},
	} {
		got := stillWait(c.took)
		if got != c.want {
			t.Errorf("%s: wait %v, want %v", c.name, got, c.want)
		}
		if share := float64(c.took) / float64(c.took+got); share > 1.0/(stillShare+1)+1e-9 && got != stillEvery {
			t.Errorf("%s: stills hold %.0f %% of the link", c.name, share*100)
		}
	}
}
