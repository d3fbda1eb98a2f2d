package network

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// pairingLog is 10,000 threadtime lines as a busy debug app writes them: the
// interleaved BODY-level sample over and over on rotating threads, between
// the app's other lines.
func pairingLog(tb testing.TB, lines int) string {
	raw, err := os.ReadFile("testdata/okhttp_body_interleaved.log")
	if err != nil {
		tb.Fatal(err)
	}
	sample := strings.Split(strings.TrimSpace(string(raw)), "\n")
	var b strings.Builder
	for n, round := 0, 0; n < lines; round++ {
		for _, s := range sample {
			if n == lines {
				break
			}
			// Move the call to threads of its own each round.
			s = strings.Replace(s, "  4120  418", fmt.Sprintf("  4120 %d", 5000+round*10), 1)
			b.WriteString(s)
			b.WriteByte('\n')
			n++
		}
	}
	return b.String()
}

// BenchmarkPair10k is the budget: pairing 10,000 lines within 100 ms.
func BenchmarkPair10k(b *testing.B) {
	log := pairingLog(b, 10_000)
	b.SetBytes(int64(len(log)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if res := Parse(log); len(res.Requests) == 0 {
			b.Fatal("no requests")
		}
	}
}
