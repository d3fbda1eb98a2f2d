package mcp

import (
	"cmp"
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"fixthis/app/agentdevice"
	"fixthis/app/errcode"
	"fixthis/app/targetrun"
)

// runAppOut is what fixthis_run_app answers: the app in front after the run. The
// run's own result also names the APK file and the activity; an agent is told
// neither.
type runAppOut struct {
	ApplicationID string   `json:"applicationId"`
	Serial        string   `json:"serial"`
	Built         bool     `json:"built"`
	Installed     bool     `json:"installed"`
	LaunchMs      int      `json:"launchMs"`
	Foreground    bool     `json:"foreground"`
	Notes         []string `json:"notes,omitempty"`
}

// runApp is fixthis_run_app: build, install and launch the project's app, with MCP
// progress notifications when the client asked for them (a progressToken).
func (t *toolset) runApp() server.ServerTool {
	tool := mcp.NewTool("fixthis_run_app",
		mcp.WithDescription("Build the project's app with its Gradle wrapper, install it on the device and bring it to the front "+
			"(the same steps as `fixthis run`), so you can check your fix on the new build. Gradle's own error lines come back when the build fails. "+
			"The user sees the build's progress in the console; while another build runs, this answers APP_RUN_BUSY: wait and try again."),
		mcp.WithTitleAnnotation("Build, install and launch the app"),
		serialArg(),
		mcp.WithString("module", mcp.MaxLength(200), mcp.Description("Gradle module path, e.g. :app (default: the first app module).")),
		mcp.WithString("variant", mcp.MaxLength(100), mcp.Description("Build variant (default: debug).")),
		mcp.WithBoolean("noBuild", mcp.Description("Skip building and installing: launch the installed app only.")),
		mcp.WithBoolean("reinstall", mcp.Description("Uninstall first (the app's data on the device goes too), e.g. after a signature mismatch.")),
		hints{destructive: true, openWorld: true}.option(), // destructive: reinstall deletes the app's data
		mcp.WithOutputSchema[runAppOut](),
	)
	return server.ServerTool{Tool: tool, Handler: t.deviceTool(func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if t.deps.Runner == nil {
			return mcp.NewToolResultError(errcode.New(errcode.AppNotAvailable, "this process cannot build the app (no project)").Error()), nil
		}
		in := agentdevice.RunAppInput{Module: req.GetString("module", ""), Variant: req.GetString("variant", ""),
			NoBuild: req.GetBool("noBuild", false), Reinstall: req.GetBool("reinstall", false)}
		notify := progressNotifier(ctx, req)
		res, err := t.deps.Runner.RunApp(ctx, serialOf(req), in, notify)
		if err != nil {
			return toolResult(err)
		}
		return structured(runAppOut{ApplicationID: res.ApplicationID, Serial: res.Serial, Built: res.Built, Installed: res.Installed,
			LaunchMs: res.LaunchMs, Foreground: res.Foreground, Notes: res.Notes})
	})}
}

// progressSender sends notifications/progress for the request's progressToken; nil
// when the client gave none (or the call came without a server to send through).
func progressSender(ctx context.Context, req mcp.CallToolRequest) func(progress, total int, message string) {
	if req.Params.Meta == nil || req.Params.Meta.ProgressToken == nil {
		return nil
	}
	token, srv := req.Params.Meta.ProgressToken, server.ServerFromContext(ctx)
	if srv == nil {
		return nil
	}
	return func(progress, total int, message string) {
		_ = srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
			"progressToken": token, "progress": progress, "total": total, "message": message,
		})
	}
}

// progressNotifier sends a build run's progress when the client asked for it, or
// does nothing.
func progressNotifier(ctx context.Context, req mcp.CallToolRequest) func(targetrun.Progress) {
	send := progressSender(ctx, req)
	if send == nil {
		return func(targetrun.Progress) {}
	}
	last := -1.0
	return func(p targetrun.Progress) {
		// A step's line is its message, else the Gradle task it reached.
		line := cmp.Or(p.Message, p.Task)
		// The last step is not announced: it could reach the client after the reply.
		if p.Fraction >= 1 || p.Fraction <= last && line == "" {
			return
		}
		last = max(last, p.Fraction)
		msg := string(p.Stage)
		if line != "" {
			msg += ": " + line
		}
		send(int(last*100), 100, msg)
	}
}
