package adb

import (
	"flag"
	"strings"
	"testing"

	"fixthis/internal/devicetest"
	"fixthis/internal/golden"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.json from the current parser output")

// What a person reads in each real `adb devices -l` output; the golden files hold
// every field.
func TestParseDevicesRealOutputs(t *testing.T) {
	tests := []struct {
		file   string
		serial []string
		model  []string
		conn   []string
	}{
		{"devices_l_cli_emulator.txt", []string{"emulator-5554"}, []string{"Android_SDK_built_for_x86"}, []string{ConnTCP}},
		{"devices_l_cli_lg_us996.txt", []string{"LGUS996e5ef677"}, []string{"LG_US996"}, []string{ConnUSB}},
		{"devices_l_cli_redmi_tcpip.txt", []string{"192.168.0.3:5555"}, []string{"Redmi_Note_4"}, []string{ConnTCP}},
		{"devices_l_cli_emulator_nexus7.txt", []string{"emulator-5556", "0a388e93"}, []string{"Android_SDK_built_for_x86_64", "Nexus_7"}, []string{ConnTCP, ConnUSB}},
		{"devices_l.txt", nil, nil, nil},
		{"devices_short.txt", nil, nil, nil},
	}
	for _, tt := range tests {
		text := devicetest.Read(t, tt.file)
		devs, skipped := parseDeviceRecords(text)
		for i, s := range tt.serial {
			if i >= len(devs) || devs[i].Serial != s || devs[i].Model != tt.model[i] || devs[i].Connection != tt.conn[i] || devs[i].State != StateDevice {
				t.Errorf("%s: device %d = %+v, want %s %s over %s", tt.file, i, devs, s, tt.model[i], tt.conn[i])
			}
		}
		if tt.serial != nil && len(devs) != len(tt.serial) {
			t.Errorf("%s: %d devices, want %d", tt.file, len(devs), len(tt.serial))
		}
		// The command line's header is skipped, never read as a device "List".
		for _, s := range skipped {
			if !strings.HasPrefix(s, "List of devices attached") {
				t.Errorf("%s: skipped %q", tt.file, s)
			}
		}
		golden.JSON(t, tt.file, devs, *update)
	}
}

// A Samsung Galaxy S4 (docomo SC-04E): one line ends in CR LF, the last in nothing.
func TestParseGetpropSamsung(t *testing.T) {
	p := parseGetprop(devicetest.Read(t, "getprop_samsung_sc04e.txt"))
	want := map[string]string{"ro.product.locale.region": "US", "ro.product.manufacturer": "samsung", "ro.product.model": "SC-04E", "ro.product.name": "SC-04E"}
	if len(p) != len(want) {
		t.Fatalf("%d properties: %q", len(p), p)
	}
	for k, v := range want {
		if p[k] != v {
			t.Errorf("%s = %q, want %q", k, p[k], v)
		}
	}
}

// A whole getprop of a OnePlus Nord N10 on Android 11: every one of its 1,122 lines
// is a property but the two that continue the boot reason history, which stay in
// that value.
func TestParseGetpropOnePlus(t *testing.T) {
	p := parseGetprop(devicetest.Read(t, "getprop_oneplus_n10.txt"))
	want := map[string]string{
		"ro.product.manufacturer":         "OnePlus",
		"ro.product.model":                "BE2028",
		"ro.build.version.release":        "11",
		"ro.build.version.sdk":            "30",
		"ro.serialno":                     "00000000",
		"gsm.operator.alpha":              "",
		"persist.sys.boot.reason.history": "reboot,ota,1691858645\nreboot,unattended,ota_update,1691858601\nreboot,ota,1691857091",
		"wifi.interface":                  "wlan0",
	}
	if len(p) != 1120 {
		t.Errorf("%d properties, want 1120", len(p))
	}
	for k, v := range want {
		if got, ok := p[k]; !ok || got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
}

// A phone with its size overridden to half: the override is the size apps get.
func TestParseWMSizeReal(t *testing.T) {
	w, h, err := parseWMSize(devicetest.Read(t, "wm_size_override_unity_pr192.txt"))
	if err != nil || w != 540 || h != 1170 {
		t.Errorf("wm size = %dx%d, %v; want 540x1170", w, h, err)
	}
}

func TestParseDevicesCLINoise(t *testing.T) {
	text := "* daemon not running; starting now at tcp:5037\n* daemon started successfully\n" +
		"List of devices attached\nadb server version (41) doesn't match this client (39); killing...\n" +
		"0123456789abcdef\tunauthorized usb:1-1\n"
	devs, skipped := parseDeviceRecords(text)
	if len(devs) != 1 || devs[0].State != StateUnauthorized || len(skipped) != 4 {
		t.Errorf("devices %+v, skipped %q", devs, skipped)
	}
}

func TestAdbParsersGolden(t *testing.T) {
	for _, f := range []string{"getprop.txt", "getprop_crlf.txt", "getprop_samsung_sc04e.txt", "getprop_oneplus_n10.txt"} {
		golden.JSON(t, f, parseGetprop(devicetest.Read(t, f)), *update)
	}
	type size struct{ W, H int }
	for _, f := range []string{"wm_size.txt", "wm_size_override.txt", "wm_size_override_crlf.txt", "wm_size_override_unity_pr192.txt"} {
		w, h, err := parseWMSize(devicetest.Read(t, f))
		if err != nil {
			t.Fatal(err)
		}
		golden.JSON(t, f, size{w, h}, *update)
	}
}

// Every parser survives what a broken device or a cut connection prints: no panic,
// and the parsers that can fail say so instead of inventing a value.
func TestAdbParsersBadInput(t *testing.T) {
	seeds := map[string]string{
		"devices": devicetest.Read(t, "devices_l.txt"),
		"getprop": devicetest.Read(t, "getprop.txt"),
		"size":    devicetest.Read(t, "wm_size.txt"),
		"density": devicetest.Read(t, "wm_density.txt"),
		"forward": devicetest.Read(t, "list_forward.txt"),
	}
	for kind, seed := range seeds {
		for name, in := range devicetest.BadInputs(seed) {
			devs := parseDevices(in)
			for _, d := range devs {
				if d.Serial == "" || d.State == "" {
					t.Errorf("%s/%s: device without serial or state: %+v", kind, name, d)
				}
			}
			_ = parseGetprop(in)
			_ = parseForwards(in)
			_ = parseFeatures(in)
			if w, h, err := parseWMSize(in); err == nil && (w <= 0 || h <= 0) {
				t.Errorf("%s/%s: size %dx%d without error", kind, name, w, h)
			} else if err != nil && len(err.Error()) > 400 {
				t.Errorf("%s/%s: error of %d bytes: the message must stay readable", kind, name, len(err.Error()))
			}
			if d, err := ParseWMDensity(in); err == nil && d <= 0 {
				t.Errorf("%s/%s: density %d without error", kind, name, d)
			} else if err != nil && len(err.Error()) > 400 {
				t.Errorf("%s/%s: error of %d bytes", kind, name, len(err.Error()))
			}
		}
	}
}

func FuzzParseDevices(f *testing.F) {
	devicetest.Seed(f, "devices_l.txt", "devices_short.txt", "devices_l_cli_emulator_nexus7.txt")
	f.Fuzz(func(t *testing.T, s string) {
		for _, d := range parseDevices(s) {
			if d.Serial == "" || d.State == "" || strings.ContainsAny(d.Serial, " \t\n") {
				t.Fatalf("bad device %+v", d)
			}
		}
	})
}

func FuzzParseGetprop(f *testing.F) {
	devicetest.Seed(f, "getprop.txt", "getprop_crlf.txt", "getprop_oneplus_n10.txt")
	f.Fuzz(func(t *testing.T, s string) {
		for k := range parseGetprop(s) {
			if strings.Contains(k, "\n") {
				t.Fatalf("key with a line end: %q", k)
			}
		}
	})
}

func FuzzParseWM(f *testing.F) {
	devicetest.Seed(f, "wm_size.txt", "wm_size_override.txt", "wm_density.txt", "wm_density_override.txt", "wm_size_override_unity_pr192.txt",
		"wm_density_awesome_adb.txt", "wm_density_override_awesome_adb.txt")
	f.Fuzz(func(t *testing.T, s string) {
		if w, h, err := parseWMSize(s); err == nil && (w <= 0 || h <= 0) {
			t.Fatalf("size %dx%d without error", w, h)
		}
		if p, o, err := ParseWMSizes(s); err == nil && (p.W < 0 || p.H < 0 || o.W < 0 || o.H < 0 || p == (Size{}) && o == (Size{})) {
			t.Fatalf("sizes %v, %v without error", p, o)
		}
		if d, err := ParseWMDensity(s); err == nil && d <= 0 {
			t.Fatalf("density %d without error", d)
		}
		if p, o, err := ParseWMDensities(s); err == nil && (p <= 0 || o < 0) {
			t.Fatalf("physical %d, override %d without error", p, o)
		} else if err != nil && len(err.Error()) > 400 {
			t.Fatalf("a %d-byte error", len(err.Error()))
		}
	})
}

func FuzzParseForwardsFeatures(f *testing.F) {
	devicetest.Seed(f, "list_forward.txt", "features.txt")
	f.Fuzz(func(t *testing.T, s string) {
		for _, fw := range parseForwards(s) {
			if fw.Serial == "" || fw.Local == "" || fw.Remote == "" {
				t.Fatalf("forward %+v", fw)
			}
		}
		for _, feat := range parseFeatures(s) {
			if feat == "" || strings.Contains(feat, ",") {
				t.Fatalf("feature %q", feat)
			}
		}
	})
}

// FuzzDecodeShellV2: whatever adbd sends on a shell v2 stream, the decoder ends with
// an exit code in 0-255 or an error, and never copies more than it was sent.
func FuzzDecodeShellV2(f *testing.F) {
	for _, name := range []string{"shell_v2_ls_exit1.bin", "shell_v2_truncated.bin"} {
		f.Add([]byte(devicetest.Read(f, name)))
	}
	f.Add([]byte{3, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		var out, errOut strings.Builder
		code, err := decodeShellV2(strings.NewReader(string(b)), &out, &errOut)
		if err == nil && (code < 0 || code > 255) {
			t.Fatalf("exit code %d", code)
		}
		if out.Len()+errOut.Len() > len(b) {
			t.Fatalf("%d bytes out of %d in", out.Len()+errOut.Len(), len(b))
		}
	})
}

// FuzzSplitExitMarker: a v1 shell's output, with or without the marker, splits into
// a prefix of itself and a code only when the marker ends it with a number.
func FuzzSplitExitMarker(f *testing.F) {
	f.Add([]byte("hello\r\nFIXTHIS_EXIT:0\r\n"))
	f.Add([]byte("FIXTHIS_EXIT:FIXTHIS_EXIT:127"))
	f.Add([]byte("no marker"))
	f.Fuzz(func(t *testing.T, b []byte) {
		stdout, code, ok := splitExitMarker(b)
		if !strings.HasPrefix(string(b), string(stdout)) {
			t.Fatalf("stdout %q is not a prefix of %q", stdout, b)
		}
		if !ok && code != -1 {
			t.Fatalf("code %d without a marker", code)
		}
	})
}
