package evidence

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixthis/app/evidence/network"
)

// Asked for, bodies ride with their calls in the attachment and network.json,
// redacted by the same rules as every line: the secrets planted in them
// (a password and a token in JSON, a JWT, an AWS key id, an e-mail address)
// never reach either, while the rest of the text does. The stored log keeps
// replacing bodies whole, and without asking no body text is kept anywhere.
func TestNetworkBodiesOnRequest(t *testing.T) {
	extra := "12-01 09:41:23.000  4120  4185 D OkHttp  : --> POST https://api.demo.test/v1/signup\n" +
		"12-01 09:41:23.000  4120  4185 D OkHttp  : \n" +
		`12-01 09:41:23.000  4120  4185 D OkHttp  : {"mail":"ana.lopez@example.com","plan":"trail-pro",` + "\n" +
		`12-01 09:41:23.000  4120  4185 D OkHttp  :  "aws":"AKIAIOSFODNN7EXAMPLE","id_token":"eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2ln",` + "\n" +
		`12-01 09:41:23.000  4120  4185 D OkHttp  :  "passcode":"998877","pin":"4321","cvv":"737","card":"4111 1111 1111 1111","pan":"5500005555555559"}` + "\n" +
		"12-01 09:41:23.000  4120  4185 D OkHttp  : --> END POST (120-byte body)\n" +
		"12-01 09:41:23.200  4120  4185 D OkHttp  : <-- 201 Created https://api.demo.test/v1/signup (200ms)\n"
	sh := fakeShell{answers: map[string]fakeAnswer{
		"pidof ":   {out: "4120\n"},
		"logcat ":  {out: readTestdata(t, interleavedLog) + extra},
		"dumpsys ": {out: readTestdata(t, "meminfo_api34.txt")},
	}}
	planted := []string{"hunter2", "tok_5ecr3t", "ana.lopez@example.com", "AKIAIOSFODNN7EXAMPLE", "eyJhbGciOiJSUzI1NiJ9", "eyJhbGciOiJIUzI1NiJ9",
		"998877", "4321", "737", "4111 1111", "5500005555555559"}
	for _, bodies := range []bool{true, false} {
		st := testStore(t)
		a := Collect(context.Background(), sh, Request{Serial: "s", Package: "com.fixthis.demo", Store: st, SessionID: "s1", CaptureID: "c1", Bodies: bodies})
		n := a.Attachment(KindNetwork).Network
		var fav, signup string
		for _, r := range n.Requests {
			switch r.URL {
			case "https://api.demo.test/v1/favourites?[REDACTED]":
				fav = r.RequestBody + " | " + r.ResponseBody
			case "https://api.demo.test/v1/signup":
				signup = r.RequestBody
			}
		}
		stored, _ := os.ReadFile(filepath.Join(st.Root, "s1", "c1", "network.json"))
		logcat, _ := os.ReadFile(filepath.Join(st.Root, "s1", "c1", "logcat.txt"))
		all, _ := json.Marshal(a)
		if bodies {
			if fav != `{"itemId":812,"password":"[REDACTED]","note":"fav"} | {"error":"db locked","token":"[REDACTED]"}` {
				t.Errorf("favourites bodies %q", fav)
			}
			if !strings.Contains(signup, `"plan":"trail-pro"`) || !strings.Contains(string(stored), "db locked") {
				t.Errorf("signup body %q; stored:\n%s", signup, stored)
			}
			if !strings.Contains(strings.Join(n.Notes, "|"), "bodies kept as asked: at most 4096 bytes each") {
				t.Errorf("notes %q", n.Notes)
			}
		} else if fav != " | " || signup != "" || strings.Contains(string(stored)+string(all), "db locked") {
			t.Errorf("bodies kept without asking: %q %q", fav, signup)
		}
		if strings.Contains(string(logcat), "db locked") || strings.Contains(string(logcat), "trail-pro") {
			t.Errorf("bodies=%v: a body reached logcat.txt", bodies)
		}
		for _, s := range planted {
			if strings.Contains(string(all), s) || strings.Contains(string(stored), s) || strings.Contains(string(logcat), s) {
				t.Errorf("bodies=%v: %q reached the evidence", bodies, s)
			}
		}
	}
}

// The attachment carries at most maxAttachedBodies of body text; the rest of
// the bodies stay in the artifact, and a note says so.
func TestAttachedBodiesAreBounded(t *testing.T) {
	big := strings.Repeat("b", 3000)
	s := NetworkSummary{}
	for range 40 {
		s.Requests = append(s.Requests, networkRequestWithBodies(big, big))
	}
	keepBodiesWithin(&s, maxAttachedBodies)
	total, kept := 0, 0
	for _, r := range s.Requests {
		total += len(r.RequestBody) + len(r.ResponseBody)
		if r.RequestBody != "" {
			kept++
		}
	}
	if total > maxAttachedBodies || kept != 10 || len(s.Notes) != 2 || s.Notes[1] != "the bodies of 30 more calls are only in network.json" {
		t.Errorf("%d bytes in %d calls, notes %q", total, kept, s.Notes)
	}
}

func networkRequestWithBodies(req, resp string) network.Request {
	return network.Request{Method: "POST", URL: "https://a.test/x", Status: 200, RequestBody: req, ResponseBody: resp}
}

// Asked for, bodies the app never logged are not claimed kept: with calls but no
// body the note says why there are none; with no calls there is nothing to say.
func TestBodiesAskedButNoneLogged(t *testing.T) {
	s := NetworkSummary{Requests: []network.Request{networkRequestWithBodies("", "")}}
	keepBodiesWithin(&s, maxAttachedBodies)
	if len(s.Notes) != 1 || !strings.HasPrefix(s.Notes[0], "bodies were asked for, but the app logged none") {
		t.Errorf("notes %q", s.Notes)
	}
	empty := NetworkSummary{}
	keepBodiesWithin(&empty, maxAttachedBodies)
	if len(empty.Notes) != 0 {
		t.Errorf("no calls, notes %q", empty.Notes)
	}
}
