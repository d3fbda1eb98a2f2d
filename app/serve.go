package app

import (
	"context"
	"errors"
	"fixthis/internal/loopback"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ServeInfo is what `fixthis serve --json` prints once the server listens.
type ServeInfo struct {
	URL        string `json:"url"`
	Port       int    `json:"port"`
	Token      string `json:"token"`
	ConsoleURL string `json:"consoleUrl"`
	MCPURL     string `json:"mcpUrl,omitempty"`
	MCPToken   string `json:"mcpToken,omitempty"`
}

// Serve runs the browser console and API on a loopback address until ctx ends, then
// shuts down gracefully. onListen is called once the socket accepts connections.
func (a *App) Serve(ctx context.Context, addr string, onListen func(ServeInfo)) error {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("serve: bad address %q: %w", addr, err)
	}
	if !loopback.Host(host) {
		return fmt.Errorf("serve: %s is not a loopback address; FixThis only listens on this machine (use 127.0.0.1)", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("serve: listen on %s: %w", addr, err)
	}
	tcp := ln.Addr().(*net.TCPAddr)
	port := tcp.Port
	// The printed URLs name the address actually listened on: on [::1] a URL
	// with 127.0.0.1 would reach nothing.
	listenHost := tcp.IP.String()
	if tcp.IP.To4() == nil {
		listenHost = "[" + listenHost + "]"
	}
	base := "http://" + listenHost + ":" + strconv.Itoa(port) + "/"

	srv := &http.Server{
		Handler:           a.serveMux(port, listenHost),
		ReadHeaderTimeout: 10 * time.Second,
	}
	info := ServeInfo{
		URL:        base,
		Port:       port,
		Token:      a.consoleToken,
		ConsoleURL: base + "#token=" + a.consoleToken,
	}
	if a.store != nil {
		info.MCPURL, info.MCPToken = base+"mcp", a.mcpToken
		a.recordMCPEndpoint(info.MCPURL, port)
		defer a.forgetMCPEndpoint()
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	if onListen != nil {
		onListen(info)
	}

	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	a.Shutdown()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("serve: shutdown: %w", err)
	}
	return nil
}

// serveMux is the whole loopback HTTP surface of serve mode. listenHost is
// the address listened on ("127.0.0.1", "[::1]", …): pages served from it,
// or from the usual loopback names on the same port, are the console's own.
func (a *App) serveMux(port int, listenHost string) http.Handler {
	own := ownOrigins(port, listenHost)
	guard := consoleGuard{
		token:      a.consoleToken,
		mcpToken:   a.mcpToken,
		ownOrigins: func() []string { return own },
	}
	mux := http.NewServeMux()
	mux.Handle("/api/", guard.wrap(a.APIHandler()))
	if a.store != nil {
		mux.Handle("/mcp", a.mcpHandler(own))
	}
	mux.Handle("/", a.consoleHandler())
	return securityHeaders(mux)
}

// ownOrigins are the origins of the app's own pages on port.
func ownOrigins(port int, listenHost string) []string {
	p := strconv.Itoa(port)
	out := []string{"http://127.0.0.1:" + p, "http://localhost:" + p, "http://[::1]:" + p}
	if h := "http://" + listenHost + ":" + p; listenHost != "" && !slices.Contains(out, h) {
		out = append(out, h)
	}
	return out
}

// consoleHandler serves the embedded console. Unknown paths fall back to index.html so
// deep links work; the token travels in the URL fragment, which never reaches a server.
func (a *App) consoleHandler() http.Handler {
	if a.console == nil {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "this build has no console assets; run `make build`", http.StatusNotFound)
		})
	}
	files := http.FileServerFS(a.console)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !loopback.Host(r.Host) {
			http.Error(w, "FixThis answers only on a loopback host name", http.StatusForbidden)
			return
		}
		name := strings.TrimPrefix(r.URL.Path, "/")
		if name == "" || !fileExists(a.console, name) {
			w.Header().Set("Cache-Control", "no-cache")
			http.ServeFileFS(w, r, a.console, "index.html")
			return
		}
		if strings.HasPrefix(name, "assets/") {
			// Vite names assets by content hash: safe to cache forever.
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		}
		files.ServeHTTP(w, r)
	})
}

func fileExists(fsys fs.FS, name string) bool {
	st, err := fs.Stat(fsys, name)
	return err == nil && !st.IsDir()
}

func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		next.ServeHTTP(w, r)
	})
}
