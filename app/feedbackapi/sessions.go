// Package feedbackapi serves the console's feedback routes: sessions, items, their
// screens and crops, handoffs (Save to MCP, Copy Prompt, exports) and runtime
// evidence. Each handler decodes, calls the store or the feedback core (app/feedback)
// and encodes; the route table is the app's.
package feedbackapi

import (
	"net/http"

	"fixthis/app/errcode"
	"fixthis/app/feedback"
	"fixthis/app/handoff"
	"fixthis/app/httpapi"
	"fixthis/app/source"
	"fixthis/app/store"
)

// Session routes. The store owns every rule and transaction; these handlers decode,
// call one store operation and encode. Session events reach the console through the
// store's change feed (see publishStoreChanges), the same path another process's
// commits take.

// Routes serve sessions, items, handoffs and runtime evidence: each decodes, calls
// the store or the feedback core, and encodes.
type Routes struct {
	Store    *store.Store
	Feedback *feedback.Service
	Prompts  *handoff.Builder
	Sources  *source.Live
}

// SessionList is the body of GET /api/sessions.
type SessionList struct {
	Sessions []store.SessionSummary `json:"sessions"`
}

// SessionDoc carries one session; SessionID is set when it was just created.
type SessionDoc struct {
	SessionID string         `json:"sessionId,omitempty"`
	Session   *store.Session `json:"session"`
}

func (h Routes) GetSessions(w http.ResponseWriter, r *http.Request) {
	list, err := h.Store.ListSessions(r.Context())
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

func (h Routes) PostSessions(w http.ResponseWriter, r *http.Request) {
	httpapi.DecodeAnswer(w, r, httpapi.DecodeOptionalJSON, func(req NewSessionRequest) (SessionDoc, error) {
		sess, err := h.Store.CreateSession(r.Context(), req.Title)
		if err != nil {
			return SessionDoc{}, err
		}
		return SessionDoc{SessionID: sess.SessionID, Session: sess}, nil
	})
}

func (h Routes) GetSession(w http.ResponseWriter, r *http.Request) {
	sess, err := h.Store.GetSession(r.Context(), r.PathValue("id"))
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	w.Header().Set("ETag", httpapi.QuoteETag(sess.ETag))
	httpapi.WriteJSON(w, http.StatusOK, SessionDoc{Session: sess})
}

func (h Routes) PutSession(w http.ResponseWriter, r *http.Request) {
	httpapi.DecodeAnswer(w, r, httpapi.DecodeJSON, func(u store.SessionUpdate) (SessionDoc, error) {
		sess, err := h.Store.UpdateSession(r.Context(), r.PathValue("id"), u)
		return SessionDoc{Session: sess}, err
	})
}

func (h Routes) DeleteSession(w http.ResponseWriter, r *http.Request) {
	httpapi.Answer(w, httpapi.OK{OK: true}, h.Store.DeleteSession(r.Context(), r.PathValue("id")))
}

func (h Routes) PostSessionClose(w http.ResponseWriter, r *http.Request) {
	sess, err := h.Store.CloseSession(r.Context(), r.PathValue("id"))
	httpapi.Answer(w, SessionDoc{Session: sess}, err)
}

func (h Routes) GetScreenImage(w http.ResponseWriter, r *http.Request) {
	h.serveFromSession(w, r, func(sess *store.Session) (string, error) {
		for _, sc := range sess.Screens {
			if sc.ScreenID == r.PathValue("screenId") {
				if sc.ImageArtifact == "" {
					return "", errcode.New(errcode.ScreenshotNotFound, "screen %s was saved without a screenshot", sc.ScreenID)
				}
				return sc.ImageArtifact, nil
			}
		}
		return "", errcode.New(errcode.ScreenNotFound, "no screen %s in session %s", errcode.Quote(r.PathValue("screenId")), sess.SessionID)
	})
}

// serveFromSession serves the PNG that pick finds in the session ?sessionId= names,
// or pick's error.
func (h Routes) serveFromSession(w http.ResponseWriter, r *http.Request, pick func(*store.Session) (string, error)) {
	sess, err := h.Store.GetSession(r.Context(), r.URL.Query().Get("sessionId"))
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	key, err := pick(sess)
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	ServeArtifact(w, r, h.Store, key, "image/png")
}

// ServeArtifact answers with a stored artifact (a screenshot, a crop, a capture).
func ServeArtifact(w http.ResponseWriter, r *http.Request, st *store.Store, key, contentType string) {
	data, err := st.ReadArtifact(r.Context(), key)
	if err != nil {
		httpapi.WriteError(w, errcode.Wrap(errcode.ScreenshotNotFound, err, "the screenshot file is missing from .fixthis/artifacts"))
		return
	}
	w.Header().Set("Content-Type", contentType)
	// Artifacts are named by content hash: they never change.
	w.Header().Set("Cache-Control", "private, max-age=31536000, immutable")
	_, _ = w.Write(data)
}
