// The demo scenario through a real adb server, and its sidekick bridge answering
// as the upstream library does.
package sim_test

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"image/png"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"fixthis/adb/adbtest"
	"fixthis/internal/sidekick"
	"fixthis/internal/sidekick/sidekicktest"
	"fixthis/sim"
)

func TestDemoScenarioThroughADB(t *testing.T) {
	srv := adbtest.StartServer(t)
	dev := srv.ConnectSim(t, sim.Options{Scenario: "demo"})
	s := dev.Serial()
	model := strings.TrimSpace(srv.MustADB(t, "-s", s, "shell", "getprop", "ro.product.model"))
	if model != dev.Model() || model == "" {
		t.Fatalf("getprop ro.product.model = %q, want %q", model, dev.Model())
	}
	p := dev.Profile()
	img, err := png.Decode(strings.NewReader(srv.MustADB(t, "-s", s, "exec-out", "screencap", "-p")))
	if err != nil {
		t.Fatalf("screencap -p: %v", err)
	}
	if b := img.Bounds(); b.Dx() != p.Width || b.Dy() != p.Height {
		t.Fatalf("screencap -p is %v, want %dx%d", b, p.Width, p.Height)
	}
	checks := []struct {
		cmd  string
		want string
	}{
		{"wm size", "Physical size: 1080x2400\n"},
		{"dumpsys window | grep mCurrentFocus", "mCurrentFocus=Window{"},
		{"dumpsys activity activities | grep topResumedActivity", "topResumedActivity=ActivityRecord{"},
		{"dumpsys power | grep -E 'mWakefulness=|Display Power'", "mWakefulness=Awake\nDisplay Power: state=ON\n"},
		{"pm path " + p.App.Package, "package:/data/app/"},
		{"pidof " + p.App.Package, ""},
		{"uiautomator dump /dev/tty", "UI hierchary dumped to: /dev/tty\n"},
		{"logcat -d | grep -c ActivityManager", ""},
	}
	for _, c := range checks {
		out := srv.MustADB(t, "-s", s, "shell", c.cmd)
		if !strings.Contains(out, c.want) || out == "" {
			t.Errorf("shell %q = %q, want it to contain %q", c.cmd, out, c.want)
		}
	}
	srv.MustADB(t, "-s", s, "shell", "input", "keyevent", "POWER")
	if out := srv.MustADB(t, "-s", s, "shell", "dumpsys", "power"); !strings.Contains(out, "mWakefulness=Asleep") {
		t.Errorf("after POWER, dumpsys power = %q", out)
	}
}

// sidekickCall sends one length-prefixed JSON request and decodes the reply.
func sidekickCall(t *testing.T, c net.Conn, r *bufio.Reader, req map[string]any) map[string]any {
	t.Helper()
	body, _ := json.Marshal(req)
	frame := binary.BigEndian.AppendUint32(nil, uint32(len(body)))
	if _, err := c.Write(append(frame, body...)); err != nil {
		t.Fatalf("write sidekick request: %v", err)
	}
	var h [4]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		t.Fatalf("read sidekick reply header: %v", err)
	}
	buf := make([]byte, binary.BigEndian.Uint32(h[:]))
	if _, err := io.ReadFull(r, buf); err != nil {
		t.Fatalf("read sidekick reply: %v", err)
	}
	var resp map[string]any
	if err := json.Unmarshal(buf, &resp); err != nil {
		t.Fatalf("sidekick reply %q: %v", buf, err)
	}
	return resp
}

// TestDemoSidekick speaks to the demo app's sidekick with the golden requests of
// internal/sidekick/testdata (written from the upstream Kotlin models) and checks its
// answers against the golden responses: equal where the answer is fixed, the same
// shape where it depends on the screen.
func TestDemoSidekick(t *testing.T) {
	srv := adbtest.StartServer(t)
	dev := srv.ConnectSim(t, sim.Options{Scenario: "demo"})
	s := dev.Serial()
	pkg := dev.Profile().App.Package
	raw := srv.MustADB(t, "-s", s, "shell", "run-as", pkg, "cat", "files/fixthis/session.json")
	if err := sidekicktest.SameShape(sidekicktest.Message(t, "session.json"), []byte(raw)); err != nil {
		t.Errorf("session.json: %v", err)
	}
	session, err := sidekick.ParseSession([]byte(raw), pkg)
	if err != nil {
		t.Fatalf("session.json %q: %v", raw, err)
	}
	if r := srv.ADB(t, "-s", s, "shell", "cat", "/data/data/"+pkg+"/files/fixthis/session.json"); r.ExitCode == 0 {
		t.Errorf("app-private file readable without run-as")
	}
	port := strings.TrimSpace(srv.MustADB(t, "-s", s, "forward", "tcp:0", "localabstract:"+session.SocketName))
	c, err := net.DialTimeout("tcp", "127.0.0.1:"+port, 5*time.Second)
	if err != nil {
		t.Fatalf("dial sidekick forward: %v", err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	r := bufio.NewReader(c)
	goldenToken := "q3Vv0mJx8y1Zr2Kc5Tn9Wb4Hs7Pd6Lf0Ae3Gu1Io8Qk="
	for _, tt := range []struct {
		name  string
		exact bool
	}{
		{"heartbeat", true}, {"bad_request", true}, {"unauthorized", true}, {"unknown_method", true},
		{"inspect", false}, {"status", false},
	} {
		req := strings.ReplaceAll(string(sidekicktest.Message(t, tt.name+".request.json")), goldenToken, session.Token)
		var body map[string]any
		if err := json.Unmarshal([]byte(req), &body); err != nil {
			t.Fatal(err)
		}
		resp, _ := json.Marshal(sidekickCall(t, c, r, body))
		want := sidekicktest.Message(t, tt.name+".response.json")
		check := sidekicktest.SameShape
		if tt.exact {
			check = sidekicktest.Equal
		}
		if err := check(want, resp); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
	if !dev.SidekickConnected() {
		t.Errorf("the app does not show the host connected after a heartbeat")
	}
}
