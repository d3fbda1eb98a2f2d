// The link model's throughput and latency, and the named links.
package adbd

import (
	"io"
	"net"
	"testing"
	"time"
)

// TestLinkThrottles sends 2 MB through a 20 MB/s link with 5 ms latency each way and
// checks the time it takes on both sides of the wire.
func TestLinkThrottles(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	link := Link{Name: "test", BytesPerSec: 20 << 20, Latency: 5 * time.Millisecond}
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			close(accepted)
			return
		}
		accepted <- link.wrap(c)
	}()
	host, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	dev := <-accepted
	defer dev.Close()

	// Round trip of one small message: the latency twice.
	start := time.Now()
	go dev.Write([]byte("ping"))
	buf := make([]byte, 4)
	if _, err := io.ReadFull(host, buf); err != nil {
		t.Fatal(err)
	}
	host.Write([]byte("pong"))
	if _, err := io.ReadFull(dev, buf); err != nil || string(buf) != "pong" {
		t.Fatalf("read %q, %v", buf, err)
	}
	if rtt := time.Since(start); rtt < 10*time.Millisecond || rtt > 200*time.Millisecond {
		t.Errorf("round trip took %s, want about 10 ms", rtt)
	}

	// Bulk: 2 MB at 20 MB/s is 100 ms.
	payload := make([]byte, 2<<20)
	start = time.Now()
	go func() {
		for off := 0; off < len(payload); off += 64 << 10 {
			dev.Write(payload[off : off+64<<10])
		}
	}()
	if _, err := io.ReadFull(host, make([]byte, len(payload))); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < 95*time.Millisecond || took > time.Second {
		t.Errorf("2 MB over a 20 MB/s link took %s, want about 100 ms", took)
	}
}

func TestLinkNamed(t *testing.T) {
	for _, name := range []string{"usb2", "usb3", "wifi", "none"} {
		if l, err := LinkNamed(name); err != nil || l.Name != name {
			t.Errorf("LinkNamed(%q) = %v, %v", name, l, err)
		}
	}
	if _, err := LinkNamed("bluetooth"); err == nil {
		t.Error("an unknown link was accepted")
	}
}
