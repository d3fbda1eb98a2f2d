//go:build desktop && linux

package desktop

/*
#cgo pkg-config: gtk+-3.0
#include <gtk/gtk.h>

// fixthis_workarea reports the primary monitor's work area: the screen less the
// panels and docks the desktop reserves. GTK is initialised here, on the thread that
// runs the window next (Wails' own gtk_init_check is then a no-op).
static int fixthis_workarea(int *x, int *y, int *w, int *h) {
	if (!gtk_init_check(NULL, NULL)) return 0;
	GdkDisplay *d = gdk_display_get_default();
	if (d == NULL) return 0;
	GdkMonitor *m = gdk_display_get_primary_monitor(d);
	if (m == NULL) m = gdk_display_get_monitor(d, 0);
	if (m == NULL) return 0;
	GdkRectangle r;
	gdk_monitor_get_workarea(m, &r);
	*x = r.x; *y = r.y; *w = r.width; *h = r.height;
	return 1;
}
*/
import "C"

import (
	"os"
	"runtime"

	"fixthis/app/windowplace"
)

// workArea asks GDK for the primary monitor's work area before the window exists.
// It sets GDK_BACKEND as Wails does before its own initialisation, so both see the
// same display, and locks the thread as Wails does: GTK stays on this thread.
func workArea() (windowplace.Rect, error) {
	runtime.LockOSThread()
	if os.Getenv("GDK_BACKEND") == "" {
		if s := os.Getenv("XDG_SESSION_TYPE"); s == "" || s == "unspecified" || s == "x11" {
			_ = os.Setenv("GDK_BACKEND", "x11")
		}
	}
	var x, y, w, h C.int
	if C.fixthis_workarea(&x, &y, &w, &h) == 0 {
		return windowplace.Rect{}, windowplace.ErrNoWorkArea
	}
	return windowplace.Rect{X: int(x), Y: int(y), Width: int(w), Height: int(h)}, nil
}
