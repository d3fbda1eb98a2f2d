package adbd

import (
	"bytes"
	"fmt"
	"net"
	"testing"
	"time"
)

// fakeHost reads what a transport sends and acknowledges each WRTE of stream s
// after rtt, as the adb server does once its client took the data.
type fakeHost struct {
	wrtes chan []byte
}

func startFakeHost(t *testing.T, rtt time.Duration, ack bool) (*stream, *fakeHost) {
	t.Helper()
	dev, host := net.Pipe()
	t.Cleanup(func() { dev.Close(); host.Close() })
	tr := newTransport(&Server{}, dev)
	s := newStream(tr, 1, 7, 4096)
	h := &fakeHost{wrtes: make(chan []byte, 100000)}
	go func() {
		defer close(h.wrtes)
		for {
			m, err := readMessage(host, maxAcceptedData, false)
			if err != nil {
				return
			}
			if m.Command == cmdCLSE {
				return
			}
			if m.Command != cmdWRTE {
				continue
			}
			h.wrtes <- m.Data
			if ack {
				time.Sleep(rtt)
				s.ready(7)
			}
		}
	}()
	return s, h
}

// A command that prints in many small writes reaches the host in a few WRTEs, every
// byte in order: what it wrote while a WRTE was in flight goes out together.
func TestLocalSocketSendsQueuedOutputTogether(t *testing.T) {
	s, h := startFakeHost(t, time.Millisecond, true)
	sock := newLocalSocket(s)
	var want bytes.Buffer
	for i := range 2000 {
		line := fmt.Sprintf("    Window #%d Window{%x u0 com.example/.Main}:\n", i, i)
		want.WriteString(line)
		if _, err := sock.Write([]byte(line)); err != nil {
			t.Fatal(err)
		}
	}
	if err := sock.Close(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	var got bytes.Buffer
	n := 0
	for data := range h.wrtes {
		if len(data) > 4096 {
			t.Fatalf("a WRTE of %d bytes: over the host's 4096", len(data))
		}
		got.Write(data)
		n++
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("the host got %d bytes, want %d in the order written", got.Len(), want.Len())
	}
	if min := want.Len() / 4096; n > 4*min+10 {
		t.Errorf("%d WRTEs for 2,000 writes of %d bytes: want about %d, as full as the host takes", n, want.Len(), min)
	}
}

// A host that stops acknowledging stops the command once a pipe's worth waits, and a
// closed stream makes its next write fail instead of queueing forever.
func TestLocalSocketBlocksAtAPipesCapacity(t *testing.T) {
	s, _ := startFakeHost(t, 0, false)
	sock := newLocalSocket(s)
	wrote := make(chan int, 1)
	go func() {
		total := 0
		chunk := bytes.Repeat([]byte("x"), 1024)
		for total < 4*socketBufferBytes {
			n, err := sock.Write(chunk)
			total += n
			if err != nil {
				break
			}
		}
		wrote <- total
	}()
	time.Sleep(200 * time.Millisecond)
	sock.mu.Lock()
	queued := len(sock.queued)
	sock.mu.Unlock()
	if queued > socketBufferBytes+1024 {
		t.Fatalf("%d bytes queued for a host that acknowledges nothing: want at most a pipe's %d", queued, socketBufferBytes)
	}
	select {
	case n := <-wrote:
		t.Fatalf("the writer finished %d bytes though the host took one WRTE", n)
	default:
	}
	s.remoteClosed()
	select {
	case n := <-wrote:
		if n >= 4*socketBufferBytes {
			t.Fatalf("all %d bytes were accepted after the host closed", n)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the writer stayed blocked after the host closed the stream")
	}
	if err := sock.Close(); err == nil {
		t.Fatal("Close after the host closed: no error")
	}
}

// A process that is done is not held until the host acknowledges its last WRTE (the
// stream's Close waits for that, for a bounded time), and a write after the end is
// refused, not queued where nothing sends it.
func TestLocalSocketEndsWithoutTheLastOKAY(t *testing.T) {
	s, h := startFakeHost(t, 0, false)
	sock := newLocalSocket(s)
	if _, err := sock.Write([]byte("hello\n")); err != nil {
		t.Fatal(err)
	}
	closed := make(chan error, 1)
	go func() { closed <- sock.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatalf("Close: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close waited for an OKAY the host never sent")
	}
	if got := <-h.wrtes; string(got) != "hello\n" {
		t.Fatalf("the host got %q", got)
	}
	if _, err := sock.Write(bytes.Repeat([]byte("x"), 2*socketBufferBytes)); err == nil {
		t.Fatal("a write after Close was accepted")
	}
}

// A write larger than the queue goes out from the writer's buffer, between the small
// writes around it, and the buffer is the writer's again once Write returns.
func TestLocalSocketSendsALargeWriteInOrder(t *testing.T) {
	s, h := startFakeHost(t, 0, true)
	sock := newLocalSocket(s)
	big := bytes.Repeat([]byte("0123456789abcdef"), 3*socketBufferBytes/16+5)
	var want bytes.Buffer
	for _, p := range [][]byte{[]byte("head\n"), big, []byte("tail\n")} {
		want.Write(p)
		if _, err := sock.Write(p); err != nil {
			t.Fatal(err)
		}
	}
	for i := range big { // the writer reuses its buffer: nothing sent may change
		big[i] = 'X'
	}
	if err := sock.Close(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	var got bytes.Buffer
	for data := range h.wrtes {
		got.Write(data)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("the host got %d bytes (%d X), want %d in order", got.Len(), bytes.Count(got.Bytes(), []byte("X")), want.Len())
	}
}
