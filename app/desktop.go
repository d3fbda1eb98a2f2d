//go:build desktop

package app

import (
	"context"
	"net/http"
	"strings"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	wailsruntime "github.com/wailsapp/wails/v2/pkg/runtime"
)

// DesktopAvailable reports whether this binary was built with the Wails window.
const DesktopAvailable = true

// RunDesktop opens the Wails window and blocks until it closes. The console reaches Go
// only through the /api handler mounted as asset-server middleware, so the same code
// path serves `wails dev`, the production window and the browser.
func (a *App) RunDesktop(ctx context.Context) error {
	api := a.APIHandler()
	mcpCtx, stopMCP := context.WithCancel(ctx)
	defer stopMCP()
	go func() {
		if err := a.serveMCP(mcpCtx); err != nil {
			a.log.Error("MCP endpoint unavailable", "err", err)
		}
	}()
	placer := newWindowPlacer(a.log)
	// After GTK is initialised on this (locked) thread, before the window exists: the
	// microphone for the console, nothing else.
	installMediaPolicy(a.log)
	closed := make(chan struct{})
	err := wails.Run(&options.App{
		Title:            "FixThis",
		Width:            placer.place.Width,
		Height:           placer.place.Height,
		MinWidth:         placer.min.Width,
		MinHeight:        placer.min.Height,
		BackgroundColour: &options.RGBA{R: 24, G: 25, B: 28, A: 255},
		AssetServer: &assetserver.Options{
			Assets: a.console,
			Middleware: func(next http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if strings.HasPrefix(r.URL.Path, "/api/") {
						api.ServeHTTP(w, r)
						return
					}
					next.ServeHTTP(w, r)
				})
			},
		},
		OnStartup: func(wctx context.Context) {
			// A signal (the command's ctx) closes the window as its close button
			// does, so its place is kept and the app shuts down in order.
			go func() {
				select {
				case <-closed:
				case <-ctx.Done():
					placer.remember(wctx)
					wailsruntime.Quit(wctx)
				}
			}()
		},
		OnDomReady: func(ctx context.Context) { placer.domReady(ctx) },
		OnBeforeClose: func(ctx context.Context) bool {
			placer.remember(ctx)
			return false
		},
		OnShutdown: func(context.Context) {
			close(closed)
			a.Shutdown()
		},
		Linux: &linux.Options{
			ProgramName:         "fixthis",
			Icon:                a.icon,
			WebviewGpuPolicy:    linux.WebviewGpuPolicyOnDemand,
			WindowIsTranslucent: false,
		},
	})
	a.Shutdown()
	return err
}
