package mcp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Endpoint finds the running app's /mcp URL and bearer token (from the project's
// endpoint file); an error means no app has run for the project.
type Endpoint func() (url, token string, err error)

// NewForwarder returns a Forwarder to the app at endpoint. It connects on the first
// call and again after the app went away, so a sidecar started before the app finds
// it once it runs. defaultSerial, when set, goes with calls that name no device.
func NewForwarder(endpoint Endpoint, defaultSerial, version string) Forwarder {
	f := &forwarder{endpoint: endpoint, serial: defaultSerial, version: version}
	return f.call
}

type forwarder struct {
	endpoint Endpoint
	serial   string
	version  string

	mu     sync.Mutex
	client *client.Client
	url    string
}

func (f *forwarder) call(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	c, err := f.connect(ctx)
	if err != nil {
		return nil, err
	}
	args := req.GetArguments()
	// The default device goes with the tools that take one; the app refuses an
	// argument a tool does not declare.
	if f.serial != "" && args["serial"] == nil && takesArg(ctx, "serial") {
		with := make(map[string]any, len(args)+1)
		for k, v := range args {
			with[k] = v
		}
		with["serial"] = f.serial
		// The wire's raw arguments win over Arguments when the request is sent
		// on; without clearing them the serial never reached the app.
		req.Params.Arguments, req.Params.RawArguments = with, nil
	}
	res, err := c.CallTool(ctx, req)
	if err != nil && isConnError(err) {
		// The app went away during the call. It may have acted already, so the call
		// is not run again here; the next one reconnects or drives the device itself.
		f.drop(c)
		return mcp.NewToolResultError(fmt.Sprintf("the FixThis app stopped answering during %s (%v); "+
			"check the screen with fixthis_capture_screen before you try again", req.Params.Name, err)), nil
	}
	return res, err
}

// connect returns a session with the app, opening one when there is none.
func (f *forwarder) connect(ctx context.Context) (*client.Client, error) {
	url, token, err := f.endpoint()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrAppNotRunning, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.client != nil && f.url == url {
		return f.client, nil
	}
	if f.client != nil {
		_ = f.client.Close()
		f.client = nil
	}
	c, err := client.NewStreamableHttpClient(url, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrAppNotRunning, err)
	}
	ictx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := c.Start(ictx); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("%w: %v", ErrAppNotRunning, err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "fixthis-sidecar", Version: f.version}
	if _, err := c.Initialize(ictx, init); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("%w: %v", ErrAppNotRunning, err)
	}
	f.client, f.url = c, url
	return c, nil
}

func (f *forwarder) drop(c *client.Client) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.client == c {
		_ = c.Close()
		f.client = nil
	}
}

// isConnError tells a dead app (refused, reset, session gone) from a tool's own error.
func isConnError(err error) bool {
	var ne net.Error
	var oe *net.OpError
	return errors.As(err, &ne) || errors.As(err, &oe) || errors.Is(err, transport.ErrSessionTerminated)
}
