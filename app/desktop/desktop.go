//go:build desktop

package desktop

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

// Available reports whether this binary was built with the Wails window.
const Available = true

// Run opens the Wails window on app and blocks until it closes. The console reaches
// Go only through the /api handler mounted as asset-server middleware, so the same
// code path serves `wails dev`, the production window and the browser.
func Run(ctx context.Context, app App) error {
	log := app.Logger()
	api := app.APIHandler()
	mcpCtx, stopMCP := context.WithCancel(ctx)
	defer stopMCP()
	go func() {
		if err := app.ServeMCP(mcpCtx); err != nil {
			log.Error("MCP endpoint unavailable", "err", err)
		}
	}()
	placer := newWindowPlacer(log)
	// After GTK is initialised on this (locked) thread, before the window exists: the
	// microphone for the console, nothing else.
	installMediaPolicy(log)
	closed := make(chan struct{})
	err := wails.Run(&options.App{
		Title:            "FixThis",
		Width:            placer.place.Width,
		Height:           placer.place.Height,
		MinWidth:         placer.min.Width,
		MinHeight:        placer.min.Height,
		BackgroundColour: &options.RGBA{R: 24, G: 25, B: 28, A: 255},
		AssetServer: &assetserver.Options{
			Assets: app.Console(),
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
			app.Shutdown()
		},
		Linux: &linux.Options{
			ProgramName:         "fixthis",
			Icon:                app.Icon(),
			WebviewGpuPolicy:    linux.WebviewGpuPolicyOnDemand,
			WindowIsTranslucent: false,
		},
	})
	app.Shutdown()
	return err
}
