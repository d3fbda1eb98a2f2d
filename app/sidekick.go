package app

import (
	"context"
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
	a       *App
	mu      sync.Mutex
	clients map[string]*capture.SidekickClient // serial|pkg → client
	absent  map[string]time.Time               // serial|pkg → when we last found none
	lastPkg map[string]string                  // serial → foreground package last seen
}

const sidekickRetryAfter = 30 * time.Second

func newSidekicks(a *App) *sidekicks {
	return &sidekicks{a: a, clients: map[string]*capture.SidekickClient{}, absent: map[string]time.Time{}, lastPkg: map[string]string{}}
}

// notePackage records the foreground package of serial (from the preview's state checks).
func (s *sidekicks) notePackage(serial, pkg string) {
	s.mu.Lock()
	s.lastPkg[serial] = pkg
	s.mu.Unlock()
}

// forDevice returns the sidekick of the foreground app on serial, or nil when the app
// carries none (then uiautomator is used).
func (s *sidekicks) forDevice(ctx context.Context, serial string) *capture.SidekickClient {
	s.mu.Lock()
	pkg := s.lastPkg[serial]
	s.mu.Unlock()
	if pkg == "" {
		// No state check has run yet (nobody watched the live preview): ask once.
		if st, err := capture.ReadScreenState(ctx, s.a.captureDevice(serial)); err == nil {
			pkg = st.Package
			s.notePackage(serial, pkg)
		}
	}
	s.mu.Lock()
	key := serial + "|" + pkg
	c := s.clients[key]
	missingSince, missing := s.absent[key]
	s.mu.Unlock()
	if pkg == "" || c != nil {
		return c
	}
	if missing && time.Since(missingSince) < sidekickRetryAfter {
		return nil
	}
	c, err := s.open(ctx, serial, pkg)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.absent[key] = time.Now()
		return nil
	}
	s.clients[key] = c
	return c
}

func (s *sidekicks) open(ctx context.Context, serial, pkg string) (*capture.SidekickClient, error) {
	return OpenSidekick(ctx, s.a.adb, serial, pkg)
}

// OpenSidekick connects to the FixThis sidekick of pkg on serial: it reads the app's
// session file with run-as and forwards the sidekick's abstract socket to a local port
// (a FixThis-owned forward, removed with the device selection). It fails with
// capture.ErrNoSidekick when the app does not carry one.
func OpenSidekick(ctx context.Context, client *adb.Client, serial, pkg string) (*capture.SidekickClient, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	sess, err := capture.ReadSidekickSession(ctx, CaptureDevice(client, serial), pkg)
	if err != nil {
		return nil, err
	}
	port, err := client.ForwardLocalAbstract(ctx, serial, sess.Socket)
	if err != nil {
		return nil, err
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	return &capture.SidekickClient{
		Session: sess,
		Dial: func(ctx context.Context) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "tcp", addr)
		},
	}, nil
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
			dropped = true
		}
	}
	s.mu.Unlock()
	if dropped {
		_ = s.a.adb.RemoveOwnForwards(ctx, serial)
	}
}

// captureWithSidekick captures serial, reading the tree through the app's sidekick
// when it has one. A sidekick that failed to answer is dropped, so the next capture
// reconnects instead of paying uiautomator for the rest of the run.
func (a *App) captureWithSidekick(ctx context.Context, serial string) (*capture.Snapshot, error) {
	sk := a.sidekicks.forDevice(ctx, serial)
	snap, err := capture.Capture(ctx, a.captureDevice(serial), capture.Options{Sidekick: sk})
	if sk != nil && (err != nil || snap.TreeSource != capture.TreeFromSidekick) {
		a.sidekicks.forget(context.WithoutCancel(ctx), serial)
	}
	return snap, err
}
