package app

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"fixthis/app/mcp"
	"fixthis/app/store"
)

// MCPEndpointFile is the JSON the running app writes to .fixthis/mcp-endpoint.json.
type MCPEndpointFile = mcp.EndpointFile

// ReadMCPEndpoint reads the endpoint a running (or the last) app recorded;
// MCPEndpointFile.Live tells whether that app still runs.
func ReadMCPEndpoint(loc store.Locations) (MCPEndpointFile, error) {
	return mcp.ReadEndpointFile(loc.MCPEndpoint())
}

// loadMCPToken reuses the token of the last launch, so agent configs written with
// `mcp-config --http` keep working across restarts.
func (a *App) loadMCPToken() {
	if a.store == nil {
		return
	}
	if ep, err := ReadMCPEndpoint(a.store.Locations()); err == nil && len(ep.Token) >= 32 {
		a.mcpToken = ep.Token
	}
}

// recordMCPEndpoint tells sidecars where this process's /mcp listens; the
// record never names a dead process (mcp.WriteEndpointFile), and
// forgetMCPEndpoint removes it when the listener stops.
func (a *App) recordMCPEndpoint(url string, port int) {
	if a.store == nil {
		return
	}
	a.mcpURL = url
	path := a.store.Locations().MCPEndpoint()
	if err := mcp.WriteEndpointFile(path, MCPEndpointFile{URL: url, Port: port, Token: a.mcpToken, PID: os.Getpid()}); err != nil {
		a.log.Warn("record the MCP endpoint: agents' `fixthis mcp` sidecars will drive the phone themselves", "err", err)
	}
}

func (a *App) forgetMCPEndpoint() {
	if a.store == nil {
		return
	}
	if err := mcp.RemoveEndpointFile(a.store.Locations().MCPEndpoint(), os.Getpid()); err != nil {
		a.log.Warn("remove the MCP endpoint record", "err", err)
	}
}

// mcpHandler is /mcp: the agent side, with its own bearer token. The console token is
// refused here just as the MCP token is refused on /api, and so is any Origin but own.
func (a *App) mcpHandler(own []string) http.Handler {
	phone := a.agentPhone()
	srv := mcp.NewServer(mcp.Deps{
		Store:    a.store,
		Prompt:   a.prompts,
		Device:   phone,
		Runner:   phone,
		Evidence: a.feedback.Agent(),
		Screen:   a.feedback.Agent(),
		Recorder: a.feedback.Agent(),
		Version:  a.version,
		Logger:   a.log,
	})
	inner := mcp.HTTPHandler(srv, a.mcpToken, func() []string { return own })
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && tokensEqual(bearer, a.consoleToken) {
			http.Error(w, "the console token is not valid on /mcp; use the MCP bearer token", http.StatusForbidden)
			return
		}
		inner.ServeHTTP(w, r)
	})
}

// serveMCP runs the MCP endpoint on its own loopback listener (desktop mode, where the
// console has no HTTP port). It prefers the port of the last launch.
func (a *App) serveMCP(ctx context.Context) error {
	addr := "127.0.0.1:0"
	if ep, err := ReadMCPEndpoint(a.store.Locations()); err == nil && ep.Port > 0 {
		addr = "127.0.0.1:" + strconv.Itoa(ep.Port)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil && addr != "127.0.0.1:0" {
		ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		return fmt.Errorf("mcp: listen: %w", err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	mux := http.NewServeMux()
	mux.Handle("/mcp", a.mcpHandler(ownOrigins(port, "127.0.0.1")))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	a.recordMCPEndpoint("http://127.0.0.1:"+strconv.Itoa(port)+"/mcp", port)
	defer a.forgetMCPEndpoint()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("mcp: %w", err)
	}
	return nil
}
