package feedbackapi

import (
	"net/http"
	"strconv"

	"fixthis/app/errcode"
	"fixthis/app/httpapi"
	"fixthis/app/store"
)

// Size routes: the console's Check sizes on a saved item and the pictures of its
// latest check.

// SizeCheckRequest is the body of POST /api/items/{id}/check-sizes.
type SizeCheckRequest struct {
	SessionID string `json:"sessionId"`
}

// PostItemCheckSizes runs the check on sizes (feedback.Service.CheckSizes) on the
// selected phone and answers with the item, its new check on it.
func (h Routes) PostItemCheckSizes(w http.ResponseWriter, r *http.Request) {
	decodeItem(w, r, func(req SizeCheckRequest) (*store.Item, error) {
		if _, err := h.Feedback.CheckSizes(r.Context(), req.SessionID, r.PathValue("id")); err != nil {
			return nil, err
		}
		d, err := h.Store.ReadItem(r.Context(), req.SessionID, r.PathValue("id"))
		if err != nil {
			return nil, err
		}
		return &d.Item, nil
	})
}

// GetItemSizePicture serves one size's whole screen ("image") or crop ("crop") of
// the item's latest check; {n} counts sizes from 0.
func (h Routes) GetItemSizePicture(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 0 || n >= store.MaxSizeOutcomes {
		httpapi.WriteError(w, errcode.New(errcode.InvalidQuery, "size %s is not a size's number (0 to %d)", errcode.Quote(r.PathValue("n")), store.MaxSizeOutcomes-1))
		return
	}
	key, err := h.Store.SizePicture(r.Context(), r.PathValue("id"), n, r.PathValue("kind"))
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	ServeArtifact(w, r, h.Store, key, "image/png")
}
