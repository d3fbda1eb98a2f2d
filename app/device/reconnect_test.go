package device

import "testing"

func TestIsNetworkSerial(t *testing.T) {
	for s, want := range map[string]bool{
		"192.168.1.23:5555":  true,
		"127.0.0.1:44621":    true,
		"[fe80::1%wlan0]:37": false, // zones are not in adb's serials
		"[2001:db8::5]:5555": true,
		"pixel.lan:40123":    true,
		"adb-28291FDH2003YQ-vWgJpq._adb-tls-connect._tcp":  true,
		"adb-28291FDH2003YQ-vWgJpq._adb-tls-connect._tcp.": true,
		"emulator-5554":       false,
		"28291FDH2003YQ":      false,
		"usb:1-1":             false,
		"host:5555; rm -rf /": false,
	} {
		if got := IsNetworkSerial(s); got != want {
			t.Errorf("IsNetworkSerial(%q) = %v, want %v", s, got, want)
		}
	}
}
