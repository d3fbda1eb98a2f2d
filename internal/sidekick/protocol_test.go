package sidekick_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fixthis/internal/sidekick"
	"fixthis/internal/sidekick/sidekicktest"
	"io"
	"strings"
	"testing"
)

func TestFraming(t *testing.T) {
	var buf bytes.Buffer
	if err := sidekick.WriteFrame(&buf, []byte(`{"id":"req_1"}`)); err != nil {
		t.Fatal(err)
	}
	if got := buf.Bytes()[:4]; binary.BigEndian.Uint32(got) != 14 {
		t.Errorf("length prefix = %x, want 14 big-endian", got)
	}
	body, err := sidekick.ReadFrame(&buf)
	if err != nil || string(body) != `{"id":"req_1"}` {
		t.Errorf("round trip = %q %v", body, err)
	}
	if _, err := sidekick.ReadFrame(&buf); !errors.Is(err, io.EOF) {
		t.Errorf("closed before a frame: %v, want io.EOF", err)
	}
	var huge [4]byte
	binary.BigEndian.PutUint32(huge[:], sidekick.MaxFrame+1)
	if _, err := sidekick.ReadFrame(bytes.NewReader(huge[:])); err == nil {
		t.Error("a frame over 16 MiB was accepted")
	}
	if err := sidekick.WriteFrame(io.Discard, make([]byte, sidekick.MaxFrame+1)); err == nil {
		t.Error("a frame over 16 MiB was written")
	}
}

func TestSocketCandidates(t *testing.T) {
	var got []string
	for i := range sidekick.SocketAttempts {
		got = append(got, sidekick.SocketCandidate("fixthis_com.example", i))
	}
	if strings.Join(got, " ") != "fixthis_com.example fixthis_com.example-1 fixthis_com.example-2" {
		t.Errorf("candidates = %v", got)
	}
}

func TestSameShape(t *testing.T) {
	golden, err := sidekicktest.Load("inspect.response.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := sidekicktest.SameShape(golden, golden); err != nil {
		t.Errorf("golden against itself: %v", err)
	}
	for _, tt := range []struct{ name, from, to, want string }{
		{"renamed field", `"mergedNodes"`, `"nodes"`, `unexpected "nodes"`},
		{"number id", `"id": "req_1"`, `"id": 1`, `$.id: number`},
		{"index as string", `"rootIndex": 0,`, `"rootIndex": "0",`, `.rootIndex: string`},
	} {
		bad := strings.Replace(string(golden), tt.from, tt.to, 1)
		if bad == string(golden) {
			t.Fatalf("%s: replacement did not apply", tt.name)
		}
		err := sidekicktest.SameShape(golden, []byte(bad))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}
