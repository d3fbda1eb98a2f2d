package app

import (
	"strings"
	"testing"
	"time"

	"fixthis/app/evidence"
	"fixthis/app/evidence/network"
	"fixthis/app/evidence/webview"
	"fixthis/internal/chromiumtest"
)

// The demo app's WebView (a real headless Chromium behind the simulated phone's
// webview_devtools_remote_<pid> socket) fetches a 404 every 250 ms. A freeze starts
// watching it; Save to MCP's evidence carries its calls and ends the watch, also
// when the user went back to the live phone in between.
func TestSaveToMCPCarriesTheWebViewsCalls(t *testing.T) {
	e := newTestEnv(t)
	srv := chromiumtest.PageServer(t)
	if _, err := e.sim.ServeWebViewDevTools(chromiumtest.Start(t, srv.URL+"/")); err != nil {
		t.Fatal(err)
	}
	webCalls := func(sessionID string) []network.Request {
		t.Helper()
		out := e.saveToMCP(sessionID)
		if out.RuntimeEvidence.Attempt == nil {
			t.Fatalf("no evidence collected: %+v", out.RuntimeEvidence)
		}
		n := out.RuntimeEvidence.Attempt.Attachment(evidence.KindNetwork).Network
		if n == nil {
			return nil
		}
		var web []network.Request
		for _, r := range n.Requests {
			if r.Source == webview.SourceWebView {
				web = append(web, r)
			}
		}
		return web
	}

	sid := e.createSession("webview")
	e.saveDrafts(sid)           // the freeze starts the watch
	time.Sleep(2 * time.Second) // the page fetches every 250 ms
	web := webCalls(sid)
	missing := false
	for _, r := range web {
		missing = missing || r.Status == 404 && strings.HasSuffix(r.URL, "/api/missing")
	}
	if !missing {
		t.Fatalf("the WebView's 404 is not in the evidence: %+v", web)
	}

	// The usual flow: save on the frozen screen, go back to the live phone, then Save
	// to MCP. The watch outlives the resume and the handoff still carries the calls.
	sid2 := e.createSession("after resume")
	e.saveDrafts(sid2)
	e.mustJSON("POST", "/api/preview/resume", nil, nil)
	time.Sleep(time.Second)
	if web := webCalls(sid2); len(web) == 0 {
		t.Error("Save to MCP after a resume carries no WebView calls")
	}
}
