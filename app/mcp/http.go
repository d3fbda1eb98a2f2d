package mcp

import (
	"bytes"
	"crypto/subtle"
	"fixthis/internal/loopback"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// ConsoleTokenHeader is the console API's token header; a request carrying it
// on /mcp is refused, so a leaked console token never drives the agent side.
const ConsoleTokenHeader = "X-FixThis-Console-Token"

// maxRequestBody bounds one JSON-RPC request; tool inputs are small.
const maxRequestBody = 1 << 20

// HTTPHandler serves srv over Streamable HTTP (stateful sessions) for the
// app's /mcp route. Every request needs "Authorization: Bearer <token>"
// (401 with WWW-Authenticate otherwise); a non-loopback Host or a console
// token is 403, and so is any Origin header but the app's own (ownOrigins):
// agents are not browsers, and a page on another loopback port is not the
// app.
func HTTPHandler(srv *server.MCPServer, token string, ownOrigins func() []string) http.Handler {
	inner := server.NewStreamableHTTPServer(srv,
		server.WithStateful(true),
		server.WithHeartbeatInterval(15*time.Second),
		server.WithSessionIdleTTL(30*time.Minute),
	)
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The app's own pages, or a page served from the very host:port this
		// request is addressed to (same origin; the Host is checked below).
		if origin := r.Header.Get("Origin"); origin != "" && !ownOrigin(origin, ownOrigins) && !strings.EqualFold(origin, "http://"+r.Host) {
			http.Error(w, "forbidden origin: /mcp is for agents; only the FixThis app's own pages may send an Origin", http.StatusForbidden)
			return
		}
		if !loopback.Host(r.Host) {
			http.Error(w, "forbidden host: /mcp is served on loopback only", http.StatusForbidden)
			return
		}
		if r.Header.Get(ConsoleTokenHeader) != "" || r.URL.Query().Get("consoleToken") != "" {
			http.Error(w, "the console token is not valid on /mcp; use the MCP bearer token", http.StatusForbidden)
			return
		}
		got := []byte(r.Header.Get("Authorization"))
		if token == "" || subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="fixthis-mcp"`)
			http.Error(w, "unauthorized: send Authorization: Bearer <FixThis MCP token>", http.StatusUnauthorized)
			return
		}
		if r.Method == http.MethodPost {
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRequestBody))
			if err != nil {
				http.Error(w, fmt.Sprintf("request body unreadable or over %d KiB", maxRequestBody>>10), http.StatusRequestEntityTooLarge)
				return
			}
			if answer, bad := textRefusal(body); bad {
				if answer == nil {
					w.WriteHeader(http.StatusAccepted) // a notification
					return
				}
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write(answer)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		inner.ServeHTTP(w, r)
	})
}

func ownOrigin(origin string, own func() []string) bool {
	if own == nil {
		return false
	}
	for _, o := range own() {
		if strings.EqualFold(origin, o) {
			return true
		}
	}
	return false
}
