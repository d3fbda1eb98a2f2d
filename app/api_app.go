package app

import (
	"net/http"
	"time"

	"fixthis/app/httpapi"
)

// selectedOnline is the selected device's serial when it is online, else "".
func (a *App) selectedOnline() string {
	v, err := a.device.Registry.Selected()
	if err != nil || !v.Online() {
		return ""
	}
	return v.Serial
}

// lastEdit is the newest indexed source file's time, zero while the index builds.
func (s *sourceIndex) lastEdit() time.Time {
	idx, _ := s.get()
	if idx == nil {
		return time.Time{}
	}
	return idx.NewestModTime()
}

// getApp is the user's app on the selected device: installed build, whether it is
// in front, whether the sources changed since it was installed.
func (a *App) getApp(w http.ResponseWriter, r *http.Request) {
	httpapi.WriteJSON(w, http.StatusOK, a.appw.Doc(r.Context()))
}

// postAppLaunch brings the installed app to the front without building.
func (a *App) postAppLaunch(w http.ResponseWriter, r *http.Request) {
	res, err := a.appw.Launch(r.Context())
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, res)
}

// postAppRun starts a build, install and launch; app-run-progress and
// app-run-finished events follow.
func (a *App) postAppRun(w http.ResponseWriter, r *http.Request) {
	started, err := a.appw.StartRun()
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusAccepted, started)
}
