//go:build desktop && linux

package desktop

/*
#cgo linux pkg-config: gtk+-3.0
#cgo !webkit2_41 pkg-config: webkit2gtk-4.0
#cgo webkit2_41 pkg-config: webkit2gtk-4.1
void fixthisInstallMediaPolicy(void);
*/
import "C"

import (
	"log/slog"
	"sync"
	"sync/atomic"
)

// WebKitGTK denies every permission request nobody handles, and Wails v2.11 connects
// no `permission-request` handler, so getUserMedia fails with NotAllowedError in the
// window. mediaperm_linux.c adds a process-wide emission hook on
// WebKitWebView::permission-request that applies AllowUserMedia and refuses every
// other permission type, and one on load-changed that keeps enable-media-stream on.

var (
	mediaPolicyOnce sync.Once
	mediaLog        atomic.Pointer[slog.Logger]
)

// installMediaPolicy installs the hooks once per process; decisions go to log.
func installMediaPolicy(log *slog.Logger) {
	mediaLog.Store(log)
	mediaPolicyOnce.Do(func() { C.fixthisInstallMediaPolicy() })
}

//export fixthisAllowUserMedia
func fixthisAllowUserMedia(uri *C.char, audio, video, display C.int) C.int {
	r := MediaRequest{PageURI: C.GoString(uri), Audio: audio != 0, Video: video != 0, Display: display != 0}
	ok := AllowUserMedia(r)
	if log := mediaLog.Load(); log != nil {
		log.Info("window media request", "allowed", ok, "origin", originOf(r.PageURI), "audio", r.Audio, "video", r.Video, "display", r.Display)
	}
	if ok {
		return 1
	}
	return 0
}

//export fixthisDeniedPermission
func fixthisDeniedPermission(kind *C.char) {
	if log := mediaLog.Load(); log != nil {
		log.Info("window permission request denied", "type", C.GoString(kind))
	}
}
