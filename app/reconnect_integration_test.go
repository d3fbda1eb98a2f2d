package app

import (
	"slices"
	"strings"
	"testing"
	"time"

	"fixthis/app/device"
	"fixthis/internal/eventually"
)

// A killed adb server forgets the phones it reached with `adb connect`. FixThis
// starts the server again, connects the network phone it had, says so on
// devices-updated, and the phone comes back selected.
func TestNetworkDeviceComesBackAfterTheADBServerDies(t *testing.T) {
	e := newTestEnv(t)
	serial := e.sim.Serial()
	if !device.IsNetworkSerial(serial) {
		t.Fatalf("the simulated phone's serial %q is not a network serial", serial)
	}
	events := e.subscribe()
	e.adbServer.Kill(t)
	killed := time.Now()
	waitPayload(t, e.app, 5*time.Second, "the server reported down", func(p device.List) bool { return !p.ServerUp })
	back := waitPayload(t, e.app, 30*time.Second, "the network phone back and selected", func(p device.List) bool {
		return p.ServerUp && p.SelectedSerial == serial && e.app.device.Registry.IsOnline(serial)
	})
	t.Logf("phone back %v after the server was killed", time.Since(killed).Round(time.Millisecond))
	if len(back.Notices) != 0 && !strings.Contains(strings.Join(back.Notices, " "), "reconnected") {
		t.Errorf("notices once the phone is back: %q", back.Notices)
	}
	// The console was told while it happened.
	ev, ok := events.find(5*time.Second, "devices-updated", func(ev sseEvent) bool {
		l := decodeEvent[device.List](t, ev)
		return slices.ContainsFunc(l.Reconnects, func(r device.Reconnect) bool { return r.Serial == serial }) &&
			strings.Contains(strings.Join(l.Notices, " "), serial)
	})
	if !ok {
		t.Fatal("no devices-updated said the phone was being reconnected")
	}
	t.Logf("console saw: %q", decodeEvent[device.List](t, ev).Notices)
	// The restarted server really lists it: FixThis connected it, nobody else did.
	if st := e.adbServer.State(t, serial); st != "device" {
		t.Errorf("adb lists %s as %q", serial, st)
	}
}

// With the phone dead and the adb server killed, a frozen preview says so
// instead of "frozen"; the frozen screen is still there to save.
func TestFrozenPreviewReportsTheDeviceGone(t *testing.T) {
	e := newTestEnv(t)
	e.freeze()
	var doc device.PreviewDoc
	e.mustJSON("GET", "/api/preview", nil, &doc)
	if doc.Status.State != device.StateFrozen {
		t.Fatalf("after freeze: %+v", doc.Status)
	}
	e.sim.Close()
	e.adbServer.Kill(t)
	eventually.True(t, 10*time.Second, "GET /api/preview to say no device with no phone and no server", func() bool {
		e.mustJSON("GET", "/api/preview", nil, &doc)
		return doc.Status.State == device.StateNoDevice
	})
	if !strings.Contains(doc.Status.Message, "frozen screen can still be saved") {
		t.Errorf("message %q", doc.Status.Message)
	}
}

// A selected phone that dies while another is online is reported gone, and the
// other one is offered, in the API and on devices-updated.
func TestDeadSelectedPhoneOffersTheOther(t *testing.T) {
	e := newTestEnv(t)
	first := e.sim.Serial()
	second := e.adbServer.ConnectSim(t, quietSim)
	e.waitDeviceOnline(second.Serial(), 10*time.Second)
	e.mustJSON("POST", "/api/device/select", map[string]string{"serial": second.Serial()}, nil)
	events := e.subscribe()
	second.Close()
	l := waitPayload(t, e.app, 10*time.Second, "the dead phone reported", func(p device.List) bool {
		return !e.app.device.Registry.IsOnline(second.Serial())
	})
	var got device.List
	e.mustJSON("GET", "/api/devices", nil, &got)
	// adb keeps a dead `adb connect` phone listed offline, so it stays selected.
	if got.SelectedSerial != second.Serial() || got.OfferSerial != first ||
		!strings.Contains(strings.Join(got.Notices, " "), second.Serial()) || !strings.Contains(strings.Join(got.Notices, " "), "is gone (offline)") {
		t.Errorf("dead phone: selected %q, notices %q, offer %q (list %+v)", got.SelectedSerial, got.Notices, got.OfferSerial, l)
	}
	if _, ok := events.find(5*time.Second, "devices-updated", func(ev sseEvent) bool {
		return decodeEvent[device.List](t, ev).OfferSerial == first
	}); !ok {
		t.Error("devices-updated never offered the other phone")
	}
	// Taking the offer works.
	e.mustJSON("POST", "/api/device/select", map[string]string{"serial": first}, nil)
	got = device.List{}
	e.mustJSON("GET", "/api/devices", nil, &got)
	if got.OfferSerial != "" || len(got.Notices) != 0 {
		t.Errorf("after switching: notices %q offer %q", got.Notices, got.OfferSerial)
	}
}

// A live preview nobody watches is parked: the first GET /api/preview after
// the phone died already says so rather than "live".
func TestParkedLivePreviewReportsTheDeviceGone(t *testing.T) {
	e := newTestEnv(t)
	var doc device.PreviewDoc
	eventually.True(t, 10*time.Second, "a live preview", func() bool {
		e.mustJSON("GET", "/api/preview", nil, &doc)
		return doc.Status.State == device.StateLive
	})
	time.Sleep(5500 * time.Millisecond) // a poll counts as watching for 5 s; then the loop parks
	e.sim.Close()
	waitPayload(t, e.app, 10*time.Second, "the phone no longer online", func(device.List) bool {
		return !e.app.device.Registry.IsOnline(e.sim.Serial())
	})
	doc = device.PreviewDoc{}
	e.mustJSON("GET", "/api/preview", nil, &doc)
	if doc.Status.State != device.StateNoDevice {
		t.Errorf("first GET /api/preview after the phone died: %+v", doc.Status)
	}
}
