// Package device is FixThis's device side: the live device list and FixThis's own
// selection (Registry), the built-in demo device, one way to capture a screen
// (Capturer, with the app's sidekick when it has one), the live preview loop and the
// frozen frames Annotate works on. The console API and the MCP tools use it; it knows
// nothing of HTTP.
package device

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"fixthis/adb"
	"fixthis/app/errcode"
	"fixthis/app/events"
)

// View is a device as the console sees it: the adb entry plus whether it is the
// built-in simulated demo device.
type View struct {
	adb.Device
	IsDemo bool `json:"isDemo"`
}

// Registry keeps the live device list from the adb server and FixThis's own device
// selection. Selection is FixThis state only: clearing it removes the forwards FixThis
// created and nothing else (never `adb disconnect` or `kill-server`).
type Registry struct {
	client *adb.Client
	bus    *events.Bus
	// Log records adb server losses and restarts (nil: slog.Default).
	Log *slog.Logger

	mu         sync.Mutex
	list       []View
	described  map[string]adb.Device // serial → Describe result for the current transport
	selected   string
	demoSerial string
	serverUp   bool
	serverErr  string
	// userCleared is set when the user pressed ×: auto-selection then waits for a
	// device that was not there before instead of re-selecting the same one.
	userCleared bool
	changed     chan struct{}

	// After an adb server outage (reconnect.go): the network devices last
	// listed, whether the server was lost since, and the reconnects under way.
	runCtx       context.Context
	network      map[string]bool
	lost         bool
	reconnects   map[string]*Reconnect
	reconnectGen int
}

// ErrNoDevice means a device was asked for while none is selected.
var ErrNoDevice = errcode.New(errcode.DeviceNotAvailable, "no device is selected; connect a phone or use the demo device")

// NewRegistry returns a registry that publishes devices-updated on bus.
func NewRegistry(client *adb.Client, bus *events.Bus) *Registry {
	return &Registry{client: client, bus: bus, described: map[string]adb.Device{}, changed: make(chan struct{})}
}

// Run follows the adb server's device list until ctx ends, reconnecting when the server
// goes away, and publishes devices-updated on every change.
func (d *Registry) Run(ctx context.Context) {
	d.mu.Lock()
	d.runCtx = ctx
	d.mu.Unlock()
	// Run returns only once its restarts have: a restart still starting the server
	// when FixThis quits would leave a server that nobody knows about come up later.
	var restarts sync.WaitGroup
	defer restarts.Wait()
	for {
		if err := d.client.EnsureServer(ctx); err != nil {
			d.setServerDown(err)
			if errors.Is(err, adb.ErrADBMissing) {
				return // nothing will fix this while we run; the error says what to install
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(2 * time.Second):
				continue
			}
		}
		_ = d.client.Watch(ctx, func(ev adb.WatchEvent) {
			if !ev.ServerUp {
				d.logger().Warn("adb server went away; starting it again", "err", ev.Err)
				d.setServerDown(ev.Err)
				// Someone killed the server (or it crashed): start it again, as Android
				// Studio does, and Watch reconnects on its own once it answers.
				restarts.Add(1)
				go func() { defer restarts.Done(); d.restartServer(ctx) }()
				return
			}
			d.setList(ctx, ev.Devices)
		})
		if ctx.Err() != nil {
			return
		}
	}
}

// restartServer waits a moment (a `adb kill-server; adb start-server` by hand should
// win) and starts the server if it is still down.
func (d *Registry) restartServer(ctx context.Context) {
	select {
	case <-ctx.Done():
		return
	case <-time.After(2 * time.Second):
	}
	d.mu.Lock()
	up := d.serverUp
	d.mu.Unlock()
	if up {
		return
	}
	if err := d.client.EnsureServer(ctx); err != nil && ctx.Err() == nil {
		d.logger().Error("adb server restart failed", "err", err)
		d.setServerDown(err)
		return
	}
	d.logger().Info("adb server restarted")
}

func (d *Registry) logger() *slog.Logger {
	if d.Log != nil {
		return d.Log
	}
	return slog.Default()
}

func (d *Registry) setServerDown(err error) {
	d.mu.Lock()
	d.serverUp = false
	d.lost = true
	if err != nil {
		d.serverErr = err.Error()
	}
	d.list = nil
	d.mu.Unlock()
	d.publish()
}

// setList merges a new adb list: online devices are described once per transport (the
// Android version and screen size do not change while connected).
func (d *Registry) setList(ctx context.Context, devs []adb.Device) {
	views := make([]View, 0, len(devs))
	for _, dev := range devs {
		if dev.Online() {
			d.mu.Lock()
			cached, ok := d.described[dev.Serial]
			d.mu.Unlock()
			if !ok || cached.TransportID != dev.TransportID {
				dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
				full, err := d.client.Describe(dctx, dev.Serial)
				cancel()
				if err == nil {
					full.TransportID = dev.TransportID
					cached = full
					d.mu.Lock()
					d.described[dev.Serial] = full
					d.mu.Unlock()
				} else {
					cached = dev
				}
			}
			dev.AndroidVersion, dev.SDK, dev.Screen = cached.AndroidVersion, cached.SDK, cached.Screen
			// devices-l spells the model with underscores ("Pixel_7a");
			// ro.product.model is what the phone calls itself.
			if cached.Model != "" {
				dev.Model = cached.Model
			}
		}
		views = append(views, View{Device: dev})
	}
	d.mu.Lock()
	for i := range views {
		views[i].IsDemo = views[i].Serial == d.demoSerial
	}
	prev := d.list
	d.list = views
	d.serverUp = true
	d.serverErr = ""
	if d.runCtx != nil {
		d.startReconnectLocked(d.runCtx, views)
	}
	d.rememberNetworkLocked(views)
	d.autoSelectLocked(prev)
	d.mu.Unlock()
	d.publish()
}

// autoSelectLocked keeps a valid selection: when nothing is selected (or the selected
// device vanished), pick the first online real device, else the demo device.
func (d *Registry) autoSelectLocked(prev []View) {
	if d.selected != "" && d.onlineLocked(d.selected) {
		return
	}
	if d.selected != "" && !d.presentLocked(d.selected) && !d.reconnectingLocked(d.selected) {
		d.selected = "" // unplugged: the selection follows reality
	}
	if d.selected != "" {
		// Listed but offline, or a network device being reconnected: keep it
		// selected so the console shows why, and offers another (List.Notices).
		return
	}
	var pick string
	for _, v := range d.list {
		if !v.Online() {
			continue
		}
		if d.userCleared && containsSerial(prev, v.Serial) {
			continue
		}
		if pick == "" || (!v.IsDemo && d.isDemoSerialLocked(pick)) {
			pick = v.Serial
		}
	}
	if pick != "" {
		d.selected = pick
		d.userCleared = false
	}
}

func containsSerial(list []View, serial string) bool {
	return slices.ContainsFunc(list, func(v View) bool { return v.Serial == serial })
}

func (d *Registry) isDemoSerialLocked(s string) bool { return s != "" && s == d.demoSerial }

func (d *Registry) presentLocked(serial string) bool { return containsSerial(d.list, serial) }

// IsOnline reports whether serial is listed and online.
func (d *Registry) IsOnline(serial string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.onlineLocked(serial)
}

func (d *Registry) onlineLocked(serial string) bool {
	for _, v := range d.list {
		if v.Serial == serial {
			return v.Online()
		}
	}
	return false
}

// List is the body of GET /api/devices and of devices-updated.
type List struct {
	Devices        []View `json:"devices"`
	SelectedSerial string `json:"selectedSerial"`
	ServerUp       bool   `json:"adbServerUp"`
	ServerError    string `json:"adbServerError,omitempty"`
	// Reconnects are the network devices being brought back after the adb
	// server restarted, and those that did not come back.
	Reconnects []Reconnect `json:"reconnects,omitempty"`
	// Notices are sentences for the console: reconnects, and a selected device
	// that is gone; OfferSerial is then an online device to switch to.
	Notices     []string `json:"notices,omitempty"`
	OfferSerial string   `json:"offerSerial,omitempty"`
}

// List returns the current list and selection.
func (d *Registry) List() List {
	d.mu.Lock()
	defer d.mu.Unlock()
	list := slices.Clone(d.list)
	if list == nil {
		list = []View{}
	}
	notices, offer := d.noticesLocked()
	return List{Devices: list, SelectedSerial: d.selected, ServerUp: d.serverUp, ServerError: d.serverErr,
		Reconnects: d.reconnectListLocked(), Notices: notices, OfferSerial: offer}
}

func (d *Registry) publish() {
	DevicesUpdatedEvent.Publish(d.bus, d.List())
	d.mu.Lock()
	close(d.changed)
	d.changed = make(chan struct{})
	d.mu.Unlock()
}

// Changes returns a channel closed at the next device-list or selection change.
func (d *Registry) Changes() <-chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.changed
}

// Selected returns the selected device when it is online.
func (d *Registry) Selected() (View, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, v := range d.list {
		if v.Serial == d.selected {
			if !v.Online() {
				return v, errcode.New(errcode.DeviceNotAvailable, "%s is %s. %s", v.Serial, v.State, v.Hint)
			}
			return v, nil
		}
	}
	return View{}, ErrNoDevice
}

// Lookup returns a listed, online device by serial (or the selection when serial is "").
func (d *Registry) Lookup(serial string) (View, error) {
	if serial == "" {
		return d.Selected()
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, v := range d.list {
		if v.Serial == serial {
			if !v.Online() {
				return v, errcode.New(errcode.DeviceNotAvailable, "%s is %s. %s", v.Serial, v.State, v.Hint)
			}
			return v, nil
		}
	}
	return View{}, errcode.New(errcode.DeviceNotFound, "no device %s is connected", errcode.Quote(serial))
}

// Select makes serial FixThis's device.
func (d *Registry) Select(serial string) (View, error) {
	d.mu.Lock()
	var found *View
	for i := range d.list {
		if d.list[i].Serial == serial {
			found = &d.list[i]
		}
	}
	if found == nil {
		d.mu.Unlock()
		return View{}, errcode.New(errcode.DeviceNotFound, "no device %s is connected; press Refresh devices", errcode.Quote(serial))
	}
	view := *found
	d.selected = serial
	d.userCleared = false
	d.mu.Unlock()
	d.publish()
	return view, nil
}

// Clear drops FixThis's selection and removes the forwards FixThis created for it.
func (d *Registry) Clear(ctx context.Context) error {
	d.mu.Lock()
	serial := d.selected
	d.selected = ""
	d.userCleared = true
	d.mu.Unlock()
	var err error
	if serial != "" {
		if ferr := d.client.RemoveOwnForwards(ctx, serial); ferr != nil {
			err = fmt.Errorf("remove FixThis forwards of %s: %w", serial, ferr)
		}
	}
	d.publish()
	return err
}

// Refresh re-reads the list from the server (the Refresh devices button).
func (d *Registry) Refresh(ctx context.Context) error {
	if err := d.client.EnsureServer(ctx); err != nil {
		d.setServerDown(err)
		return errcode.New(errcode.ADBUnavailable, "%v", err)
	}
	list, err := d.client.Devices(ctx)
	if err != nil {
		d.setServerDown(err)
		return errcode.New(errcode.ADBUnavailable, "%v", err)
	}
	d.setList(ctx, list)
	return nil
}

// setDemo marks serial as the built-in demo device.
func (d *Registry) setDemo(serial string) {
	d.mu.Lock()
	d.demoSerial = serial
	for i := range d.list {
		d.list[i].IsDemo = d.list[i].Serial == serial
	}
	d.mu.Unlock()
}

// Has reports whether serial is in the list, in any state.
func (l List) Has(serial string) bool { return containsSerial(l.Devices, serial) }
