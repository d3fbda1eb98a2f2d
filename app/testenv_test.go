package app

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"fixthis/adb"
	"fixthis/adb/adbtest"
	"fixthis/app/device"
	"fixthis/app/store"
	"fixthis/internal/eventually"
	"fixthis/sim"
)

// testEnv is one FixThis app wired end to end for integration tests: a private adb
// server, the demo scenario on a simulated device registered with it, a store in a
// temporary project, and the console API on an httptest server. Everything it starts
// is stopped by t.Cleanup.
type testEnv struct {
	t          *testing.T
	adbServer  *adbtest.Server
	client     *adb.Client
	sim        *sim.Device
	projectDir string
	store      *store.Store
	app        *App
	srv        *httptest.Server
}

// quietSim starts the demo scenario without artificial device latency, so the tests
// measure FixThis rather than the latency model.
var quietSim = sim.Options{Scenario: "demo", LatencyScale: 0, Logf: func(string, ...any) {}}

func newTestEnv(t *testing.T, tweaks ...func(*Options)) *testEnv {
	t.Helper()
	return newTestEnvAt(t, t.TempDir(), quietSim, tweaks...)
}

// newTestEnvWith is newTestEnv with the simulated device started from opts.
func newTestEnvWith(t *testing.T, opts sim.Options) *testEnv {
	t.Helper()
	return newTestEnvAt(t, t.TempDir(), opts)
}

// newTestEnvIn is newTestEnv with dir as the project directory.
func newTestEnvIn(t *testing.T, dir string) *testEnv {
	t.Helper()
	return newTestEnvAt(t, dir, quietSim)
}

// newTestEnvAt is newTestEnv with dir as the project and the device started from opts.
// tweaks adjust the app's Options before it starts.
func newTestEnvAt(t *testing.T, dir string, simOpts sim.Options, tweaks ...func(*Options)) *testEnv {
	t.Helper()
	phone := adbtest.StartPhone(t, simOpts)
	srvADB, dev, client := phone.Server, phone.Device, phone.Client
	a, srv, st := startTestApp(t, dir, client, tweaks...)
	env := &testEnv{t: t, adbServer: srvADB, client: client, sim: dev, projectDir: dir, store: st, app: a, srv: srv}
	env.waitDeviceOnline(dev.Serial(), 10*time.Second)
	return env
}

// startTestApp opens a store in dir and runs one FixThis app on client's adb server
// with the console API on an httptest server, all stopped when tb ends. tweaks adjust
// the app's Options before it starts.
func startTestApp(tb testing.TB, dir string, client *adb.Client, tweaks ...func(*Options)) (*App, *httptest.Server, *store.Store) {
	tb.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, dir, store.Options{})
	if err != nil {
		tb.Fatalf("open store in %s: %v", dir, err)
	}
	opts := Options{
		Version:        "test",
		ProjectDir:     dir,
		Mode:           ModeServe,
		Logger:         slog.New(slog.NewTextHandler(io.Discard, nil)),
		KeepAliveEvery: time.Second,
		ADB:            client,
		Store:          st,
		Demo:           device.DemoOff,
	}
	for _, tweak := range tweaks {
		tweak(&opts)
	}
	a := New(opts)
	runCtx, cancel := context.WithCancel(ctx)
	a.Run(runCtx)
	srv := httptest.NewServer(a.APIHandler())
	// Open SSE streams end with a.Shutdown; only then can the server close.
	tb.Cleanup(func() {
		a.Shutdown()
		cancel()
		srv.Close()
		a.Wait()
		if err := st.Close(); err != nil {
			tb.Errorf("close store: %v", err)
		}
	})
	return a, srv, st
}

// waitSimSelected waits until the simulated phone is the selected device.
func (e *testEnv) waitSimSelected() {
	e.t.Helper()
	eventually.True(e.t, 10*time.Second, "the sim selected", func() bool {
		var l device.List
		e.mustJSON("GET", "/api/devices", nil, &l)
		return l.SelectedSerial == e.sim.Serial()
	})
}

// keepScrolling swipes the simulated phone's list by 150 px, `turn` swipes down then
// `turn` up, each swipe taking `swipe` and followed by `pause`, until the returned
// stop is called: a screen that keeps changing for the video tests.
func (e *testEnv) keepScrolling(turn int, swipe, pause time.Duration) (stop func()) {
	done := make(chan struct{})
	go func() {
		se := e.sim.Session()
		for i := 0; ; i++ {
			dy := 150
			if i/turn%2 == 1 {
				dy = -150
			}
			se.Swipe(540, 1500, 540, 1500-dy, swipe)
			select {
			case <-done:
				return
			case <-time.After(pause):
			}
		}
	}()
	return func() { close(done) }
}

// waitDeviceOnline waits until the app lists serial as online and described.
func (e *testEnv) waitDeviceOnline(serial string, timeout time.Duration) device.View {
	e.t.Helper()
	var got device.View
	eventually.True(e.t, timeout, serial+" online in GET /api/devices", func() bool {
		var p device.List
		e.mustJSON("GET", "/api/devices", nil, &p)
		for _, d := range p.Devices {
			if d.Serial == serial && d.Online() && d.Screen != nil {
				got = d
				return true
			}
		}
		return false
	})
	return got
}

// apiResponse is one console API answer.
type apiResponse struct {
	Status int
	Header http.Header
	Body   []byte
}

func (r apiResponse) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %d response %q: %v", r.Status, r.Body, err)
	}
}

// do sends a request to the console API; body is JSON-encoded unless nil.
func (e *testEnv) do(method, path string, body any, header map[string]string) apiResponse {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			e.t.Fatalf("encode %s %s body: %v", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatalf("build %s %s: %v", method, path, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatalf("%s %s: read body: %v", method, path, err)
	}
	return apiResponse{Status: resp.StatusCode, Header: resp.Header, Body: data}
}

// mustJSON is do that requires 200 and decodes the body into out (when not nil).
func (e *testEnv) mustJSON(method, path string, body, out any) apiResponse {
	e.t.Helper()
	r := e.do(method, path, body, nil)
	if r.Status != http.StatusOK {
		e.t.Fatalf("%s %s: status %d, body %s", method, path, r.Status, r.Body)
	}
	if out != nil {
		r.decode(e.t, out)
	}
	return r
}

// freezeResult is the part of the Freeze document the tests read.
type freezeResult struct {
	FrozenID string `json:"frozenId"`
	ImageURL string `json:"imageUrl"`
	Screen   struct {
		Fingerprint string `json:"fingerprint"`
		Width       int    `json:"width"`
		Height      int    `json:"height"`
		Package     string `json:"package"`
		Activity    string `json:"activity"`
	} `json:"screen"`
	Nodes      []freezeNode `json:"nodes"`
	TreeSource string       `json:"treeSource"`
}

type freezeNode struct {
	UID     string       `json:"uid"`
	Class   string       `json:"class"`
	Text    string       `json:"text"`
	TestTag string       `json:"testTag"`
	Bounds  store.Bounds `json:"bounds"`
}

func (e *testEnv) freeze() freezeResult {
	e.t.Helper()
	var fr freezeResult
	e.mustJSON("POST", "/api/preview/freeze", map[string]string{}, &fr)
	if fr.FrozenID == "" || fr.Screen.Fingerprint == "" || len(fr.Nodes) == 0 {
		e.t.Fatalf("freeze: frozenId %q fingerprint %q, %d nodes", fr.FrozenID, fr.Screen.Fingerprint, len(fr.Nodes))
	}
	return fr
}

// node finds the first node with the test tag, or else with exactly the text.
func (fr freezeResult) node(t *testing.T, tagOrText string) freezeNode {
	t.Helper()
	for _, n := range fr.Nodes {
		if n.TestTag == tagOrText {
			return n
		}
	}
	for _, n := range fr.Nodes {
		if n.Text == tagOrText {
			return n
		}
	}
	t.Fatalf("no node with testTag or text %q among %d nodes on %s", tagOrText, len(fr.Nodes), fr.Screen.Activity)
	return freezeNode{}
}

func (n freezeNode) center() (int, int) {
	return (n.Bounds.Left + n.Bounds.Right) / 2, (n.Bounds.Top + n.Bounds.Bottom) / 2
}

// sseEvent is one Server-Sent Event and when this client read it.
type sseEvent struct {
	ID, Type string
	Data     json.RawMessage
	At       time.Time
}

// sseClient reads /api/events in the background; the test takes events from C.
type sseClient struct {
	t *testing.T
	C chan sseEvent
}

// subscribe opens the event stream and returns once the snapshot has arrived.
func (e *testEnv) subscribe() *sseClient {
	e.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", e.srv.URL+"/api/events", nil)
	if err != nil {
		cancel()
		e.t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		e.t.Fatalf("open /api/events: %v", err)
	}
	c := &sseClient{t: e.t, C: make(chan sseEvent, 4096)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(c.C)
		readSSE(resp.Body, c.C)
	}()
	e.t.Cleanup(func() {
		cancel()
		resp.Body.Close()
		<-done
	})
	if ev := c.next(5*time.Second, "snapshot", nil); ev.Type != "snapshot" {
		e.t.Fatalf("first event %q, want snapshot", ev.Type)
	}
	return c
}

// readSSE parses frames until the stream ends. Comments (keep-alives) are skipped.
func readSSE(r io.Reader, out chan<- sseEvent) {
	br := bufio.NewReaderSize(r, 1<<16)
	var ev sseEvent
	var data strings.Builder
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		switch {
		case line == "":
			if ev.Type != "" {
				ev.Data = json.RawMessage(data.String())
				ev.At = time.Now()
				out <- ev
			}
			ev, data = sseEvent{}, strings.Builder{}
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "id: "):
			ev.ID = line[4:]
		case strings.HasPrefix(line, "event: "):
			ev.Type = line[7:]
		case strings.HasPrefix(line, "data: "):
			data.WriteString(line[6:])
		}
	}
}

// next returns the first event of type typ (for which match holds, when given) within
// timeout, discarding others; it fails the test on timeout.
func (c *sseClient) next(timeout time.Duration, typ string, match func(sseEvent) bool) sseEvent {
	c.t.Helper()
	ev, ok := c.find(timeout, typ, match)
	if !ok {
		c.t.Fatalf("no %s event within %s", typ, timeout)
	}
	return ev
}

// find is next without failing: ok is false when nothing matched within timeout.
func (c *sseClient) find(timeout time.Duration, typ string, match func(sseEvent) bool) (sseEvent, bool) {
	c.t.Helper()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case ev, open := <-c.C:
			if !open {
				c.t.Fatalf("event stream ended while waiting for %s", typ)
			}
			if ev.Type == typ && (match == nil || match(ev)) {
				return ev, true
			}
		case <-timer.C:
			return sseEvent{}, false
		}
	}
}

// drain discards events already received.
func (c *sseClient) drain() {
	for {
		select {
		case <-c.C:
		default:
			return
		}
	}
}

// previewReady is the preview-ready payload.
type previewReady struct {
	PreviewID  string    `json:"previewId"`
	Serial     string    `json:"serial"`
	Width      int       `json:"width"`
	Height     int       `json:"height"`
	URL        string    `json:"url"`
	CapturedAt time.Time `json:"capturedAt"`
}

func decodeEvent[T any](t *testing.T, ev sseEvent) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(ev.Data, &v); err != nil {
		t.Fatalf("decode %s event %q: %v", ev.Type, ev.Data, err)
	}
	return v
}

func jsonInto(data []byte, v any) error { return json.Unmarshal(data, v) }

// eventWant is one event that must arrive, in any order relative to the others.
type eventWant struct {
	Type  string
	Match func(sseEvent) bool
}

// all waits until each want has been seen once, in any order, and returns the
// matching events in the order of wants.
func (c *sseClient) all(timeout time.Duration, wants ...eventWant) []sseEvent {
	c.t.Helper()
	got := make([]sseEvent, len(wants))
	seen := make([]bool, len(wants))
	left := len(wants)
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for left > 0 {
		select {
		case ev, open := <-c.C:
			if !open {
				c.t.Fatalf("event stream ended while waiting for %+v", wants)
			}
			for i, w := range wants {
				if !seen[i] && ev.Type == w.Type && (w.Match == nil || w.Match(ev)) {
					seen[i], got[i] = true, ev
					left--
					break
				}
			}
		case <-timer.C:
			var missing []string
			for i, w := range wants {
				if !seen[i] {
					missing = append(missing, w.Type)
				}
			}
			c.t.Fatalf("within %s, no %v event", timeout, missing)
		}
	}
	return got
}
