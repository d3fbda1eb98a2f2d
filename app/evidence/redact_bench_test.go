package evidence

import (
	"fmt"
	"strings"
	"testing"
)

// busyAppLog is n threadtime lines as the network benchmark's simulated app
// writes them: OkHttp start and status lines between the app's own lines.
func busyAppLog(n int) string {
	var b strings.Builder
	for i := range n {
		head := fmt.Sprintf("12-03 17:06:%02d.%03d  4120  4120 ", i/1000%60, i%1000)
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, "%sI okhttp.OkHttpClient: --> GET https://api.trailhead.test/v1/trails/%d\n", head, i)
		case 1:
			fmt.Fprintf(&b, "%sI okhttp.OkHttpClient: <-- 200 OK https://api.trailhead.test/v1/trails/%d (%dms)\n", head, i-1, i%1500)
		default:
			fmt.Fprintf(&b, "%sD TrailList: bound row %d\n", head, i)
		}
	}
	return b.String()
}

// BenchmarkRedact5000 is redaction of a full simulated log buffer, the work
// the preset's shared log read does once per collection.
func BenchmarkRedact5000(b *testing.B) {
	log := busyAppLog(5000)
	b.SetBytes(int64(len(log)))
	for b.Loop() {
		Redact(log)
	}
}

// Every key shape is still found behind the literal prefilter
// (mayHoldKeyShape): one sample of each alternative, alone in a line.
func TestKeyShapePrefilterMissesNoShape(t *testing.T) {
	for _, key := range []string{
		"AKIAIOSFODNN7EXAMPLE", "ASIAIOSFODNN7EXAMPL2", "A3TXIOSFODNN7EXAMPLE",
		"ghp_" + strings.Repeat("a1", 18), "github_pat_" + strings.Repeat("b2", 11),
		"glpat-" + strings.Repeat("c3", 10), "gldt-" + strings.Repeat("c3", 10),
		"sk_live_" + strings.Repeat("d4", 5), "pk_test_" + strings.Repeat("d4", 5), "whsec_" + strings.Repeat("e5", 10),
		"xoxb-" + strings.Repeat("f6", 5), "xapp-" + strings.Repeat("f6", 5),
		"AIza" + strings.Repeat("g7", 17) + "g", "ya29." + strings.Repeat("h8", 10),
		"sk-proj-" + strings.Repeat("i9", 10), "SG." + strings.Repeat("j0", 8) + "." + strings.Repeat("k1", 8),
		"npm_" + strings.Repeat("l2", 18), "pypi-" + strings.Repeat("m3", 25), "SK" + strings.Repeat("0a", 16),
		"key-" + strings.Repeat("n4", 16), "eyJhbGciOi.eyJzdWIiOi.c2lnbmF0dXJl",
	} {
		if got := RedactLine("v " + key + " v"); got != "v "+Redacted+" v" {
			t.Errorf("%s: %q", key, got)
		}
	}
}
