package app

import (
	"net/http"

	"fixthis/app/errcode"
	"fixthis/app/httpapi"
	"fixthis/app/store"
)

// Session routes. The store owns every rule and transaction; these handlers decode,
// call one store operation and encode. Session events reach the console through the
// store's change feed (see publishStoreChanges), the same path another process's
// commits take.

// SessionList is the body of GET /api/sessions.
type SessionList struct {
	Sessions []store.SessionSummary `json:"sessions"`
}

// SessionDoc carries one session; SessionID is set when it was just created.
type SessionDoc struct {
	SessionID string         `json:"sessionId,omitempty"`
	Session   *store.Session `json:"session"`
}

func (a *App) getSessions(w http.ResponseWriter, r *http.Request) {
	list, err := a.store.ListSessions(r.Context())
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	if list == nil {
		list = []store.SessionSummary{}
	}
	httpapi.WriteJSON(w, http.StatusOK, SessionList{Sessions: list})
}

// NewSessionRequest is the body of POST /api/sessions; it may be empty.
type NewSessionRequest struct {
	Title string `json:"title,omitempty"`
}

func (a *App) postSessions(w http.ResponseWriter, r *http.Request) {
	var req NewSessionRequest
	if err := httpapi.DecodeOptionalJSON(r, &req); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	sess, err := a.store.CreateSession(r.Context(), req.Title)
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, SessionDoc{SessionID: sess.SessionID, Session: sess})
}

func (a *App) getSession(w http.ResponseWriter, r *http.Request) {
	sess, err := a.store.GetSession(r.Context(), r.PathValue("id"))
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	w.Header().Set("ETag", httpapi.QuoteETag(sess.ETag))
	httpapi.WriteJSON(w, http.StatusOK, SessionDoc{Session: sess})
}

func (a *App) putSession(w http.ResponseWriter, r *http.Request) {
	var u store.SessionUpdate
	if err := httpapi.DecodeJSON(r, &u); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	sess, err := a.store.UpdateSession(r.Context(), r.PathValue("id"), u)
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, SessionDoc{Session: sess})
}

func (a *App) deleteSession(w http.ResponseWriter, r *http.Request) {
	if err := a.store.DeleteSession(r.Context(), r.PathValue("id")); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, OK{OK: true})
}

func (a *App) postSessionClose(w http.ResponseWriter, r *http.Request) {
	sess, err := a.store.CloseSession(r.Context(), r.PathValue("id"))
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, SessionDoc{Session: sess})
}

func (a *App) getScreenImage(w http.ResponseWriter, r *http.Request) {
	sess, err := a.store.GetSession(r.Context(), r.URL.Query().Get("sessionId"))
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	for _, sc := range sess.Screens {
		if sc.ScreenID == r.PathValue("screenId") {
			if sc.ImageArtifact == "" {
				httpapi.WriteError(w, errcode.New(errcode.ScreenshotNotFound, "screen %s was saved without a screenshot", sc.ScreenID))
				return
			}
			a.serveArtifact(w, r, sc.ImageArtifact, "image/png")
			return
		}
	}
	httpapi.WriteError(w, errcode.New(errcode.ScreenNotFound, "no screen %s in session %s", errcode.Quote(r.PathValue("screenId")), sess.SessionID))
}

func (a *App) serveArtifact(w http.ResponseWriter, r *http.Request, key, contentType string) {
	data, err := a.store.ReadArtifact(r.Context(), key)
	if err != nil {
		httpapi.WriteError(w, errcode.Wrap(errcode.ScreenshotNotFound, err, "the screenshot file is missing from .fixthis/artifacts"))
		return
	}
	w.Header().Set("Content-Type", contentType)
	// Artifacts are named by content hash: they never change.
	w.Header().Set("Cache-Control", "private, max-age=31536000, immutable")
	_, _ = w.Write(data)
}
