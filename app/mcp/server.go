// Package mcp serves the FixThis agent loop over the Model Context Protocol:
// tools to list, read, wait for, claim, ask about and resolve feedback, on a
// stdio transport (`fixthis mcp`) and Streamable HTTP (`/mcp` in the app).
// Every rule lives in the store; a tool validates its input, calls the store
// and shapes the answer for an agent.
package mcp

import (
	"context"
	"fmt"
	"image"
	"io"
	"log"
	"log/slog"

	"github.com/mark3labs/mcp-go/server"

	"fixthis/app/store"
)

// Prompter renders the compact handoff prompt (grammar v2) for items of a
// session; all handed-off items when itemIDs is empty. The app's prompt
// builder implements it.
type Prompter interface {
	Markdown(ctx context.Context, sessionID string, itemIDs []string) (string, error)
}

// DeviceCapturer captures the current screen of a device for
// fixthis_capture_screen. Only processes that run a device layer have one.
type DeviceCapturer interface {
	CaptureScreen(ctx context.Context, serial string) (*Capture, error)
}

// Capture is one captured screen.
type Capture struct {
	Serial      string
	Package     string
	Activity    string
	Fingerprint string
	Width       int
	Height      int
	// Frame is the full-resolution frame; it is scaled and encoded once, for the agent.
	Frame image.Image
	// Tree is a short text summary of the UI tree (one node per line).
	Tree string
}

// Deps is everything the tools need. Store is required; the rest may be nil.
type Deps struct {
	Store *store.Store
	// Prompt renders compact prompts; without it read_feedback and wait send
	// the items as JSON only.
	Prompt Prompter
	// Device serves fixthis_capture_screen; nil in the stdio sidecar.
	Device DeviceCapturer
	// OnPresence is told every presence change this process makes (the store
	// also publishes it to other processes through its change feed).
	OnPresence func(store.Presence)
	Version    string
	Logger     *slog.Logger
}

// instructions is sent at initialize: the loop an agent should run.
const instructions = `FixThis hands you UI feedback a developer pointed at on a running Android app.
Loop: fixthis_wait_for_feedback (long-poll) → fixthis_ack_feedback(batchId) right away →
for each item: fixthis_read_feedback → fixthis_claim_feedback before editing code →
fixthis_resolve_feedback(status resolved|wont_fix|needs_clarification, summary) when done.
Ask the developer with fixthis_ask; the answer arrives through the next wait.
Source hints are candidates: verify screenshot, target and code before editing.`

// NewServer builds the MCP server with every FixThis tool.
func NewServer(deps Deps) *server.MCPServer {
	if deps.Logger == nil {
		deps.Logger = slog.New(slog.DiscardHandler)
	}
	if deps.Version == "" {
		deps.Version = "dev"
	}
	srv := server.NewMCPServer("fixthis", deps.Version,
		server.WithToolCapabilities(false),
		// Generic clients (and the conformance suite) probe resources and logging;
		// answering with empty lists and accepting a level beats "method not found".
		server.WithResourceCapabilities(false, false),
		server.WithLogging(),
		server.WithInstructions(instructions),
		server.WithInputSchemaValidation(),
		server.WithOutputSchemaValidation(),
		server.WithRecovery(),
	)
	srv.AddTools(Tools(deps)...)
	return srv
}

// Tools returns every tool with its handler (tools/list sorts them by name).
// One constructor per tool; they share the wait-owner ids and the presence
// tracker created here.
func Tools(deps Deps) []server.ServerTool {
	if deps.Logger == nil {
		deps.Logger = slog.New(slog.DiscardHandler)
	}
	t := &toolset{deps: deps, owners: newWaitOwners(), presence: newPresenceTracker(deps.Store, deps.OnPresence, deps.Logger)}
	return []server.ServerTool{
		t.listSessions(),
		t.listFeedback(),
		t.readFeedback(),
		t.waitForFeedback(),
		t.ackFeedback(),
		t.claimFeedback(),
		t.resolveFeedback(),
		t.ask(),
		t.captureScreen(),
	}
}

type toolset struct {
	deps     Deps
	owners   *waitOwners
	presence *presenceTracker
}

// ServeStdio serves the tools on in/out (the agent's pipes) until ctx ends or
// the agent closes stdin. Logs must go to stderr: stdout is the protocol.
func ServeStdio(ctx context.Context, deps Deps, in io.Reader, out io.Writer, errLog io.Writer) error {
	stdio := server.NewStdioServer(NewServer(deps))
	stdio.SetErrorLogger(log.New(errLog, "fixthis mcp: ", log.LstdFlags))
	if err := stdio.Listen(ctx, in, out); err != nil && ctx.Err() == nil && err != io.EOF {
		return fmt.Errorf("mcp stdio: %w", err)
	}
	return nil
}
