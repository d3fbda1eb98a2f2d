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
	"fixthis/adb/sim"
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

func TestDemoSidekick(t *testing.T) {
	srv := adbtest.StartServer(t)
	dev := srv.ConnectSim(t, sim.Options{Scenario: "demo"})
	s := dev.Serial()
	pkg := dev.Profile().App.Package
	var session struct{ Protocol, Socket, Token string }
	raw := srv.MustADB(t, "-s", s, "shell", "run-as", pkg, "cat", "files/fixthis/session.json")
	if err := json.Unmarshal([]byte(raw), &session); err != nil {
		t.Fatalf("session.json %q: %v", raw, err)
	}
	if session.Protocol != "1.3" || session.Socket != "fixthis_"+pkg || session.Token == "" {
		t.Fatalf("session.json = %+v", session)
	}
	if r := srv.ADB(t, "-s", s, "shell", "cat", "/data/data/"+pkg+"/files/fixthis/session.json"); r.ExitCode == 0 {
		t.Errorf("app-private file readable without run-as")
	}
	port := strings.TrimSpace(srv.MustADB(t, "-s", s, "forward", "tcp:0", "localabstract:"+session.Socket))
	c, err := net.DialTimeout("tcp", "127.0.0.1:"+port, 5*time.Second)
	if err != nil {
		t.Fatalf("dial sidekick forward: %v", err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	r := bufio.NewReader(c)

	hello := sidekickCall(t, c, r, map[string]any{"id": 1, "token": session.Token, "method": "hello"})
	if res, _ := hello["result"].(map[string]any); res["protocol"] != "1.3" || res["package"] != pkg {
		t.Fatalf("hello = %v", hello)
	}
	screen := sidekickCall(t, c, r, map[string]any{"id": 2, "token": session.Token, "method": "inspectCurrentScreen"})
	res, _ := screen["result"].(map[string]any)
	nodes, _ := res["nodes"].([]any)
	if res["width"] != float64(1080) || res["activity"] == "" || len(nodes) == 0 {
		t.Fatalf("inspectCurrentScreen = %v", screen)
	}
	node, _ := nodes[0].(map[string]any)
	for _, key := range []string{"uid", "bounds", "class", "compose", "role"} {
		if _, ok := node[key]; !ok {
			t.Errorf("node lacks %q: %v", key, node)
		}
	}
	bad := sidekickCall(t, c, r, map[string]any{"id": 3, "token": "wrong", "method": "hello"})
	if e, _ := bad["error"].(map[string]any); e["code"] != "unauthorized" || bad["id"] != float64(3) {
		t.Fatalf("wrong token = %v", bad)
	}
}
