package store

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"syscall"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Code is a stable machine-readable error prefix from the console contract.
// Only the prefix is a contract; the text after it may change.
type Code string

// Contract prefixes (console contract, "Session store error-code prefixes"),
// plus the store's own validation and storage codes.
const (
	CodeSessionClosed       Code = "SESSION_CLOSED"
	CodeSessionNotFound     Code = "SESSION_NOT_FOUND"
	CodeItemNotFound        Code = "ITEM_NOT_FOUND"
	CodeItemNotEditable     Code = "ITEM_NOT_EDITABLE"
	CodeItemAlreadyResolved Code = "ITEM_ALREADY_RESOLVED"
	CodeNoDraftFeedback     Code = "NO_DRAFT_FEEDBACK"
	CodeScreenNotFound      Code = "SCREEN_NOT_FOUND"
	CodeBatchNotFound       Code = "BATCH_NOT_FOUND"
	CodeInvalidInput        Code = "INVALID_INPUT"
	CodeStalePreview        Code = "STALE_PREVIEW"
	CodeFingerprintMismatch Code = "SCREEN_FINGERPRINT_MISMATCH"
	CodeStorageFull         Code = "STORAGE_FULL"
	CodeStorageReadOnly     Code = "STORAGE_READ_ONLY"
	CodeStorageFailed       Code = "STORAGE_FAILED"
)

// codeInfo is the one table mapping a prefix to its HTTP status and the
// lowercase `error` field of a console API error body.
var codeInfo = map[Code]struct {
	status int
	name   string
}{
	CodeSessionClosed:       {http.StatusConflict, "session_closed"},
	CodeSessionNotFound:     {http.StatusNotFound, "session_not_found"},
	CodeItemNotFound:        {http.StatusNotFound, "item_not_found"},
	CodeItemNotEditable:     {http.StatusConflict, "item_not_editable"},
	CodeItemAlreadyResolved: {http.StatusConflict, "item_already_resolved"},
	CodeNoDraftFeedback:     {http.StatusConflict, "no_draft_feedback"},
	CodeScreenNotFound:      {http.StatusNotFound, "screen_not_found"},
	CodeBatchNotFound:       {http.StatusNotFound, "batch_not_found"},
	CodeInvalidInput:        {http.StatusUnprocessableEntity, "invalid_input"},
	CodeStalePreview:        {http.StatusPreconditionFailed, "stale_preview"},
	CodeFingerprintMismatch: {http.StatusConflict, "screen_fingerprint_mismatch"},
	CodeStorageFull:         {http.StatusInsufficientStorage, "storage_full"},
	CodeStorageReadOnly:     {http.StatusServiceUnavailable, "storage_read_only"},
	CodeStorageFailed:       {http.StatusInternalServerError, "storage_failed"},
}

// Error is a store error carrying a contract prefix. Its message reads
// "PREFIX: what happened", as the console contract requires.
type Error struct {
	Code Code
	Msg  string
	Err  error // underlying cause, if any
}

func (e *Error) Error() string {
	if e.Msg == "" {
		return string(e.Code) + ":"
	}
	return string(e.Code) + ": " + e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrSessionClosed) match any *Error with that code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Msg == "" && t.Err == nil && t.Code == e.Code
}

// Sentinels for errors.Is; they match every error carrying the same code.
var (
	ErrSessionClosed       = &Error{Code: CodeSessionClosed}
	ErrSessionNotFound     = &Error{Code: CodeSessionNotFound}
	ErrItemNotFound        = &Error{Code: CodeItemNotFound}
	ErrItemNotEditable     = &Error{Code: CodeItemNotEditable}
	ErrItemAlreadyResolved = &Error{Code: CodeItemAlreadyResolved}
	ErrNoDraftFeedback     = &Error{Code: CodeNoDraftFeedback}
	ErrScreenNotFound      = &Error{Code: CodeScreenNotFound}
	ErrBatchNotFound       = &Error{Code: CodeBatchNotFound}
	ErrInvalidInput        = &Error{Code: CodeInvalidInput}
	ErrStalePreview        = &Error{Code: CodeStalePreview}
	ErrFingerprintMismatch = &Error{Code: CodeFingerprintMismatch}
	ErrStorageFull         = &Error{Code: CodeStorageFull}
	ErrStorageReadOnly     = &Error{Code: CodeStorageReadOnly}
)

func errorf(code Code, format string, args ...any) error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

func invalid(format string, args ...any) error {
	return errorf(CodeInvalidInput, format, args...)
}

// StaleDraftError is the 412 answer to a batch save whose If-Match does not
// name the session's current revision. ServerDraft lets the console offer
// "Use server's version" without another request.
type StaleDraftError struct {
	IfMatch     string
	ETag        string
	ServerDraft *Session
}

func (e *StaleDraftError) Error() string {
	if e.IfMatch == "" {
		return fmt.Sprintf("%s: session was saved before (revision %s); resend with If-Match", CodeStalePreview, e.ETag)
	}
	return fmt.Sprintf("%s: If-Match %s is stale; session is at %s", CodeStalePreview, e.IfMatch, e.ETag)
}

func (e *StaleDraftError) Is(target error) bool { return target == ErrStalePreview }

// FingerprintMismatchError is the 409 answer when the device moved on since
// the freeze. The app detects it (it owns the device); the store owns the
// mapping so every handler answers it the same way.
type FingerprintMismatchError struct {
	FrozenFingerprint  string `json:"frozenFingerprint"`
	CurrentFingerprint string `json:"currentFingerprint"`
}

func (e *FingerprintMismatchError) Error() string {
	return fmt.Sprintf("%s: screen changed since the freeze (frozen %s, now %s)",
		CodeFingerprintMismatch, e.FrozenFingerprint, e.CurrentFingerprint)
}

func (e *FingerprintMismatchError) Is(target error) bool { return target == ErrFingerprintMismatch }

// HTTPStatus maps any error returned by the store to an HTTP status and the
// lowercase error code of the console API body. Unknown errors are 500.
func HTTPStatus(err error) (status int, code string) {
	if err == nil {
		return http.StatusOK, ""
	}
	var se *StaleDraftError
	if errors.As(err, &se) {
		return codeStatus(CodeStalePreview)
	}
	var fe *FingerprintMismatchError
	if errors.As(err, &fe) {
		return codeStatus(CodeFingerprintMismatch)
	}
	var e *Error
	if errors.As(err, &e) {
		return codeStatus(e.Code)
	}
	return http.StatusInternalServerError, "internal"
}

func codeStatus(c Code) (int, string) {
	if info, ok := codeInfo[c]; ok {
		return info.status, info.name
	}
	return http.StatusInternalServerError, strings.ToLower(string(c))
}

// storageErr turns a disk-level failure during op into an error the user can
// act on ("store: disk full while saving batch"). Contract errors pass through.
func storageErr(op string, err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	var se *StaleDraftError
	if errors.As(err, &se) {
		return err
	}
	switch {
	case isDiskFull(err):
		return &Error{Code: CodeStorageFull, Msg: "store: disk full while " + op + "; free some space and retry, nothing was saved", Err: err}
	case isReadOnly(err):
		return &Error{Code: CodeStorageReadOnly, Msg: "store: " + DataDirName + " is read-only while " + op + "; make it writable and retry, nothing was saved", Err: err}
	}
	return fmt.Errorf("store: %s: %w", op, err)
}

func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() & 0xff
	}
	return 0
}

func isDiskFull(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) || sqliteCode(err) == sqlite3.SQLITE_FULL
}

func isReadOnly(err error) bool {
	if errors.Is(err, syscall.EROFS) || errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM) {
		return true
	}
	c := sqliteCode(err)
	return c == sqlite3.SQLITE_READONLY || c == sqlite3.SQLITE_CANTOPEN
}
