package adb

import (
	"log/slog"
	"net"
	"strconv"
	"strings"
	"unicode"
)

// parseDevices parses the payload of `host:devices-l` (and of each update of
// `host:track-devices-l`). It also accepts the short `host:devices` form
// ("SERIAL\tSTATE"). Lines end in \n, or \r\n when the text went through a
// Windows tool; unknown fields are ignored so newer servers still parse.
//
// A long line is "%-22s %s" (serial, state) followed by space-separated
// fields: the device path without a key ("usb:1-1"), product:, model:,
// device:, transport_id:. The "no permissions" state contains spaces:
// `no permissions (HELP); see [URL]`.
func parseDevices(text string) []Device {
	devs, skipped := parseDeviceRecords(text)
	if len(skipped) > 0 {
		slog.Debug("adb devices: lines that are not device records", "lines", len(skipped))
	}
	return devs
}

// parseDeviceRecords is parseDevices that also returns the non-blank lines that
// are not device records. Each device is one record, a line of its own; what the
// adb command line adds around them ("List of devices attached", "* daemon
// started successfully", a server version notice) is not a device, and a pasted
// CLI output parses the same as the server's payload.
func parseDeviceRecords(text string) (devs []Device, skipped []string) {
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\r\n \t")
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			continue
		}
		if cliNoise(trimmed) {
			skipped = append(skipped, trimmed)
			continue
		}
		if d, ok := parseDeviceLine(line); ok {
			devs = append(devs, d)
		} else {
			skipped = append(skipped, trimmed)
		}
	}
	return devs, skipped
}

// cliNoise tells the adb command line's own lines from device records.
func cliNoise(line string) bool {
	return strings.HasPrefix(line, "List of devices attached") || strings.HasPrefix(line, "* ") ||
		strings.HasPrefix(line, "adb server version") || strings.HasPrefix(line, "adb: ")
}

func parseDeviceLine(line string) (Device, bool) {
	line = strings.TrimLeftFunc(line, unicode.IsSpace)
	end := strings.IndexFunc(line, unicode.IsSpace)
	if end <= 0 {
		return Device{}, false // a serial without a state is not a device line
	}
	d := Device{Serial: line[:end]}
	rest := strings.TrimLeftFunc(line[end:], unicode.IsSpace)

	const noPerm = string(StateNoPermissions)
	if strings.HasPrefix(rest, noPerm) {
		d.State = StateNoPermissions
		rest = rest[len(noPerm):]
		// Skip "(help text); see [url]" which may contain spaces and colons.
		if i := strings.LastIndexByte(rest, ']'); i >= 0 && strings.Contains(rest[:i], "[") {
			rest = rest[i+1:]
		} else if strings.HasPrefix(strings.TrimLeft(rest, " "), "(") {
			if i := strings.IndexByte(rest, ')'); i >= 0 {
				rest = rest[i+1:]
			}
		}
	} else {
		f := strings.Fields(rest)
		if len(f) == 0 {
			return Device{}, false
		}
		d.State = State(f[0])
		rest = strings.TrimPrefix(rest, f[0])
	}

	for _, field := range strings.Fields(rest) {
		key, val, ok := strings.Cut(field, ":")
		if !ok {
			continue
		}
		switch key {
		case "product":
			d.Product = val
		case "model":
			d.Model = val
		case "device":
			d.DeviceName = val
		case "transport_id":
			if id, err := strconv.ParseInt(val, 10, 64); err == nil {
				d.TransportID = id
			}
		case "usb":
			d.DevPath = field
		}
	}
	d.Connection = connectionOf(d.Serial)
	d.Hint = HintFor(d.State)
	return d, true
}

// connectionOf tells a network device from a USB one by its serial: network
// devices are "host:port", mDNS services ("adb-XYZ._adb-tls-connect._tcp"),
// or emulators ("emulator-5554", reached over a local TCP console).
func connectionOf(serial string) string {
	if strings.HasPrefix(serial, "emulator-") || strings.Contains(serial, "._tcp") {
		return ConnTCP
	}
	if host, port, err := net.SplitHostPort(serial); err == nil && host != "" {
		if _, err := strconv.ParseUint(port, 10, 16); err == nil {
			return ConnTCP
		}
	}
	return ConnUSB
}
