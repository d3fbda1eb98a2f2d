package httpapi

import "net/http"

// Most routes decode a body, make one call and answer with what it returned. These
// keep that sequence, and the rule that an error is the whole answer, in one place.

// Answer writes v with 200, or err instead when there is one.
func Answer(w http.ResponseWriter, v any, err error) {
	if err != nil {
		WriteError(w, err)
		return
	}
	WriteJSON(w, http.StatusOK, v)
}

// DecodeAnswer reads the body into a Req with decode (DecodeJSON, or
// DecodeOptionalJSON where the body may be empty) and answers with what do returns
// for it; a body that does not decode is a 400 and do is not called.
func DecodeAnswer[Req, Res any](w http.ResponseWriter, r *http.Request, decode func(*http.Request, any) error, do func(Req) (Res, error)) {
	var req Req
	if err := decode(r, &req); err != nil {
		WriteError(w, err)
		return
	}
	res, err := do(req)
	Answer(w, res, err)
}
