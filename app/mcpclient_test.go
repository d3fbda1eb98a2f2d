package app

import (
	"context"
	"testing"

	"fixthis/app/mcp"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// inProcessAgent is an initialized MCP client in this process on the app's store,
// prompts and feedback core (runtime evidence, the orphan check), closed at the
// end of the test.
func inProcessAgent(t *testing.T, e *testEnv, name string) *mcpclient.Client {
	t.Helper()
	return inProcessClient(t, mcp.Deps{Store: e.store, Prompt: e.app.prompts,
		Evidence: e.app.feedback.Agent(), Screen: e.app.feedback.Agent()}, name)
}

// inProcessClient is an initialized MCP client in this process on deps, closed at
// the end of the test.
func inProcessClient(t *testing.T, deps mcp.Deps, name string) *mcpclient.Client {
	t.Helper()
	c, err := mcpclient.NewInProcessClient(mcp.NewServer(deps))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	var init mcpgo.InitializeRequest
	init.Params.ClientInfo = mcpgo.Implementation{Name: name, Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	return c
}
