package device

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"time"
)

// Network devices after an adb server restart. A server that dies forgets the
// devices it reached over the network (`adb connect host:port`, wireless
// debugging, emulators on TCP); USB devices and local emulators it finds again
// by itself. So the registry remembers the network devices it listed, and once
// a server answers again after an outage it connects each one that is missing,
// with bounded backoff, publishing each step on devices-updated.

// Reconnect is how bringing one network device back is going.
type Reconnect struct {
	Serial string `json:"serial"`
	// State is reconnecting (attempts left), failed (gave up) or reconnected
	// (the server accepted it; it is listed again shortly).
	State    string `json:"state"`
	Attempts int    `json:"attempts"`
	MaxTries int    `json:"maxAttempts"`
	// Error is the last attempt's answer, bounded.
	Error string `json:"error,omitempty"`
}

// The reconnect states.
const (
	ReconnectPending = "reconnecting"
	ReconnectDone    = "reconnected"
	ReconnectFailed  = "failed"
)

// reconnectBackoff is the wait before each attempt: about half a minute in all.
var reconnectBackoff = []time.Duration{0, 500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second}

var (
	// host:port, with a bracketed IPv6 host allowed.
	hostPortSerial = regexp.MustCompile(`^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9.-]*):\d{1,5}$`)
	// Wireless debugging's mDNS service names.
	mdnsSerial = regexp.MustCompile(`^adb-[A-Za-z0-9_-]+(?:-[A-Za-z0-9]+)?\._adb-tls-connect\._tcp\.?$`)
)

// IsNetworkSerial reports whether the adb server reaches serial over the
// network, so it forgets it when it restarts.
func IsNetworkSerial(serial string) bool {
	return hostPortSerial.MatchString(serial) || mdnsSerial.MatchString(serial)
}

// rememberNetworkLocked records the network devices of a list the server gave
// while it was up, keeping those a reconnect is still working on. The demo
// device re-registers itself and is left out.
func (d *Registry) rememberNetworkLocked(views []View) {
	keep := map[string]bool{}
	for _, v := range views {
		if IsNetworkSerial(v.Serial) && v.Serial != d.demoSerial {
			keep[v.Serial] = true
		}
	}
	for s, r := range d.reconnects {
		if r.State == ReconnectPending {
			keep[s] = true
		}
	}
	d.network = keep
}

// startReconnectLocked starts bringing back the remembered network devices the
// first list after an outage lacks. It runs once per outage.
func (d *Registry) startReconnectLocked(ctx context.Context, views []View) {
	if !d.lost {
		return
	}
	d.lost = false
	d.reconnectGen++
	d.reconnects = map[string]*Reconnect{}
	var missing []string
	for s := range d.network {
		if !containsSerial(views, s) {
			missing = append(missing, s)
			d.reconnects[s] = &Reconnect{Serial: s, State: ReconnectPending, MaxTries: len(reconnectBackoff)}
		}
	}
	slices.Sort(missing)
	for _, s := range missing {
		d.logger().Info("reconnecting a network device after the adb server restarted", "serial", s)
		go d.reconnect(ctx, s, d.reconnectGen)
	}
}

// reconnect runs `adb connect serial` until the server accepts it or the
// attempts run out. A later outage starts a new generation, which ends this one.
func (d *Registry) reconnect(ctx context.Context, serial string, gen int) {
	for i, wait := range reconnectBackoff {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		d.mu.Lock()
		stale := d.reconnectGen != gen
		d.mu.Unlock()
		if stale {
			return
		}
		if d.listedOnline(serial) {
			d.finishReconnect(gen, serial, ReconnectDone, i, "")
			return
		}
		cctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		err := d.client.Connect(cctx, serial)
		cancel()
		if ctx.Err() != nil {
			return
		}
		if err == nil {
			d.logger().Info("network device reconnected", "serial", serial, "attempt", i+1)
			d.finishReconnect(gen, serial, ReconnectDone, i+1, "")
			return
		}
		msg := boundMessage(err.Error())
		if i == len(reconnectBackoff)-1 {
			d.logger().Warn("network device did not come back", "serial", serial, "attempts", i+1, "err", err)
			d.finishReconnect(gen, serial, ReconnectFailed, i+1, msg)
			return
		}
		d.mu.Lock()
		if r := d.reconnects[serial]; r != nil && d.reconnectGen == gen {
			r.Attempts, r.Error = i+1, msg
		}
		d.mu.Unlock()
		d.publish()
	}
}

func (d *Registry) listedOnline(serial string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.onlineLocked(serial)
}

// finishReconnect records the outcome; a device that did not come back no
// longer holds the selection.
func (d *Registry) finishReconnect(gen int, serial, state string, attempts int, msg string) {
	d.mu.Lock()
	if d.reconnectGen != gen {
		d.mu.Unlock()
		return
	}
	if r := d.reconnects[serial]; r != nil {
		r.State, r.Attempts, r.Error = state, attempts, msg
	}
	if state == ReconnectFailed {
		delete(d.network, serial)
		if d.selected == serial && !d.presentLocked(serial) {
			d.selected = ""
			d.autoSelectLocked(d.list)
		}
	}
	d.mu.Unlock()
	d.publish()
}

// reconnectingLocked reports whether serial is being brought back.
func (d *Registry) reconnectingLocked(serial string) bool {
	r := d.reconnects[serial]
	return r != nil && r.State == ReconnectPending
}

// reconnectListLocked is the reconnect states for List, leaving out devices
// that are listed online again.
func (d *Registry) reconnectListLocked() []Reconnect {
	var out []Reconnect
	for _, r := range d.reconnects {
		if r.State != ReconnectFailed && d.onlineLocked(r.Serial) {
			continue
		}
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b Reconnect) int { return compareStrings(a.Serial, b.Serial) })
	return out
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// noticesLocked is what the console says about the device side, one sentence
// each: network devices being reconnected or given up on, and a selected
// device that is gone while another is online (offered by serial).
func (d *Registry) noticesLocked() (notices []string, offer string) {
	for _, r := range d.reconnectListLocked() {
		switch r.State {
		case ReconnectPending:
			notices = append(notices, fmt.Sprintf("The adb server restarted; reconnecting %s (attempt %d of %d).", r.Serial, r.Attempts+1, r.MaxTries))
		case ReconnectDone:
			notices = append(notices, fmt.Sprintf("The adb server restarted; %s is reconnected.", r.Serial))
		case ReconnectFailed:
			notices = append(notices, fmt.Sprintf("The adb server restarted and %s did not come back after %d attempts (%s). Run `adb connect %s` or reconnect it on the phone.", r.Serial, r.Attempts, r.Error, r.Serial))
		}
	}
	if d.selected == "" || !d.serverUp || d.onlineLocked(d.selected) {
		return notices, "" // with the server down, its own message says it all
	}
	state := "not connected"
	for _, v := range d.list {
		if v.Serial == d.selected {
			state = string(v.State)
		}
	}
	if state == "unauthorized" {
		return notices, "" // waiting for the user on the phone, not gone
	}
	reconnecting := d.reconnectingLocked(d.selected)
	if reconnecting {
		state = "reconnecting"
	}
	for _, v := range d.list {
		if v.Online() && (offer == "" || !v.IsDemo && d.isDemoSerialLocked(offer)) {
			offer = v.Serial
		}
	}
	what := d.selected
	if c, ok := d.described[d.selected]; ok && c.Model != "" {
		what = c.Model + " (" + d.selected + ")"
	}
	if offer == "" {
		if reconnecting {
			return notices, "" // the reconnect line says it
		}
		return append(notices, fmt.Sprintf("%s is gone (%s).", what, state)), ""
	}
	other := offer
	for _, v := range d.list {
		if v.Serial == offer && v.Model != "" {
			other = v.Model + " (" + offer + ")"
		}
	}
	return append(notices, fmt.Sprintf("%s is gone (%s); %s is online.", what, state, other)), offer
}

// boundMessage keeps an error short enough for a console line.
func boundMessage(s string) string {
	const max = 160
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
