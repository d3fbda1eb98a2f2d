// Package cli is the fixthis command line: one function per command, one table of
// commands, and the usage text. main.go hands over the process (streams, embedded
// console, version) and calls Run; each command builds the dependencies it needs.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"
)

// Env is what commands get from main: streams, the embedded console and the version.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Console        fs.FS
	Icon           []byte // PNG for the window and taskbar
	Version        string
	Getenv         func(string) string
}

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, env Env, args []string) error
}

// usageError makes Run print usage and exit 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

func commands() []command {
	return []command{
		{"desktop", "open the desktop window (the default; serve mode when there is no display)", runDesktop},
		{"serve", "serve the console in a browser on 127.0.0.1", runServe},
		{"devices", "list the devices the adb server knows", runDevices},
		{"sim", "run a simulated Android device (the demo app) on the real adb transport", runSim},
		{"capture", "capture the current screen: screen.png and tree.json", runCapture},
		{"project", "show the Android project's app modules: applicationId, launcher, flavors", runProject},
		{"run", "build, install and launch the app, and confirm it is in front", runRun},
		{"semantics", "parse a uiautomator dump file and print its nodes", runSemantics},
		{"audit", "find accessibility and layout flaws in a saved uiautomator dump (and screenshot)", runAudit},
		{"prompt", "print the compact handoff prompt of a feedback session", runPrompt},
		{"source", "index an Android project's sources or match a target (index|match)", runSource},
		{"mcp", "serve the MCP tools on stdio (an agent starts this)", runMCP},
		{"mcp-config", "print or write the MCP config for claude, codex or cursor", runMCPConfig},
		{"control", "say whether agents may control a device: allow, deny or status", runControl},
		{"doctor", "check adb, devices, the display and the project's store", runDoctor},
		{"version", "print the version", runVersion},
		{"help", "show this help", nil},
	}
}

// Run executes one command line and returns the process exit code.
func Run(ctx context.Context, env Env, args []string) int {
	if env.Getenv == nil {
		env.Getenv = os.Getenv
	}
	name := "desktop"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	if name == "help" || name == "--help" || name == "-h" {
		fmt.Fprint(env.Stdout, usage())
		return 0
	}
	for _, c := range commands() {
		if c.name != name || c.run == nil {
			continue
		}
		err := c.run(ctx, env, args)
		var ue usageError
		switch {
		case err == nil, errors.Is(err, errHelpShown):
			return 0
		case errors.Is(err, flag.ErrHelp):
			fmt.Fprint(env.Stdout, usage())
			return 0
		case errors.As(err, &ue):
			fmt.Fprintf(env.Stderr, "fixthis %s: %s\n\n%s", name, ue.msg, usage())
			return 2
		default:
			fmt.Fprintf(env.Stderr, "fixthis %s: %v\n", name, err)
			return 1
		}
	}
	fmt.Fprintf(env.Stderr, "fixthis: unknown command %q\n\n%s", name, usage())
	return 2
}

func usage() string {
	var b strings.Builder
	b.WriteString("FixThis — point at your Android app's UI and hand precise change requests to a coding agent.\n\n")
	b.WriteString("Usage: fixthis [command] [flags]\n\nCommands:\n")
	cmds := commands()
	sort.SliceStable(cmds, func(i, j int) bool { return cmds[i].name == "desktop" && cmds[j].name != "desktop" })
	for _, c := range cmds {
		fmt.Fprintf(&b, "  %-12s %s\n", c.name, c.summary)
	}
	b.WriteString("\nRun `fixthis COMMAND -h` for a command's flags. Every command respects ANDROID_ADB_SERVER_PORT.\n")
	return b.String()
}

// cmdFlags is a command's flag set plus where `-h` prints its help.
type cmdFlags struct {
	*flag.FlagSet
	help io.Writer
}

// newFlags returns a flag set that reports errors instead of exiting, so Run decides
// the exit code (2 for usage errors); `-h` prints the command's flags to help.
func newFlags(name string, help io.Writer) *cmdFlags {
	fsFlags := flag.NewFlagSet("fixthis "+name, flag.ContinueOnError)
	fsFlags.SetOutput(io.Discard)
	return &cmdFlags{FlagSet: fsFlags, help: help}
}

// errHelpShown ends a command after it printed its own -h text.
var errHelpShown = errors.New("help shown")

// parse parses args and turns flag errors into usage errors; stray arguments too.
func parse(f *cmdFlags, args []string) error {
	if err := f.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(f.help, "Usage: %s [flags]\n\nFlags:\n", f.Name())
			f.SetOutput(f.help)
			f.PrintDefaults()
			return errHelpShown
		}
		return usagef("%v", err)
	}
	if f.NArg() > 0 {
		return usagef("unexpected argument %q", f.Arg(0))
	}
	return nil
}
