package app

import (
	"net/http"

	"fixthis/app/httpapi"
	"fixthis/app/targetwatch"
)

// selectedOnline is the selected device's serial when it is online, else "".
func (a *App) selectedOnline() string {
	v, err := a.device.Registry.Selected()
	if err != nil || !v.Online() {
		return ""
	}
	return v.Serial
}

// targetAppRoutes serve the target app: its state, Bring it back, Run.
type targetAppRoutes struct{ watcher *targetwatch.Watcher }

// getTargetApp is the user's app on the selected device: installed build, whether it is
// in front, whether the sources changed since it was installed.
func (h targetAppRoutes) getTargetApp(w http.ResponseWriter, r *http.Request) {
	httpapi.WriteJSON(w, http.StatusOK, h.watcher.Doc(r.Context()))
}

// postTargetAppLaunch brings the installed app to the front without building.
func (h targetAppRoutes) postTargetAppLaunch(w http.ResponseWriter, r *http.Request) {
	res, err := h.watcher.Launch(r.Context())
	httpapi.Answer(w, res, err)
}

// postTargetAppRun starts a build, install and launch; target-app-run-progress and
// target-app-run-finished events follow.
func (h targetAppRoutes) postTargetAppRun(w http.ResponseWriter, r *http.Request) {
	started, err := h.watcher.StartRun()
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusAccepted, started)
}
