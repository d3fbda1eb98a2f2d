package device

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"fixthis/adb"
	"fixthis/capture"
)

// sidekicks keeps one sidekick connection per device and app package for the session
// (the forward stays up as long as it is used) and remembers apps without one for a
// while, so a freeze does not pay `run-as` every time.
type sidekicks struct {
	client  *adb.Client
	mu      sync.Mutex
	clients map[string]*capture.SidekickClient // serial|pkg → client
	absent  map[string]time.Time               // serial|pkg → when we last found none
	lastPkg map[string]string                  // serial → foreground package last seen
	stops   map[string]chan struct{}           // serial|pkg → stops its heartbeat
}

const sidekickRetryAfter = 30 * time.Second

func newSidekicks(client *adb.Client) *sidekicks {
	return &sidekicks{client: client, clients: map[string]*capture.SidekickClient{}, absent: map[string]time.Time{}, lastPkg: map[string]string{}, stops: map[string]chan struct{}{}}
}

// notePackage records the foreground package of serial (from the preview's state checks).
func (s *sidekicks) notePackage(serial, pkg string) {
	s.mu.Lock()
	s.lastPkg[serial] = pkg
	s.mu.Unlock()
}

// packageOf is the foreground package last seen on serial, "" when none was.
func (s *sidekicks) packageOf(serial string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastPkg[serial]
}

// known says whether serial's foreground app has a sidekick connection open now.
func (s *sidekicks) known(serial string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	pkg := s.lastPkg[serial]
	return pkg != "" && s.clients[serial+"|"+pkg] != nil
}

// forDevice returns the sidekick of the foreground app on serial, or nil when the app
// carries none (then uiautomator is used). When it had to read the screen state to
// learn the package, it returns that state too, so the capture need not read it again.
func (s *sidekicks) forDevice(ctx context.Context, serial string) (*capture.SidekickClient, *capture.ScreenState) {
	s.mu.Lock()
	pkg := s.lastPkg[serial]
	s.mu.Unlock()
	var read *capture.ScreenState
	if pkg == "" {
		// No state check has run yet (nobody watched the live preview): ask once.
		if st, err := capture.ReadScreenState(ctx, s.client.Device(serial)); err == nil {
			pkg, read = st.Package, &st
			s.notePackage(serial, pkg)
		}
	}
	s.mu.Lock()
	key := serial + "|" + pkg
	c := s.clients[key]
	missingSince, missing := s.absent[key]
	s.mu.Unlock()
	if pkg == "" || c != nil {
		return c, read
	}
	if missing && time.Since(missingSince) < sidekickRetryAfter {
		return nil, read
	}
	c, err := openSidekick(ctx, s.client, serial, pkg)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.absent[key] = time.Now()
		return nil, read
	}
	s.clients[key] = c
	stop := make(chan struct{})
	s.stops[key] = stop
	go heartbeat(c, stop)
	return c, read
}

// openSidekick connects to the FixThis sidekick of pkg on serial: it reads the app's
// session file with run-as, forwards the sidekick's abstract socket to a local port (a
// FixThis-owned forward, removed with the device selection; the -1 / -2 names the
// sidekick may have bound get forwards of their own) and connects: a first heartbeat,
// which also proves the socket answers, and status, which must speak protocol 1.3. It fails with capture.ErrNoSidekick when the
// app does not carry one.
func openSidekick(ctx context.Context, client *adb.Client, serial, pkg string) (*capture.SidekickClient, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	dev := client.Device(serial)
	sess, err := capture.ReadSidekickSession(ctx, dev, pkg)
	if err != nil {
		return nil, err
	}
	var mu sync.Mutex
	ports := map[string]int{} // socket name → local port forwarded to it
	c := &capture.SidekickClient{
		Session: sess,
		Dial: func(ctx context.Context, socket string) (net.Conn, error) {
			mu.Lock()
			port, ok := ports[socket]
			mu.Unlock()
			if !ok {
				p, err := client.ForwardLocalAbstract(ctx, serial, socket)
				if err != nil {
					return nil, err
				}
				mu.Lock()
				ports[socket], port = p, p
				mu.Unlock()
			}
			var d net.Dialer
			return d.DialContext(ctx, "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		},
		Reread: func(ctx context.Context) (capture.SidekickSession, error) {
			return capture.ReadSidekickSession(ctx, dev, pkg)
		},
	}
	if _, err := c.Connect(ctx); err != nil {
		c.Close()
		return nil, fmt.Errorf("%w: %w", capture.ErrNoSidekick, err)
	}
	return c, nil
}

// sidekickHeartbeatEvery keeps the app's "connected" pill on: the sidekick shows the
// host connected for 6 s after a heartbeat.
const sidekickHeartbeatEvery = 4 * time.Second

// heartbeat beats c until stop is closed; a beat that fails is left to the next
// capture, which reconnects.
func heartbeat(c *capture.SidekickClient, stop <-chan struct{}) {
	t := time.NewTicker(sidekickHeartbeatEvery)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			_ = c.Heartbeat(ctx)
			cancel()
		}
	}
}

// forget closes and drops every sidekick of serial and the forwards FixThis made for
// them: the device was cleared, or a connection died (adb server or app restarted), and
// the next capture should set up a fresh one.
func (s *sidekicks) forget(ctx context.Context, serial string) {
	s.mu.Lock()
	dropped := false
	for key, c := range s.clients {
		if strings.HasPrefix(key, serial+"|") {
			_ = c.Close()
			delete(s.clients, key)
			if stop := s.stops[key]; stop != nil {
				close(stop)
				delete(s.stops, key)
			}
			dropped = true
		}
	}
	s.mu.Unlock()
	if dropped {
		_ = s.client.RemoveOwnForwards(ctx, serial)
	}
}

// forgetAll forgets every device's sidekicks.
func (s *sidekicks) forgetAll(ctx context.Context) {
	s.mu.Lock()
	serials := map[string]bool{}
	for key := range s.clients {
		serial, _, _ := strings.Cut(key, "|")
		serials[serial] = true
	}
	s.mu.Unlock()
	for serial := range serials {
		s.forget(ctx, serial)
	}
}
