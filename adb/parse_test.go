package adb

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func readTestdata(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseDevicesLong(t *testing.T) {
	want := []Device{
		{Serial: "0A251FDD4003BW", State: StateDevice, DevPath: "usb:1-1", Product: "oriole", Model: "Pixel_6", DeviceName: "oriole", TransportID: 3, Connection: ConnUSB},
		{Serial: "emulator-5554", State: StateDevice, Product: "sdk_gphone64_x86_64", Model: "sdk_gphone64_x86_64", DeviceName: "emu64xa", TransportID: 1, Connection: ConnTCP},
		{Serial: "192.168.1.23:5555", State: StateOffline, TransportID: 7, Connection: ConnTCP, Hint: HintFor(StateOffline)},
		{Serial: "R58N91ABCDE", State: StateUnauthorized, DevPath: "usb:3-2", TransportID: 4, Connection: ConnUSB, Hint: HintFor(StateUnauthorized)},
		{Serial: "ZY2243XYZ", State: StateNoPermissions, DevPath: "usb:3-4", TransportID: 5, Connection: ConnUSB, Hint: HintFor(StateNoPermissions)},
		{Serial: "adb-2B131FDH2003NG-vWgJpq._adb-tls-connect._tcp", State: StateDevice, Product: "panther", Model: "Pixel_7", DeviceName: "panther", TransportID: 9, Connection: ConnTCP},
		{Serial: "HT4AJJT00123", State: StateRecovery, DevPath: "usb:1-4", Product: "omni_hammerhead", Model: "Nexus_5", DeviceName: "hammerhead", TransportID: 11, Connection: ConnUSB, Hint: HintFor(StateRecovery)},
	}
	for _, file := range []string{"devices_l.txt", "devices_l_crlf.txt"} {
		t.Run(file, func(t *testing.T) {
			got := parseDevices(readTestdata(t, file))
			if len(got) != len(want) {
				t.Fatalf("got %d devices, want %d: %+v", len(got), len(want), got)
			}
			for i := range want {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Errorf("device %d:\n got %+v\nwant %+v", i, got[i], want[i])
				}
			}
		})
	}
}

func TestParseDevicesCases(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Device
	}{
		{"empty", "", nil},
		{"blank lines", "\n\r\n  \n", nil},
		{"short form", readTestdata(t, "devices_short.txt"), []Device{
			{Serial: "0A251FDD4003BW", State: StateDevice, Connection: ConnUSB},
			{Serial: "127.0.0.1:40215", State: StateDevice, Connection: ConnTCP},
			{Serial: "R58N91ABCDE", State: StateUnauthorized, Connection: ConnUSB, Hint: HintFor(StateUnauthorized)},
		}},
		{"serial only is not a device", "0A251FDD4003BW\n", nil},
		{"old no permissions without help", "???????????? no permissions usb:1-2\n", []Device{
			{Serial: "????????????", State: StateNoPermissions, DevPath: "usb:1-2", Connection: ConnUSB, Hint: HintFor(StateNoPermissions)},
		}},
		{"unknown fields ignored", "abc device usb:1-1 foo bar:baz transport_id:x\n", []Device{
			{Serial: "abc", State: StateDevice, DevPath: "usb:1-1", Connection: ConnUSB},
		}},
		{"ipv6 tcp serial", "[::1]:40001 authorizing transport_id:2\n", []Device{
			{Serial: "[::1]:40001", State: StateAuthorizing, TransportID: 2, Connection: ConnTCP, Hint: HintFor(StateAuthorizing)},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseDevices(tt.in)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestConnectionOf(t *testing.T) {
	tests := map[string]string{
		"0A251FDD4003BW":                ConnUSB,
		"127.0.0.1:40215":               ConnTCP,
		"192.168.1.23:5555":             ConnTCP,
		"emulator-5554":                 ConnTCP,
		"adb-X-y._adb-tls-connect._tcp": ConnTCP,
		"weird:serial":                  ConnUSB,
	}
	for serial, want := range tests {
		if got := connectionOf(serial); got != want {
			t.Errorf("connectionOf(%q) = %q, want %q", serial, got, want)
		}
	}
}

func TestHintsCoverUnusableStates(t *testing.T) {
	for _, s := range []State{StateOffline, StateUnauthorized, StateNoPermissions, StateAuthorizing, StateConnecting, StateRecovery, StateBootloader, StateSideload, StateRescue} {
		if HintFor(s) == "" {
			t.Errorf("no hint for %q", s)
		}
	}
	if h := HintFor(StateDevice); h != "" {
		t.Errorf("online device has hint %q", h)
	}
}

func TestParseWMSize(t *testing.T) {
	tests := []struct {
		file string
		w, h int
	}{
		{"wm_size.txt", 1080, 2400},
		{"wm_size_override.txt", 1080, 2340},
		{"wm_size_override_crlf.txt", 1080, 2340},
	}
	for _, tt := range tests {
		w, h, err := parseWMSize(readTestdata(t, tt.file))
		if err != nil || w != tt.w || h != tt.h {
			t.Errorf("%s: got %dx%d, %v; want %dx%d", tt.file, w, h, err, tt.w, tt.h)
		}
	}
	for _, bad := range []string{"", "Physical size: wide\n", "Physical size: 0x10\n", "cmd: Can't find service: window\n"} {
		if _, _, err := parseWMSize(bad); err == nil {
			t.Errorf("parseWMSize(%q): no error", bad)
		}
	}
}

// ParseWMSizes keeps the physical size and the override apart, as the presets
// need both: the panel's limits and what to restore.
func TestParseWMSizes(t *testing.T) {
	for _, tt := range []struct {
		file               string
		physical, override Size
	}{
		{"wm_size.txt", Size{1080, 2400}, Size{}},
		{"wm_size_override.txt", Size{1440, 3120}, Size{1080, 2340}},
		{"wm_size_override_crlf.txt", Size{1440, 3120}, Size{1080, 2340}},
		{"wm_size_override_unity_pr192.txt", Size{1080, 2340}, Size{540, 1170}},
	} {
		p, o, err := ParseWMSizes(readTestdata(t, tt.file))
		if err != nil || p != tt.physical || o != tt.override {
			t.Errorf("%s: got %v, %v, %v; want %v, %v", tt.file, p, o, err, tt.physical, tt.override)
		}
	}
	for _, bad := range []string{"", "Physical size: 1080x2400\nOverride size: 0x5\n", "Physical size: 1080x\x002400\n", "Override size: " + strings.Repeat("9", 1<<20) + "x1\n"} {
		if _, _, err := ParseWMSizes(bad); err == nil || len(err.Error()) > 200 {
			t.Errorf("ParseWMSizes(%.40q): %v", bad, err)
		}
	}
}

func TestParseWMDensity(t *testing.T) {
	tests := []struct {
		file               string
		physical, override int
		renders            int
	}{
		{"wm_density.txt", 420, 0, 420},
		{"wm_density_override.txt", 560, 480, 480},
		{"wm_density_awesome_adb.txt", 420, 0, 420},            // real
		{"wm_density_override_awesome_adb.txt", 480, 160, 160}, // real
	}
	for _, tt := range tests {
		out := readTestdata(t, tt.file)
		p, o, err := ParseWMDensities(out)
		if err != nil || p != tt.physical || o != tt.override {
			t.Errorf("%s: physical %d, override %d, %v; want %d, %d", tt.file, p, o, err, tt.physical, tt.override)
		}
		if got, err := ParseWMDensity(out); err != nil || got != tt.renders {
			t.Errorf("%s: renders at %d, %v; want %d", tt.file, got, err, tt.renders)
		}
	}
	for _, bad := range []string{
		"Physical density: \n",
		"Physical density: x\n",
		"Physical density: -3\n",
		"Physical density: 420\nOverride density: big\n",
		"Override density: 360\n", // never printed without the physical line
		"cmd: Can't find service: window\n",
		"Physical density: " + strings.Repeat("9", 1<<20) + "\n",
	} {
		_, _, err := ParseWMDensities(bad)
		if err == nil {
			t.Errorf("ParseWMDensities(%.40q): no error", bad)
		} else if len(err.Error()) > 400 {
			t.Errorf("ParseWMDensities(%.40q): a %d-byte error", bad, len(err.Error()))
		}
	}
}

func TestParseGetprop(t *testing.T) {
	for _, file := range []string{"getprop.txt", "getprop_crlf.txt"} {
		t.Run(file, func(t *testing.T) {
			p := parseGetprop(readTestdata(t, file))
			want := map[string]string{
				"ro.build.version.release":       "14",
				"ro.build.version.sdk":           "34",
				"ro.product.model":               "Pixel 6",
				"ro.vendor.build.security_patch": "",
				"persist.vendor.motd":            "line one\nline two",
				"ro.build.fingerprint":           "google/oriole/oriole:14/UQ1A.240205.004/11269751:user/release-keys",
			}
			for k, v := range want {
				if got, ok := p[k]; !ok || got != v {
					t.Errorf("%s = %q (present %v), want %q", k, got, ok, v)
				}
			}
			if len(p) != 10 {
				t.Errorf("got %d props, want 10: %v", len(p), p)
			}
		})
	}
}

func TestParsePropValue(t *testing.T) {
	for in, want := range map[string]string{"14\n": "14", "14\r\n": "14", "\n": "", "": "", "7.1.2": "7.1.2"} {
		if got := parsePropValue(in); got != want {
			t.Errorf("parsePropValue(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseFeatures(t *testing.T) {
	f := parseFeatures(readTestdata(t, "features.txt"))
	if len(f) != 12 || !slices.Contains(f, "shell_v2") || !slices.Contains(f, "stat_v2") {
		t.Errorf("features = %q", f)
	}
	if f := parseFeatures(""); f != nil {
		t.Errorf("empty features = %q", f)
	}
}

func TestParseForwards(t *testing.T) {
	got := parseForwards(readTestdata(t, "list_forward.txt") + "garbage line\n")
	want := []Forward{
		{"0A251FDD4003BW", "tcp:27183", "localabstract:scrcpy_1a2b3c4d"},
		{"127.0.0.1:40215", "tcp:41234", "localabstract:fixthis_com.example.app"},
		{"0A251FDD4003BW", "tcp:8700", "jdwp:12345"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestDecodeShellV2(t *testing.T) {
	var out, errb bytes.Buffer
	code, err := decodeShellV2(bytes.NewReader([]byte(readTestdata(t, "shell_v2_ls_exit1.bin"))), &out, &errb)
	if err != nil || code != 1 {
		t.Fatalf("code %d, err %v", code, err)
	}
	if out.String() != "file1.txt\nfixthis\n" || errb.String() != "ls: /nonexistent: No such file or directory\n" {
		t.Errorf("stdout %q stderr %q", out.String(), errb.String())
	}

	_, err = decodeShellV2(bytes.NewReader([]byte(readTestdata(t, "shell_v2_truncated.bin"))), io.Discard, io.Discard)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("truncated packet: err %v, want unexpected EOF", err)
	}
	_, err = decodeShellV2(bytes.NewReader(nil), io.Discard, io.Discard)
	if !errors.Is(err, errNoExitStatus) {
		t.Errorf("empty stream: err %v, want errNoExitStatus", err)
	}
}

func TestExitMarker(t *testing.T) {
	tests := []struct {
		out    string
		stdout string
		code   int
		ok     bool
	}{
		{"hello\n" + exitMarker + "0\n", "hello\n", 0, true},
		{"hello\r\n" + exitMarker + "127\r\n", "hello\r\n", 127, true},
		{"no newline" + exitMarker + "1\n", "no newline", 1, true},
		{"echoed " + exitMarker + "5\n" + exitMarker + "0\n", "echoed " + exitMarker + "5\n", 0, true},
		{"cut short", "cut short", -1, false},
		{exitMarker + "x\n", exitMarker + "x\n", -1, false},
	}
	for _, tt := range tests {
		stdout, code, ok := splitExitMarker([]byte(tt.out))
		if string(stdout) != tt.stdout || code != tt.code || ok != tt.ok {
			t.Errorf("splitExitMarker(%q) = %q, %d, %v", tt.out, stdout, code, ok)
		}
	}
	if got := wrapExitMarker("exit 3"); got != "(exit 3\n); echo \""+exitMarker+"$?\"" {
		t.Errorf("wrapExitMarker = %q", got)
	}
}
