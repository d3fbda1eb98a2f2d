// Package mcp serves the FixThis agent loop over the Model Context Protocol:
// tools to list, read, wait for, claim, ask about and resolve feedback, on a
// stdio transport (`fixthis mcp`) and Streamable HTTP (`/mcp` in the app).
// Every rule lives in the store; a tool validates its input, calls the store
// and shapes the answer for an agent.
package mcp

import (
	"context"
	"fmt"
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

// ScreenChecker looks for a node target on the device's current screen. known is
// false when it cannot tell (no device, capture failed, nothing to match on).
type ScreenChecker interface {
	NodeOnScreen(ctx context.Context, target store.Target) (present, known bool)
}

// Deps is everything the tools need. Store is required; the rest may be nil.
type Deps struct {
	Store *store.Store
	// Prompt renders compact prompts; without it read_feedback and wait send
	// the items as JSON only.
	Prompt Prompter
	// Device serves the device tools (capture, tap, swipe, type, keys, launch, wait).
	Device Device
	// Evidence serves fixthis_capture_runtime_evidence; nil in the stdio sidecar.
	Evidence EvidenceCollector
	// Forward, in the stdio sidecar, hands device tools to the running app first.
	Forward Forwarder
	// Recorder serves fixthis_record_screen; nil in the stdio sidecar, which forwards.
	Recorder ScreenRecorder
	// Runner serves fixthis_run_app (build, install, launch).
	Runner AppRunner
	// Screen tells read_feedback whether an item's node is still on the
	// device's current screen (orphaned otherwise); nil in the stdio sidecar.
	Screen ScreenChecker
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
	if deps.Version == "" {
		deps.Version = "dev"
	}
	t := newToolset(deps)
	srv := server.NewMCPServer("fixthis", deps.Version,
		server.WithHooks(t.conns.hooks()),
		server.WithToolCapabilities(false),
		// Generic clients (and the conformance suite) probe resources and logging;
		// answering with empty lists and accepting a level beats "method not found".
		server.WithResourceCapabilities(false, false),
		server.WithLogging(),
		server.WithInstructions(instructions),
		server.WithOutputSchemaValidation(),
		server.WithRecovery(),
	)
	srv.AddTools(t.tools()...)
	return srv
}

// Tools returns every tool with its handler (tools/list sorts them by name).
// One constructor per tool; they share the wait-owner ids and the presence
// tracker created here.
func Tools(deps Deps) []server.ServerTool { return newToolset(deps).tools() }

func newToolset(deps Deps) *toolset {
	if deps.Logger == nil {
		deps.Logger = slog.New(slog.DiscardHandler)
	}
	owners := newWaitOwners()
	t := &toolset{deps: deps, owners: owners, presence: newPresenceTracker(deps.Store, deps.OnPresence, deps.Logger)}
	t.conns = &connections{store: deps.Store, prefix: owners.prefix, log: deps.Logger, live: map[string]bool{},
		onEnd: func(string) { t.presence.connectionEnded(t.conns.count()) }}
	return t
}

func (t *toolset) tools() []server.ServerTool {
	tools := []server.ServerTool{
		t.listSessions(),
		t.listFeedback(),
		t.readFeedback(),
		t.waitForFeedback(),
		t.ackFeedback(),
		t.claimFeedback(),
		t.resolveFeedback(),
		t.ask(),
		t.captureScreen(),
		t.auditScreen(),
		t.verifyFix(),
		t.recordScreen(),
		t.tap(),
		t.swipe(),
		t.typeText(),
		t.pressKey(),
		t.launchApp(),
		t.waitForScreen(),
		t.setDisplay(),
		t.restoreDisplay(),
		t.setSize(),
		t.resetSize(),
		t.checkSizes(),
		t.runApp(),
		t.getRuntimeEvidence(),
		t.captureRuntimeEvidence(),
		t.readNetwork(),
	}
	for i := range tools {
		tools[i] = validated(tools[i])
	}
	return tools
}

type toolset struct {
	deps     Deps
	owners   *waitOwners
	presence *presenceTracker
	conns    *connections
}

// ServeStdio serves the tools on in/out (the agent's pipes) until ctx ends or
// the agent closes stdin. Logs must go to stderr: stdout is the protocol.
func ServeStdio(ctx context.Context, deps Deps, in io.Reader, out io.Writer, errLog io.Writer) error {
	stdio := server.NewStdioServer(NewServer(deps))
	stdio.SetErrorLogger(log.New(errLog, "fixthis mcp: ", log.LstdFlags))
	w := &lockedWriter{w: out}
	if err := stdio.Listen(ctx, checkedLines(in, w), w); err != nil && ctx.Err() == nil && err != io.EOF {
		return fmt.Errorf("mcp stdio: %w", err)
	}
	return nil
}
