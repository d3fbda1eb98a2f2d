package app

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"fixthis/app/device"
	"fixthis/app/httpapi"
)

// deviceIn finds serial in a devices payload.
func deviceIn(p device.List, serial string) (device.View, bool) {
	i := slices.IndexFunc(p.Devices, func(d device.View) bool { return d.Serial == serial })
	if i < 0 {
		return device.View{}, false
	}
	return p.Devices[i], true
}

// The device list follows the real adb server: the simulated phone is listed and
// described, a second one shows up live, a dead one stops being online, and the chip's
// × clears FixThis's selection without touching the adb server's devices.
func TestDevicesFollowTheADBServer(t *testing.T) {
	env := newTestEnv(t)
	first := env.sim.Serial()

	var list device.List
	env.mustJSON("GET", "/api/devices", nil, &list)
	d, ok := deviceIn(list, first)
	if !ok {
		t.Fatalf("GET /api/devices does not list %s: %+v", first, list)
	}
	p := env.sim.Profile()
	// The model is ro.product.model, not `devices -l`'s underscored form.
	if d.Model != p.Model || d.AndroidVersion != p.Release || d.SDK != p.SDK || d.Screen == nil ||
		d.Screen.Width != p.Width || d.Screen.Height != p.Height || d.Screen.Density != p.Density {
		t.Errorf("device %+v (screen %+v), want model %q Android %s sdk %d %dx%d@%d",
			d, d.Screen, p.Model, p.Release, p.SDK, p.Width, p.Height, p.Density)
	}
	if d.Connection != "tcp" || d.IsDemo || !list.ServerUp {
		t.Errorf("device connection %q isDemo %v, server up %v", d.Connection, d.IsDemo, list.ServerUp)
	}
	if list.SelectedSerial != first {
		t.Errorf("selectedSerial %q, want the only device %s auto-selected", list.SelectedSerial, first)
	}

	events := env.subscribe()

	// A second phone appears on the stream within 2 s of the adb server listing it
	// (ConnectSim returns once `adb devices` shows it online).
	connectStart := time.Now()
	second := env.adbServer.ConnectSim(t, quietSim)
	listed := time.Now()
	ev := events.next(2*time.Second, "devices-updated", func(ev sseEvent) bool {
		d, ok := deviceIn(decodeEvent[device.List](t, ev), second.Serial())
		return ok && d.Online()
	})
	t.Logf("second device on devices-updated %v after `adb connect` started (adb listed it after %v)",
		ev.At.Sub(connectStart).Round(time.Millisecond), listed.Sub(connectStart).Round(time.Millisecond))
	if got := decodeEvent[device.List](t, ev).SelectedSerial; got != first {
		t.Errorf("a new device stole the selection: %q, want %s", got, first)
	}

	// Select it, then kill it: within 2 s it is gone or no longer online.
	var sel struct {
		SelectedSerial string      `json:"selectedSerial"`
		Device         device.View `json:"device"`
	}
	env.mustJSON("POST", "/api/device/select", map[string]string{"serial": second.Serial()}, &sel)
	if sel.SelectedSerial != second.Serial() || sel.Device.Serial != second.Serial() {
		t.Fatalf("select answered %+v", sel)
	}
	events.next(2*time.Second, "devices-updated", func(ev sseEvent) bool {
		return decodeEvent[device.List](t, ev).SelectedSerial == second.Serial()
	})
	second.Close()
	killed := time.Now()
	ev = events.next(2*time.Second, "devices-updated", func(ev sseEvent) bool {
		d, ok := deviceIn(decodeEvent[device.List](t, ev), second.Serial())
		return !ok || !d.Online()
	})
	t.Logf("killed device left the online list %v after it died", ev.At.Sub(killed).Round(time.Millisecond))
	if _, err := env.app.device.Registry.Lookup(second.Serial()); err == nil {
		t.Errorf("Lookup(%s) succeeds for a dead device", second.Serial())
	}

	// Selecting an unknown serial is a 404 with the contract prefix.
	r := env.do("POST", "/api/device/select", map[string]string{"serial": "nope:1"}, nil)
	var apiErr httpapi.ErrorBody
	r.decode(t, &apiErr)
	if r.Status != http.StatusNotFound || apiErr.Error != "device_not_found" {
		t.Errorf("select unknown serial: %d %+v", r.Status, apiErr)
	}

	// × clears FixThis's selection only: the adb server still has the device.
	env.mustJSON("POST", "/api/device/select", map[string]string{"serial": first}, nil)
	var cleared map[string]string
	env.mustJSON("POST", "/api/device/disconnect", nil, &cleared)
	if s, ok := cleared["selectedSerial"]; !ok || s != "" {
		t.Errorf("disconnect answered %v, want selectedSerial \"\"", cleared)
	}
	events.next(2*time.Second, "devices-updated", func(ev sseEvent) bool {
		return decodeEvent[device.List](t, ev).SelectedSerial == ""
	})
	if st := env.adbServer.State(t, first); st != "device" {
		t.Errorf("after ×, adb lists %s as %q; FixThis must never disconnect it", first, st)
	}
	// A refresh does not silently re-select the device the user just cleared.
	env.mustJSON("POST", "/api/devices/refresh", nil, &list)
	if d, ok := deviceIn(list, first); !ok || !d.Online() || list.SelectedSerial != "" {
		t.Errorf("after × and refresh: device %+v listed %v, selected %q; want listed online, nothing selected", d, ok, list.SelectedSerial)
	}
	// Without a selection, device routes say so instead of guessing.
	r = env.do("POST", "/api/preview/tap", map[string]int{"x": 10, "y": 10}, nil)
	r.decode(t, &apiErr)
	if r.Status != http.StatusConflict || apiErr.Error != "device_not_available" {
		t.Errorf("tap without a selection: %d %+v", r.Status, apiErr)
	}
	env.mustJSON("POST", "/api/device/select", map[string]string{"serial": first}, &sel)
	if sel.SelectedSerial != first {
		t.Errorf("re-select answered %+v", sel)
	}
}
