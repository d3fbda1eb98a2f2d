package app

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"fixthis/app/device"
	"fixthis/app/httpapi"
	"fixthis/app/store"
	"fixthis/internal/eventually"
	"fixthis/sim"
)

// liveStage is one GET /api/preview/stream?serial= a test reads in the background:
// its config, the pictures counted so far, and how it ended.
type liveStage struct {
	cfg      device.VideoConfig
	pictures atomic.Int64
	ended    chan string // the stream's last words: its ended message, or "" at EOF
	cancel   context.CancelFunc
}

// openStage opens serial's stream ("" for the selection) and counts its pictures
// until the stream ends or the test does.
func (e *testEnv) openStage(serial string) *liveStage {
	e.t.Helper()
	return openStage(e.t, e.srv.URL, serial)
}

func openStage(tb testing.TB, base, serial string) *liveStage {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	tb.Cleanup(cancel)
	path := "/api/preview/stream"
	if serial != "" {
		path += "?serial=" + url.QueryEscape(serial)
	}
	req, _ := http.NewRequestWithContext(ctx, "GET", base+path, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		tb.Fatalf("GET %s: %d %s", path, res.StatusCode, b)
	}
	br := bufio.NewReader(res.Body)
	kind, body, err := readStreamMessage(br)
	if err != nil || kind != streamConfig {
		tb.Fatalf("GET %s: first message kind %d, %v", path, kind, err)
	}
	st := &liveStage{ended: make(chan string, 1), cancel: cancel}
	if err := json.Unmarshal(body, &st.cfg); err != nil {
		tb.Fatal(err)
	}
	go func() {
		defer res.Body.Close()
		for {
			kind, body, err := readStreamMessage(br)
			switch {
			case err != nil:
				st.ended <- ""
				return
			case kind == streamEnded:
				st.ended <- string(body)
				return
			case kind == streamAccessUnit:
				st.pictures.Add(1)
			}
		}
	}()
	return st
}

// scroll swipes a simulated phone's list up and down until stop is called.
func scroll(d *sim.Device) (stop func()) {
	done := make(chan struct{})
	go func() {
		se := d.Session()
		for i := 0; ; i++ {
			dy := 150 - 300*(i/4%2)
			se.Swipe(540, 1500, 540, 1500-dy, 200*time.Millisecond)
			select {
			case <-done:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	return func() { close(done) }
}

func TestPreviewStreamsTwoPhonesAtOnceAndFreezesTheNamedOne(t *testing.T) {
	e := newTestEnv(t)
	e.waitSimSelected()
	second := e.adbServer.ConnectSim(t, quietSim)
	e.waitDeviceOnline(second.Serial(), 10*time.Second)
	e.mustJSON("POST", "/api/preview/stage", StageHeight{Height: 720}, nil)

	first, other := e.openStage(""), e.openStage(second.Serial())
	if first.cfg.Serial != e.sim.Serial() || other.cfg.Serial != second.Serial() {
		t.Fatalf("streams of %q and %q, want the selection %q and %q", first.cfg.Serial, other.cfg.Serial, e.sim.Serial(), second.Serial())
	}
	if other.cfg.BitRate <= 0 || other.cfg.BitRate > 20_000_000 {
		t.Errorf("the second stream asked for %d bit/s, want its share of the link", other.cfg.BitRate)
	}
	// A still phone costs nothing: only the scrolled one sends pictures.
	stop := scroll(second)
	eventually.True(t, 20*time.Second, "pictures from the scrolled second phone", func() bool { return other.pictures.Load() >= 10 })
	stop()
	if n := first.pictures.Load(); n > 1 {
		t.Errorf("the still first phone sent %d pictures while the other scrolled", n)
	}
	stop = scroll(e.sim)
	eventually.True(t, 20*time.Second, "pictures from the first phone", func() bool { return first.pictures.Load() >= 10 })
	stop()
	if got := e.app.device.Video.Viewers(); got != 2 {
		t.Errorf("%d viewers, want 2", got)
	}

	var fr device.FreezeResult
	e.mustJSON("POST", "/api/preview/freeze", FreezeRequest{Serial: second.Serial()}, &fr)
	if fr.FrozenID == "" || len(fr.Nodes) == 0 || fr.Serial != second.Serial() {
		t.Fatalf("freeze of %s: frozenId %q, %d nodes, serial %q", second.Serial(), fr.FrozenID, len(fr.Nodes), fr.Serial)
	}
	e.mustJSON("POST", "/api/preview/resume", nil, nil)
}

func TestPreviewStreamEndsWithANoticeWhenItsPhoneIsUnplugged(t *testing.T) {
	e := newTestEnv(t)
	e.waitSimSelected()
	second := e.adbServer.ConnectSim(t, quietSim)
	e.waitDeviceOnline(second.Serial(), 10*time.Second)
	first, other := e.openStage(e.sim.Serial()), e.openStage(second.Serial())

	e.adbServer.MustADB(t, "disconnect", second.Serial())
	select {
	case why := <-other.ended:
		if !strings.Contains(why, second.Serial()) {
			t.Errorf("the stream ended with %q, want a notice naming %s", why, second.Serial())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the unplugged phone's stream did not end")
	}
	// The other stage keeps streaming.
	stop := scroll(e.sim)
	defer stop()
	before := first.pictures.Load()
	eventually.True(t, 20*time.Second, "pictures from the phone still plugged in", func() bool { return first.pictures.Load() >= before+5 })
	select {
	case why := <-first.ended:
		t.Fatalf("the other phone's stream ended too: %q", why)
	default:
	}
}

func TestPreviewStreamRefusesAFifthPhone(t *testing.T) {
	e := newTestEnv(t)
	e.waitSimSelected()
	e.mustJSON("POST", "/api/preview/stage", StageHeight{Height: 360}, nil)
	serials := []string{e.sim.Serial()}
	for range device.MaxStages {
		d := e.adbServer.ConnectSim(t, quietSim)
		e.waitDeviceOnline(d.Serial(), 10*time.Second)
		serials = append(serials, d.Serial())
	}
	stages := make([]*liveStage, 0, device.MaxStages)
	for _, s := range serials[:device.MaxStages] {
		stages = append(stages, e.openStage(s))
	}
	fifth := serials[device.MaxStages]
	r := e.do("GET", "/api/preview/stream?serial="+url.QueryEscape(fifth), nil, nil)
	var body httpapi.ErrorBody
	r.decode(t, &body)
	if r.Status != http.StatusConflict || body.Error != "stage_limit" || !strings.Contains(body.Message, "close one") {
		t.Fatalf("a fifth phone: %d %+v", r.Status, body)
	}
	// Closing a stage makes room once its stream has let go.
	stages[1].cancel()
	eventually.True(t, 10*time.Second, "the closed stage's viewer gone", func() bool { return e.app.device.Video.Viewers() == device.MaxStages-1 })
	if st := e.openStage(fifth); st.cfg.Serial != fifth {
		t.Errorf("the fifth phone's stream is of %q", st.cfg.Serial)
	}
}

func TestPreviewStreamRefusesAnUnknownSerial(t *testing.T) {
	e := newTestEnv(t)
	e.waitSimSelected()
	for _, serial := range []string{"no-such-phone", "nul\x00byte", strings.Repeat("x", 64<<10)} {
		r := e.do("GET", "/api/preview/stream?serial="+url.QueryEscape(serial), nil, nil)
		var body httpapi.ErrorBody
		r.decode(t, &body)
		if r.Status != http.StatusNotFound || body.Error != "device_not_found" || len(body.Message) > 200 {
			t.Errorf("serial of %d bytes: %d %s %.300q", len(serial), r.Status, body.Error, body.Message)
		}
	}
}

// An item saved on the second of two phones shown side by side names that phone:
// the saved screen keeps the serial of the phone it was frozen on, the console's
// session read, fixthis_read_feedback and the prompt's phone: line carry it,
// whichever phone is selected.
func TestSaveOnTheSecondPhoneRecordsItsSerial(t *testing.T) {
	e := newTestEnv(t)
	e.waitSimSelected()
	second := e.adbServer.ConnectSim(t, quietSim)
	e.waitDeviceOnline(second.Serial(), 10*time.Second)

	var fr freezeResult
	e.mustJSON("POST", "/api/preview/freeze", FreezeRequest{Serial: second.Serial()}, &fr)
	sid := e.createSession("two phones")
	var saved batchResponse
	e.mustJSON("POST", "/api/items/batch", nodeAndAreaBatch(t, sid, fr), &saved)
	e.mustJSON("POST", "/api/preview/resume", nil, nil)
	if len(saved.Session.Screens) != 1 || saved.Session.Screens[0].Serial != second.Serial() {
		t.Fatalf("saved screens %+v, want one of %s", saved.Session.Screens, second.Serial())
	}
	var read struct {
		Session store.Session `json:"session"`
	}
	e.mustJSON("GET", "/api/sessions/"+sid, nil, &read)
	if len(read.Session.Screens) != 1 || read.Session.Screens[0].Serial != second.Serial() || read.Session.Items[0].ScreenID != read.Session.Screens[0].ScreenID {
		t.Fatalf("session read: screens %+v", read.Session.Screens)
	}

	ag := &agentClient{t: t, c: inProcessAgent(t, e, "stages-agent")}
	out := ag.call("fixthis_read_feedback", map[string]any{"sessionId": sid, "itemId": saved.Items[0].ItemID})
	if want := `"serial":"` + second.Serial() + `"`; !strings.Contains(out, want) {
		t.Fatalf("read_feedback has no %s: %.600s", want, out)
	}
	// The prompt names the phone the item came from, not the selected one.
	// (The prompt travels JSON-encoded: its line ends read \n.)
	if want := "phone: " + second.Serial() + `\n`; !strings.Contains(out, want) || strings.Contains(out, "phone: "+e.sim.Serial()+`\n`) {
		t.Fatalf("the prompt does not name only %s: %.2000s", want, out)
	}
}
