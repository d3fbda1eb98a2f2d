package adb

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

// readSized gives back every byte whatever size answers, and sets the buffer aside
// once when size is right: a doubling buffer would end with up to twice the room.
func TestReadSized(t *testing.T) {
	const n = 100_000
	payload := make([]byte, n)
	for i := range payload {
		payload[i] = byte(i * 7)
	}
	exact := func([]byte) int { return n }
	for _, tc := range []struct {
		name    string
		in      []byte
		size    func([]byte) int
		oneRoom bool // the buffer's room is what size announced, not a doubling's
	}{
		{"size right", payload, exact, true},
		{"no size", payload, nil, false},
		{"size cannot tell", payload, func([]byte) int { return 0 }, false},
		{"size too small", payload, func([]byte) int { return n / 3 }, false},
		{"size over the cap", payload, func([]byte) int { return maxSized + 1 }, false},
		{"negative size", payload, func([]byte) int { return -5 }, false},
		{"output shorter than the probe", payload[:100], exact, false},
		{"no output", nil, exact, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// One byte a read, as a slow link delivers it: the probe must still fill.
			var out bytes.Buffer
			if err := readSized(&out, iotest.HalfReader(bytes.NewReader(tc.in)), tc.size); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), tc.in) {
				t.Fatalf("read %d bytes, want the %d written", out.Len(), len(tc.in))
			}
			if room := cap(out.Bytes()); tc.oneRoom && room > n+bytes.MinRead+8192 {
				t.Errorf("buffer room %d for %d bytes: it grew instead of being set aside once", room, n)
			}
		})
	}
}

// A link that fails mid-output is an error, with what came before it kept.
func TestReadSizedBrokenLink(t *testing.T) {
	broken := errors.New("link down")
	for _, at := range []int{10, sizeProbe + 10} {
		var out bytes.Buffer
		r := io.MultiReader(bytes.NewReader(make([]byte, at)), iotest.ErrReader(broken))
		err := readSized(&out, r, func([]byte) int { return 1 << 20 })
		if !errors.Is(err, broken) {
			t.Errorf("broken after %d bytes: err = %v, want %v", at, err, broken)
		}
		if out.Len() != at {
			t.Errorf("broken after %d bytes: kept %d", at, out.Len())
		}
	}
}
