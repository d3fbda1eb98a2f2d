package feedbackapi

import (
	"net/http"

	"fixthis/app/httpapi"
	"fixthis/app/store"
)

// Most routes decode a body, make one call and answer with what it returned. These
// keep that sequence, and the rule that an error is the whole answer, in one place.

// answer writes v with 200, or err instead when there is one.
func answer(w http.ResponseWriter, v any, err error) {
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, v)
}

// decodeAnswer reads the body into a Req with decode (httpapi.DecodeJSON, or
// httpapi.DecodeOptionalJSON where the body may be empty) and answers with what do
// returns for it; a body that does not decode is a 400 and do is not called.
func decodeAnswer[Req, Res any](w http.ResponseWriter, r *http.Request, decode func(*http.Request, any) error, do func(Req) (Res, error)) {
	var req Req
	if err := decode(r, &req); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	res, err := do(req)
	answer(w, res, err)
}

// decodeItem is decodeAnswer for the item routes, whose body is required and whose
// answer is the changed item.
func decodeItem[Req any](w http.ResponseWriter, r *http.Request, do func(Req) (*store.Item, error)) {
	decodeAnswer(w, r, httpapi.DecodeJSON, func(req Req) (ItemDoc, error) {
		it, err := do(req)
		return ItemDoc{Item: it}, err
	})
}
