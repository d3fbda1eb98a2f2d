package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// apiError is the one error shape of the console API: {"error": code, "message": text}.
type apiError struct {
	Status  int    `json:"-"`
	Code    string `json:"error"`
	Message string `json:"message"`
}

func (e *apiError) Error() string { return e.Code + ": " + e.Message }

func errorf(status int, code, format string, args ...any) *apiError {
	return &apiError{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

// writeJSON encodes v. A failed write means the client went away; there is nobody to
// tell, so it is dropped quietly (the contract's "close quietly on disconnect").
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError maps any error to the API's error shape. Errors that know their HTTP
// status (apiError, or anything implementing httpStatuser) keep it; the rest are 500.
func writeError(w http.ResponseWriter, err error) {
	var ae *apiError
	if errors.As(err, &ae) {
		writeJSON(w, ae.Status, ae)
		return
	}
	var hs httpStatuser
	if errors.As(err, &hs) {
		status, code := hs.HTTPStatus()
		writeJSON(w, status, apiError{Code: code, Message: err.Error()})
		return
	}
	writeJSON(w, http.StatusInternalServerError, apiError{Code: "internal", Message: err.Error()})
}

// httpStatuser is implemented by domain errors (store, devices) that carry a status.
type httpStatuser interface {
	HTTPStatus() (status int, code string)
}

// decodeJSON reads a bounded JSON body into v.
func decodeJSON(r *http.Request, v any) error {
	body := io.LimitReader(r.Body, 32<<20)
	dec := json.NewDecoder(body)
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return errorf(http.StatusBadRequest, "invalid_json", "request body is empty; expected a JSON object")
		}
		return errorf(http.StatusBadRequest, "invalid_json", "request body is not valid JSON: %v", err)
	}
	return nil
}
