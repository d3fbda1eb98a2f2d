package store

import (
	"errors"
	"fmt"
	"syscall"

	"fixthis/app/errcode"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// The store's errors are ordinary coded errors of package errcode, the app's
// one error model; the app maps codes to HTTP statuses.

func errorf(code errcode.Code, format string, args ...any) error {
	return errcode.New(code, format, args...)
}

func invalid(format string, args ...any) error {
	return errorf(errcode.InvalidInput, format, args...)
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
		return fmt.Sprintf("%s: session was saved before (revision %s); resend with If-Match", errcode.StalePreview.Prefix(), e.ETag)
	}
	return fmt.Sprintf("%s: If-Match %s is stale; session is at %s", errcode.StalePreview.Prefix(), e.IfMatch, e.ETag)
}

// ErrorCode makes the error a coded one (errcode.Coded).
func (e *StaleDraftError) ErrorCode() errcode.Code { return errcode.StalePreview }

// FingerprintMismatchError is the 409 answer when the device moved on since
// the freeze. The app detects it (it owns the device); the store owns the
// mapping so every handler answers it the same way.
type FingerprintMismatchError struct {
	FrozenFingerprint  string `json:"frozenFingerprint"`
	CurrentFingerprint string `json:"currentFingerprint"`
}

func (e *FingerprintMismatchError) Error() string {
	return fmt.Sprintf("%s: screen changed since the freeze (frozen %s, now %s)",
		errcode.FingerprintMismatch.Prefix(), e.FrozenFingerprint, e.CurrentFingerprint)
}

// ErrorCode makes the error a coded one (errcode.Coded).
func (e *FingerprintMismatchError) ErrorCode() errcode.Code { return errcode.FingerprintMismatch }

// storageErr turns a disk-level failure during op into an error the user can
// act on ("store: disk full while saving batch"). Contract errors pass through.
func storageErr(op string, err error) error {
	if err == nil {
		return nil
	}
	var e *errcode.Error
	if errors.As(err, &e) {
		return err
	}
	var se *StaleDraftError
	if errors.As(err, &se) {
		return err
	}
	switch {
	case isDiskFull(err):
		return &errcode.Error{Code: errcode.StorageFull, Msg: "store: disk full while " + op + "; free some space and retry, nothing was saved", Err: err}
	case isReadOnly(err):
		return &errcode.Error{Code: errcode.StorageReadOnly, Msg: "store: " + DataDirName + " is read-only while " + op + "; make it writable and retry, nothing was saved", Err: err}
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

// inItem names the draft item an error is about, keeping the error's code
// and its prefix first ("INVALID_INPUT: item \"d1\": …").
func inItem(draftItemID string, err error) error {
	var e *errcode.Error
	if errors.As(err, &e) {
		return &errcode.Error{Code: e.Code, Msg: "item " + echo(draftItemID) + ": " + e.Msg, Err: e.Err}
	}
	return fmt.Errorf("item %s: %w", echo(draftItemID), err)
}
