package source_test

import (
	"testing"

	"fixthis/app/source"
	"fixthis/app/source/sourcetest"
	"fixthis/internal/sidekick"
)

// BenchmarkParseAppIndex4MiB: decoding a 4 MiB app index (the sidekick's cap), the
// host's share of reading one once per install.
func BenchmarkParseAppIndex4MiB(b *testing.B) {
	data, err := sourcetest.GrowDemoIndex(sidekick.MaxSourceIndexBytes)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := source.ParseAppIndex(data); err != nil {
			b.Fatal(err)
		}
	}
}
