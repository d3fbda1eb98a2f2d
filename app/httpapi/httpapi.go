// Package httpapi is how every console API handler reads a request body and answers:
// one bounded, strictly checked JSON decoder, one JSON writer, and one table from an
// error's code to its HTTP status.
package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"

	"fixthis/app/errcode"
	"fixthis/app/store"
	"fixthis/internal/jsontext"
)

// statusOf is the one table from an error code to the HTTP status the console API
// answers it with. A code missing here is a 500 (and a failing test).
var statusOf = map[errcode.Code]int{
	errcode.SessionClosed:       http.StatusConflict,
	errcode.SessionNotFound:     http.StatusNotFound,
	errcode.ItemNotFound:        http.StatusNotFound,
	errcode.ItemNotEditable:     http.StatusConflict,
	errcode.ItemAlreadyResolved: http.StatusConflict,
	errcode.ItemClosedByUser:    http.StatusConflict,
	errcode.ItemClaimed:         http.StatusConflict,
	errcode.ItemNotClaimed:      http.StatusConflict,
	errcode.NoDraftFeedback:     http.StatusConflict,
	errcode.ScreenNotFound:      http.StatusNotFound,
	errcode.BatchNotFound:       http.StatusNotFound,
	errcode.InvalidInput:        http.StatusUnprocessableEntity,
	errcode.InvalidJSON:         http.StatusBadRequest,
	errcode.InvalidQuery:        http.StatusBadRequest,
	errcode.OutOfRange:          http.StatusBadRequest,
	errcode.StalePreview:        http.StatusPreconditionFailed,
	errcode.FingerprintMismatch: http.StatusConflict,
	errcode.StorageFull:         http.StatusInsufficientStorage,
	errcode.StorageReadOnly:     http.StatusServiceUnavailable,
	errcode.StorageFailed:       http.StatusInternalServerError,
	errcode.DeviceNotAvailable:  http.StatusConflict,
	errcode.DeviceNotFound:      http.StatusNotFound,
	errcode.ADBUnavailable:      http.StatusServiceUnavailable,
	errcode.CaptureFailed:       http.StatusBadGateway,
	errcode.TapFailed:           http.StatusBadGateway,
	errcode.PreviewNotFound:     http.StatusNotFound,
	errcode.CaptureNotFound:     http.StatusNotFound,
	errcode.ControlRefused:      http.StatusForbidden,
	errcode.VideoUnavailable:    http.StatusConflict,
	errcode.StageLimit:          http.StatusConflict,
	errcode.ClipUnavailable:     http.StatusConflict,
	errcode.ClipNotFound:        http.StatusNotFound,
	errcode.AppNotAvailable:     http.StatusNotFound,
	errcode.AppNotInstalled:     http.StatusConflict,
	errcode.AppRunBusy:          http.StatusConflict,
	errcode.AppLaunchFailed:     http.StatusBadGateway,
	errcode.InputFailed:         http.StatusBadGateway,
	errcode.DisplayRefused:      http.StatusBadGateway,
	errcode.NodeNotFound:        http.StatusNotFound,
	errcode.RuntimeEvidenceOff:  http.StatusConflict,
	errcode.ScreenshotNotFound:  http.StatusNotFound,
	errcode.SaveInProgress:      http.StatusConflict,
	errcode.TooLarge:            http.StatusRequestEntityTooLarge,
	errcode.VoiceNoKey:          http.StatusPreconditionFailed,
	errcode.VoiceBusy:           http.StatusConflict,
	errcode.VoiceKeyRefused:     http.StatusBadGateway,
	errcode.VoiceUpstream:       http.StatusBadGateway,
	errcode.VoiceBriefRefused:   http.StatusUnprocessableEntity,
	errcode.VoiceKeychain:       http.StatusServiceUnavailable,
	errcode.VoiceNotFound:       http.StatusNotFound,
	errcode.VoiceReconnecting:   http.StatusServiceUnavailable,
	errcode.ForbiddenHost:       http.StatusForbidden,
	errcode.ForbiddenOrigin:     http.StatusForbidden,
	errcode.WrongToken:          http.StatusForbidden,
	errcode.Unauthorized:        http.StatusUnauthorized,
	errcode.BuildFailed:         http.StatusUnprocessableEntity,
	errcode.NotFound:            http.StatusNotFound,
	errcode.Internal:            http.StatusInternalServerError,
}

// OK is the answer of actions that return nothing else.
type OK struct {
	OK bool `json:"ok"`
}

// ErrorBody is the one error shape of the console API. The extra fields are set only
// for the errors whose dialogs need them (412 stale draft, 409 fingerprint mismatch).
type ErrorBody struct {
	Error   errcode.Code `json:"error"`
	Message string       `json:"message"`

	State       string         `json:"state,omitempty"`       // "STALE_PREVIEW" on a 412
	ServerDraft *store.Session `json:"serverDraft,omitempty"` // the server's copy on a 412
	ETag        string         `json:"etag,omitempty"`        // its revision on a 412

	FrozenFingerprint  string `json:"frozenFingerprint,omitempty"`  // on a 409 mismatch
	CurrentFingerprint string `json:"currentFingerprint,omitempty"` // on a 409 mismatch
}

// WriteJSON encodes v. A failed write means the client went away; there is nobody to
// tell, so it is dropped quietly.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// WriteError answers any error: its code decides the status, its message (which
// starts with the code's prefix) is the text.
func WriteError(w http.ResponseWriter, err error) {
	code := errcode.Of(err)
	status, ok := statusOf[code]
	if !ok {
		status = http.StatusInternalServerError
	}
	body := ErrorBody{Error: code, Message: err.Error()}
	var stale *store.StaleDraftError
	var mismatch *store.FingerprintMismatchError
	switch {
	case errors.As(err, &stale):
		body.State = stale.ErrorCode().Prefix()
		body.ServerDraft = stale.ServerDraft
		body.ETag = QuoteETag(stale.ETag)
	case errors.As(err, &mismatch):
		body.FrozenFingerprint = mismatch.FrozenFingerprint
		body.CurrentFingerprint = mismatch.CurrentFingerprint
	}
	WriteJSON(w, status, body)
}

// QuoteETag puts an ETag in the quotes HTTP wants (once).
func QuoteETag(tag string) string {
	if tag == "" || strings.HasPrefix(tag, `"`) {
		return tag
	}
	return `"` + tag + `"`
}

// InvalidInput is the 422 answer to a request whose fields are wrong.
func InvalidInput(format string, args ...any) error {
	return errcode.New(errcode.InvalidInput, format, args...)
}

// maxBodyBytes bounds one console API request body (a batch save with its
// screenshot-free JSON stays far below it).
const maxBodyBytes = 32 << 20

// DecodeJSON is the one way a handler reads its body: one bounded JSON value
// into v. A body over the bound is 413, never a misleading invalid_json; a
// body that is not UTF-8 (or escapes half a surrogate pair), or carries
// anything but white space after the value, is refused rather than stored
// with U+FFFD in place of what was sent.
func DecodeJSON(r *http.Request, v any) error {
	tooLarge := errcode.New(errcode.TooLarge, "request body is larger than %d MiB", maxBodyBytes>>20)
	if r.ContentLength > maxBodyBytes {
		return tooLarge
	}
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxBodyBytes))
	var big *http.MaxBytesError
	switch {
	case errors.As(err, &big):
		return tooLarge
	case err != nil:
		return errcode.Wrap(errcode.InvalidJSON, err, "request body could not be read")
	}
	return decodeBody(body, v)
}

// DecodeOptionalJSON is DecodeJSON for routes whose body may be left out.
func DecodeOptionalJSON(r *http.Request, v any) error {
	if r.ContentLength == 0 {
		return nil
	}
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxBodyBytes))
	var big *http.MaxBytesError
	switch {
	case errors.As(err, &big):
		return errcode.New(errcode.TooLarge, "request body is larger than %d MiB", maxBodyBytes>>20)
	case err != nil:
		return errcode.Wrap(errcode.InvalidJSON, err, "request body could not be read")
	case len(bytes.TrimSpace(body)) == 0:
		return nil
	}
	return decodeBody(body, v)
}

// decodeBody decodes one JSON value from body into v, refusing invalid
// text and trailing data.
func decodeBody(body []byte, v any) error {
	if err := jsontext.Check(body); err != nil {
		return errcode.New(errcode.InvalidJSON, "request body %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return errcode.New(errcode.InvalidJSON, "request body is empty; expected a JSON object")
		}
		return decodeError(err)
	}
	if rest := bytes.TrimSpace(body[dec.InputOffset():]); len(rest) > 0 {
		return errcode.New(errcode.InvalidJSON, "request body has data after its JSON value: %s", errcode.Quote(string(rest)))
	}
	return nil
}

// decodeError says in one sentence what is wrong with a body the JSON decoder
// refused, never in the decoder's own words (Go struct and type names).
func decodeError(err error) error {
	var typ *json.UnmarshalTypeError
	if !errors.As(err, &typ) {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			return errcode.New(errcode.InvalidJSON, "request body is not valid JSON: it breaks off at byte %d", syntax.Offset)
		}
		return errcode.New(errcode.InvalidJSON, "request body is not valid JSON")
	}
	if typ.Field == "" {
		return errcode.New(errcode.InvalidJSON, "request body must be a JSON object, not %s", jsonKindOf(typ.Value))
	}
	if number, ok := strings.CutPrefix(typ.Value, "number "); ok && isInteger(typ.Type.Kind()) {
		if strings.ContainsAny(number, ".eE") {
			// Every position and size the console sends is in whole device pixels.
			return errcode.New(errcode.InvalidJSON, "%s must be a whole number, not %s", typ.Field, errcode.Quote(number))
		}
		return errcode.New(errcode.InvalidJSON, "%s is out of range: %s", typ.Field, errcode.Quote(number))
	}
	return errcode.New(errcode.InvalidJSON, "%s must be %s, not %s", typ.Field, goKindName(typ.Type.Kind()), jsonKindOf(typ.Value))
}

func isInteger(k reflect.Kind) bool {
	return k >= reflect.Int && k <= reflect.Uint64
}

// jsonKindOf names the JSON value the decoder met ("number 1.5" → "a number").
func jsonKindOf(value string) string {
	kind, _, _ := strings.Cut(value, " ")
	switch kind {
	case "array":
		return "a list"
	case "object":
		return "an object"
	case "bool":
		return "true or false"
	case "":
		return "that value"
	}
	return "a " + kind
}

// goKindName names what a field of kind k holds, in JSON's terms.
func goKindName(k reflect.Kind) string {
	switch {
	case k == reflect.String:
		return "a string"
	case k == reflect.Bool:
		return "true or false"
	case isInteger(k):
		return "a whole number"
	case k == reflect.Float32 || k == reflect.Float64:
		return "a number"
	case k == reflect.Slice || k == reflect.Array:
		return "a list"
	}
	return "an object"
}
