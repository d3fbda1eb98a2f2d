package mcp

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
)

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func TestHTTPHandlerGuards(t *testing.T) {
	s := openStore(t, t.TempDir())
	var own []string
	ts := httptest.NewServer(HTTPHandler(NewServer(Deps{Store: s}), "secret-token", func() []string { return own }))
	defer ts.Close()
	own = []string{ts.URL}

	cases := []struct {
		name    string
		headers map[string]string
		host    string
		status  int
	}{
		{"no token", nil, "", http.StatusUnauthorized},
		{"wrong token", map[string]string{"Authorization": "Bearer nope"}, "", http.StatusUnauthorized},
		{"console token", map[string]string{"Authorization": "Bearer secret-token", ConsoleTokenHeader: "x"}, "", http.StatusForbidden},
		{"foreign origin", map[string]string{"Authorization": "Bearer secret-token", "Origin": "https://evil.example"}, "", http.StatusForbidden},
		{"rebinding host", map[string]string{"Authorization": "Bearer secret-token"}, "evil.example:80", http.StatusForbidden},
		{"other loopback origin", map[string]string{"Authorization": "Bearer secret-token", "Origin": "http://localhost:3000"}, "", http.StatusForbidden},
		{"own origin", map[string]string{"Authorization": "Bearer secret-token", "Origin": ts.URL}, "", http.StatusOK},
		{"same origin as the Host", map[string]string{"Authorization": "Bearer secret-token", "Origin": "http://localhost:4000"}, "localhost:4000", http.StatusOK},
		{"plain", map[string]string{"Authorization": "Bearer secret-token"}, "", http.StatusOK},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(initBody))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for k, v := range tc.headers {
				req.Header.Set(k, v)
			}
			if tc.host != "" {
				req.Host = tc.host
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if tc.status == http.StatusUnauthorized && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Fatalf("WWW-Authenticate %q", resp.Header.Get("WWW-Authenticate"))
			}
		})
	}
}

func TestHTTPClientLoop(t *testing.T) {
	s, sess, items := seededStore(t, 1)
	ts := httptest.NewServer(HTTPHandler(NewServer(Deps{Store: s}), "tok", nil))
	defer ts.Close()
	c, err := client.NewStreamableHttpClient(ts.URL+"/mcp", transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer tok"}))
	if err != nil {
		t.Fatal(err)
	}
	initClient(t, c)
	var claimed itemResultOut
	call(t, c, "fixthis_claim_feedback", map[string]any{"sessionId": sess.SessionID, "itemId": items[0].ItemID}, &claimed)
	if claimed.Item.Phase != "in_progress" {
		t.Fatalf("claim over HTTP: %+v", claimed)
	}
}
