package device

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
	client  *adb.Client
	mu      sync.Mutex
	clients map[string]*capture.SidekickClient // serial|pkg → client
	absent  map[string]time.Time               // serial|pkg → when we last found none
	lastPkg map[string]string                  // serial → foreground package last seen
}

const sidekickRetryAfter = 30 * time.Second

func newSidekicks(client *adb.Client) *sidekicks {
	return &sidekicks{client: client, clients: map[string]*capture.SidekickClient{}, absent: map[string]time.Time{}, lastPkg: map[string]string{}}
}

// notePackage records the foreground package of serial (from the preview's state checks).
func (s *sidekicks) notePackage(serial, pkg string) {
	s.mu.Lock()
	s.lastPkg[serial] = pkg
	s.mu.Unlock()
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
	return c, read
}

// openSidekick connects to the FixThis sidekick of pkg on serial: it reads the app's
// session file with run-as and forwards the sidekick's abstract socket to a local port
// (a FixThis-owned forward, removed with the device selection). It fails with
// capture.ErrNoSidekick when the app does not carry one.
func openSidekick(ctx context.Context, client *adb.Client, serial, pkg string) (*capture.SidekickClient, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	sess, err := capture.ReadSidekickSession(ctx, client.Device(serial), pkg)
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
