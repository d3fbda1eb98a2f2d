package cli

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"time"

	"fixthis/adb"
	"fixthis/app"
	"fixthis/app/agentdevice"
	"fixthis/app/device"
	"fixthis/app/display"
	"fixthis/app/errcode"
	"fixthis/app/store"
)

// sidecarPhone is the device the stdio sidecar drives when no app runs for the
// project. The adb server is reached lazily, on the first device tool call.
func sidecarPhone(st *store.Store, projectDir, serial string, log *slog.Logger) (*agentdevice.Phone, func(), error) {
	client, err := adb.NewClient(adb.Options{})
	if err != nil {
		return nil, nil, err
	}
	capturer := device.NewCapturer(client)
	displays, err := display.Open(st.Locations().DisplayOriginals())
	if err != nil {
		log.Warn("saved display settings", "err", err)
	}
	left := displays.Pending() // the running app restores these, not the sidecar
	phone := agentdevice.New(agentdevice.Options{
		ADB:        client,
		Capturer:   capturer,
		Store:      st,
		ProjectDir: projectDir,
		Pick: func(ctx context.Context, want string) (agentdevice.Target, error) {
			if want == "" {
				want = serial
			}
			return pickDevice(ctx, client, st, want)
		},
		Log:     log,
		Display: displays,
	})
	return phone, func() {
		// What this sidecar changed goes back when the agent disconnects.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		for _, serial := range displays.Pending() {
			if slices.Contains(left, serial) {
				continue
			}
			if _, err := displays.Restore(ctx, display.Target{Shell: client.Device(serial), Serial: serial}); err != nil {
				log.Warn("restore the display settings", "serial", serial, "err", err)
			}
		}
		capturer.Close(context.Background())
	}, nil
}

// pickDevice chooses the device for a call: the one named, else the only one online,
// else the one the console last selected. Several and no choice is an error that
// lists them.
func pickDevice(ctx context.Context, client *adb.Client, st *store.Store, want string) (agentdevice.Target, error) {
	if err := client.EnsureServer(ctx); err != nil {
		return agentdevice.Target{}, errcode.Wrap(errcode.ADBUnavailable, err, "%v", err)
	}
	list, err := client.Devices(ctx)
	if err != nil {
		return agentdevice.Target{}, errcode.Wrap(errcode.ADBUnavailable, err, "%v", err)
	}
	var online []adb.Device
	for _, d := range list {
		if d.Online() {
			online = append(online, d)
		}
	}
	byName := func(s string) (adb.Device, bool) {
		for _, d := range online {
			if d.Serial == s {
				return d, true
			}
		}
		return adb.Device{}, false
	}
	target := func(d adb.Device) agentdevice.Target { return agentdevice.Target{Serial: d.Serial, Model: d.Model} }
	if want != "" {
		if d, ok := byName(want); ok {
			return target(d), nil
		}
		return agentdevice.Target{}, errcode.New(errcode.DeviceNotFound, "no online device %s (online: %s)", errcode.Quote(want), serials(online))
	}
	switch len(online) {
	case 0:
		return agentdevice.Target{}, errcode.New(errcode.DeviceNotAvailable, "no device is online; connect a phone or start the FixThis app with its demo device")
	case 1:
		return target(online[0]), nil
	}
	if last, _ := st.GetSetting(ctx, app.LastSelectedSerialKey); last != "" {
		if d, ok := byName(last); ok {
			return target(d), nil
		}
	}
	return agentdevice.Target{}, errcode.New(errcode.DeviceNotAvailable,
		"%d devices are online (%s); name one with the serial argument or start the sidecar with --serial", len(online), serials(online))
}

func serials(list []adb.Device) string {
	if len(list) == 0 {
		return "none"
	}
	s := make([]string, len(list))
	for i, d := range list {
		s[i] = d.Serial
	}
	return strings.Join(s, ", ")
}
