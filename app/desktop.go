package app

import (
	"context"
	"io/fs"
	"log/slog"
	"net/http"

	"fixthis/app/desktop"
)

// RunDesktop opens the native window (package desktop) on this app and blocks until it
// closes; without the `desktop` build tag it returns desktop.ErrNoDesktop.
func (a *App) RunDesktop(ctx context.Context) error { return desktop.Run(ctx, desktopApp{a}) }

// desktopApp is the app as the window sees it.
type desktopApp struct{ a *App }

func (d desktopApp) Console() fs.FS                     { return d.a.console }
func (d desktopApp) Icon() []byte                       { return d.a.icon }
func (d desktopApp) APIHandler() http.Handler           { return d.a.APIHandler() }
func (d desktopApp) ServeMCP(ctx context.Context) error { return d.a.serveMCP(ctx) }
func (d desktopApp) Shutdown()                          { d.a.Shutdown() }
func (d desktopApp) Logger() *slog.Logger               { return d.a.log }
