// Command fixthis is FixThis Desktop: point at the UI of a running Android debug app,
// say what should change, and hand it to a coding agent over MCP.
//
// The wiring lives here and in package cli: the embedded console, the version, and one
// command table. Every part below (app, adb, capture, store, MCP) gets its dependencies
// passed in explicitly.
package main

import (
	"context"
	"embed"
	"io/fs"
	"os"
	"os/signal"
	"syscall"

	"fixthis/cli"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

//go:embed all:frontend/dist
var consoleFiles embed.FS

// appIcon is the window and taskbar icon.
//
//go:embed build/appicon.png
var appIcon []byte

func main() {
	console, err := fs.Sub(consoleFiles, "frontend/dist")
	if err != nil {
		panic(err) // the embed pattern guarantees the directory exists
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, cli.Env{
		Stdin:   os.Stdin,
		Stdout:  os.Stdout,
		Stderr:  os.Stderr,
		Console: console,
		Version: version,
		Icon:    appIcon,
		Getenv:  os.Getenv,
	}, os.Args[1:])
	stop()
	os.Exit(code)
}
