package adb_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"image/png"
	"io"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"fixthis/adb"
	"fixthis/sim"
)

// connectSim starts a demo simulated device, registers it with the server
// through Connect and waits until the server lists it as online.
func connectSim(t *testing.T, c *adb.Client) *sim.Device {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	dev, err := sim.Start(context.Background(), sim.Options{Addr: "127.0.0.1:0", Scenario: "demo"})
	if err != nil {
		t.Fatalf("start simulated device: %v", err)
	}
	t.Cleanup(func() { dev.Close() })
	if err := c.Connect(ctx, dev.Addr()); err != nil {
		t.Fatal(err)
	}
	waitForState(t, ctx, c, dev.Serial(), adb.StateDevice)
	return dev
}

func waitForState(t *testing.T, ctx context.Context, c *adb.Client, serial string, want adb.State) {
	t.Helper()
	for {
		st, err := c.State(ctx, serial)
		if err == nil && st == want {
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("%s never became %s (last %q, %v)", serial, want, st, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestSimTrackAddRemove(t *testing.T) {
	c := privateServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	lists := make(chan []adb.Device, 256)
	go c.Track(ctx, func(d []adb.Device) { lists <- d })
	waitList := func(what string, ok func([]adb.Device) bool) []adb.Device {
		t.Helper()
		for {
			select {
			case l := <-lists:
				if ok(l) {
					return l
				}
			case <-ctx.Done():
				t.Fatalf("track never showed %s", what)
			}
		}
	}
	waitList("the empty list", func(l []adb.Device) bool { return len(l) == 0 })

	dev, err := sim.Start(ctx, sim.Options{Addr: "127.0.0.1:0", Scenario: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	if err := c.Connect(ctx, dev.Addr()); err != nil {
		t.Fatal(err)
	}
	online := func(l []adb.Device) bool {
		for _, d := range l {
			if d.Serial == dev.Serial() && d.Online() {
				return true
			}
		}
		return false
	}
	l := waitList("the simulated device online", online)
	for _, d := range l {
		if d.Serial == dev.Serial() {
			if d.Connection != adb.ConnTCP || d.TransportID == 0 || d.Model == "" {
				t.Errorf("tracked device %+v", d)
			}
		}
	}

	if err := c.Disconnect(ctx, dev.Addr()); err != nil {
		t.Fatal(err)
	}
	waitList("the simulated device removed", func(l []adb.Device) bool {
		for _, d := range l {
			if d.Serial == dev.Serial() {
				return false
			}
		}
		return true
	})
}

// A device that dies shows as no longer online within the console's 2 s, even
// though the adb server marks it offline without telling its trackers.
func TestSimWatchSeesKilledDevice(t *testing.T) {
	c := privateServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	dev := connectSim(t, c)
	events := make(chan adb.WatchEvent, 256)
	go c.Watch(ctx, func(e adb.WatchEvent) { events <- e })
	online := func(e adb.WatchEvent) bool {
		for _, d := range e.Devices {
			if d.Serial == dev.Serial() && d.Online() {
				return true
			}
		}
		return false
	}
	for e := range events {
		if online(e) {
			break
		}
	}
	dev.Close()
	killed := time.Now()
	timeout := time.After(3 * time.Second)
	for {
		select {
		case e := <-events:
			if !e.ServerUp {
				t.Fatalf("server reported down: %v", e.Err)
			}
			if !online(e) {
				t.Logf("device reported not online %v after it died", time.Since(killed).Round(time.Millisecond))
				return
			}
		case <-timeout:
			t.Fatal("Watch still shows the killed device online after 3 s")
		}
	}
}

func TestSimDescribeAndShell(t *testing.T) {
	c := privateServer(t)
	dev := connectSim(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	serial := dev.Serial()

	d, err := c.Describe(ctx, serial)
	if err != nil {
		t.Fatal(err)
	}
	p := dev.Profile()
	if d.AndroidVersion != p.Release || d.SDK != p.SDK || d.Screen == nil ||
		*d.Screen != (adb.Screen{Width: p.Width, Height: p.Height, Density: p.Density}) {
		t.Errorf("describe %+v (screen %+v), profile %+v", d, d.Screen, p)
	}

	tests := []struct {
		cmd            string
		stdout, stderr string
		code           int
	}{
		{"true", "", "", 0},
		{"false", "", "", 1},
		{"echo hello world", "hello world\n", "", 0},
		{"getprop ro.build.version.sdk", strconv.Itoa(p.SDK) + "\n", "", 0},
		{"exit 42", "", "", 42},
	}
	for _, tt := range tests {
		res, err := c.Shell(ctx, serial, tt.cmd)
		if err != nil {
			t.Errorf("%s: %v", tt.cmd, err)
			continue
		}
		if string(res.Stdout) != tt.stdout || string(res.Stderr) != tt.stderr || res.ExitCode != tt.code {
			t.Errorf("%s: stdout %q stderr %q exit %d", tt.cmd, res.Stdout, res.Stderr, res.ExitCode)
		}
	}
	res, err := c.Shell(ctx, serial, "ls /nonexistent-dir")
	if err != nil || res.ExitCode == 0 || len(res.Stderr) == 0 || len(res.Stdout) != 0 {
		t.Errorf("ls missing dir: %+v stderr %q, %v", res, res.Stderr, err)
	}
	if _, err := c.Exec(ctx, "127.0.0.1:1", "true"); !errors.Is(err, adb.ErrDeviceNotFound) {
		t.Errorf("exec on unknown serial: %v", err)
	}
}

func TestSimExecScreencapIsBinarySafe(t *testing.T) {
	c := privateServer(t)
	dev := connectSim(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p := dev.Profile()

	b, err := c.Exec(ctx, dev.Serial(), "screencap -p")
	if err != nil {
		t.Fatal(err)
	}
	// The PNG signature holds \r\n and \n: any line-ending translation breaks it.
	if !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("not a PNG: % x", b[:min(len(b), 16)])
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("decode screencap -p: %v", err)
	}
	if r := img.Bounds(); r.Dx() != p.Width || r.Dy() != p.Height {
		t.Errorf("png %v, screen %dx%d", r, p.Width, p.Height)
	}

	raw, err := c.Exec(ctx, dev.Serial(), "screencap")
	if err != nil {
		t.Fatal(err)
	}
	w, h := binary.LittleEndian.Uint32(raw[0:]), binary.LittleEndian.Uint32(raw[4:])
	pixels := int(w) * int(h) * 4
	if int(w) != p.Width || int(h) != p.Height || (len(raw) != 16+pixels && len(raw) != 12+pixels) {
		t.Errorf("raw screencap %dx%d, %d bytes", w, h, len(raw))
	}
}

// A device that dies while a command runs gives an error naming it, at once.
func TestSimKilledMidCommand(t *testing.T) {
	c := privateServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, tc := range []struct {
		name string
		call func(serial string) error
	}{
		{"shell", func(serial string) error { _, err := c.Shell(ctx, serial, "sleep 30"); return err }},
		{"exec", func(serial string) error { _, err := c.Exec(ctx, serial, "sleep 30"); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dev := connectSim(t, c)
			time.AfterFunc(300*time.Millisecond, func() { dev.Close() })
			start := time.Now()
			err := tc.call(dev.Serial())
			if err == nil || !strings.Contains(err.Error(), dev.Serial()) {
				t.Errorf("err %v, want an error naming %s", err, dev.Serial())
			}
			if !errors.Is(err, adb.ErrDeviceGone) {
				t.Errorf("err %v, want ErrDeviceGone", err)
			}
			if el := time.Since(start); el > 10*time.Second {
				t.Errorf("took %v", el)
			}
		})
	}
}

func TestSimForwards(t *testing.T) {
	c := privateServer(t)
	dev := connectSim(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	serial := dev.Serial()

	// The demo app serves its sidekick socket: a 4-byte big-endian length
	// and JSON, answering any request (here one without the token) in kind.
	var name string
	for _, s := range dev.Profile().Sockets {
		if s.Protocol == "sidekick" {
			name = s.Name
		}
	}
	if name == "" {
		t.Fatal("the demo scenario serves no sidekick socket")
	}
	port, err := c.ForwardLocalAbstract(ctx, serial, name)
	if err != nil {
		t.Fatal(err)
	}
	nc, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	req := []byte(`{"id":"req_7","method":"heartbeat","params":{}}`)
	frame := binary.BigEndian.AppendUint32(nil, uint32(len(req)))
	if _, err := nc.Write(append(frame, req...)); err != nil {
		t.Fatal(err)
	}
	var hdr [4]byte
	if _, err := io.ReadFull(nc, hdr[:]); err != nil {
		t.Fatalf("no reply through the forward: %v", err)
	}
	reply := make([]byte, binary.BigEndian.Uint32(hdr[:]))
	var answer struct {
		ID    string `json:"id"`
		OK    bool   `json:"ok"`
		Error struct{ Code string }
	}
	if _, err := io.ReadFull(nc, reply); err != nil || json.Unmarshal(reply, &answer) != nil ||
		answer.ID != "req_7" || answer.OK || answer.Error.Code != "UNAUTHORIZED" {
		t.Errorf("reply %q, %v", reply, err)
	}
	nc.Close()

	// A forward made by another tool must survive RemoveOwnForwards.
	other := "tcp:" + strconv.Itoa(freePort(t))
	if out, err := exec.CommandContext(ctx, "adb", "-P", strconv.Itoa(c.Port()), "-s", serial, "forward", other, "localabstract:"+name).CombinedOutput(); err != nil {
		t.Fatalf("adb forward: %v: %s", err, out)
	}
	fws, err := c.ListForwards(ctx)
	if err != nil || len(fws) != 2 {
		t.Fatalf("forwards %+v, %v", fws, err)
	}
	if own := c.OwnForwards(serial); len(own) != 1 || own[0].Local != "tcp:"+strconv.Itoa(port) {
		t.Errorf("own forwards %+v", own)
	}
	if err := c.RemoveOwnForwards(ctx, serial); err != nil {
		t.Fatal(err)
	}
	fws, err = c.ListForwards(ctx)
	if err != nil || len(fws) != 1 || fws[0].Local != other {
		t.Errorf("after removing own: %+v, %v", fws, err)
	}
	if _, err := c.ForwardLocalAbstract(ctx, "127.0.0.1:1", name); !errors.Is(err, adb.ErrDeviceNotFound) {
		t.Errorf("forward on unknown serial: %v", err)
	}
}

func TestSimPushPull(t *testing.T) {
	c := privateServer(t)
	dev := connectSim(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	data := make([]byte, 3<<20+17)
	for i := range data {
		data[i] = byte(i * 7 >> 3)
	}
	remote := "/data/local/tmp/fixthis-push.bin"
	if err := c.Push(ctx, dev.Serial(), bytes.NewReader(data), remote, 0o644, time.Now()); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := c.Pull(ctx, dev.Serial(), remote, &got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), data) {
		t.Errorf("pulled %d bytes, pushed %d; equal=false", got.Len(), len(data))
	}
	if err := c.Pull(ctx, dev.Serial(), "/nonexistent/file", io.Discard); err == nil {
		t.Error("pull of a missing file succeeded")
	}
}
