// Package errcode is FixThis's one error model: every error a console or an agent can
// act on carries a typed Code. A Code has a stable name (the console API's `error`
// field) and a stable message prefix ("SESSION_CLOSED: …") that docs/console.md lists.
// Only the name and the prefix are contracts; the text after the prefix may change.
//
// This package knows nothing of HTTP: the app maps codes to statuses in one table, and
// the MCP tools turn them into tool errors.
package errcode

import (
	"errors"
	"fmt"
	"slices"
)

// Code is the stable, lowercase name of an error (`"session_closed"`).
type Code string

// The codes. Several share a prefix: the prefix tells a reader what kind of failure
// it is, the name tells the console which one.
const (
	SessionClosed       Code = "session_closed"
	SessionNotFound     Code = "session_not_found"
	ItemNotFound        Code = "item_not_found"
	ItemNotEditable     Code = "item_not_editable"
	ItemAlreadyResolved Code = "item_already_resolved"
	ItemClosedByUser    Code = "item_closed_by_user" // the user resolved, won't-fixed or deleted it: final
	ItemClaimed         Code = "item_claimed"        // another live agent holds the claim
	ItemNotClaimed      Code = "item_not_claimed"    // resolve or ask without holding the item's claim
	NoDraftFeedback     Code = "no_draft_feedback"
	ScreenNotFound      Code = "screen_not_found"
	BatchNotFound       Code = "batch_not_found"
	InvalidInput        Code = "invalid_input"
	InvalidJSON         Code = "invalid_json"
	InvalidQuery        Code = "invalid_query" // a query parameter that does not parse
	OutOfRange          Code = "out_of_range"  // a value outside its allowed range (the message names it), no language tag, or a display change naming nothing
	StalePreview        Code = "stale_preview"
	FingerprintMismatch Code = "screen_fingerprint_mismatch"
	StorageFull         Code = "storage_full"
	StorageReadOnly     Code = "storage_read_only"
	StorageFailed       Code = "storage_failed"

	DeviceNotAvailable Code = "device_not_available" // the selected device is offline or none is selected
	DeviceNotFound     Code = "device_not_found"     // no device with that serial
	ADBUnavailable     Code = "adb_unavailable"      // the adb server does not answer
	CaptureFailed      Code = "capture_failed"       // the device did not give a frame or tree
	TapFailed          Code = "tap_failed"           // `input tap` failed on the device
	PreviewNotFound    Code = "preview_not_found"    // a live or frozen frame is gone
	CaptureNotFound    Code = "capture_not_found"    // no agent capture with that id
	ControlRefused     Code = "control_refused"      // the user has not allowed agents to control the device
	VideoUnavailable   Code = "video_unavailable"    // the device cannot stream H.264, or --preview jpeg
	StageLimit         Code = "stage_limit"          // four phones are live already
	InputFailed        Code = "input_failed"         // an input command failed on the device
	NodeNotFound       Code = "node_not_found"       // no node on the screen matches a selector
	DisplayRefused     Code = "display_refused"      // the phone refused a display setting command
	ClipUnavailable    Code = "clip_unavailable"     // no live screen of the device is kept to cut a clip from
	ClipNotFound       Code = "clip_not_found"       // no clip with that id in the session

	RuntimeEvidenceOff Code = "runtime_evidence_off"         // the session's diagnostics policy is Off
	ScreenshotNotFound Code = "preview_screenshot_not_found" // a frame's image is gone (its tree may remain)
	SaveInProgress     Code = "preview_save_in_progress"     // another save of the same frame is running
	TooLarge           Code = "payload_too_large"            // a body or field over its size limit
	AppNotAvailable    Code = "app_not_available"            // the project has no Android application module
	AppNotInstalled    Code = "app_not_installed"            // the app is not on the selected device
	AppRunBusy         Code = "app_run_busy"                 // a build-install-launch is already running
	BuildFailed        Code = "build_failed"                 // the app's Gradle build failed
	AppLaunchFailed    Code = "app_launch_failed"            // am start failed or the app did not come to the front

	VoiceNoKey        Code = "voice_no_key"        // no OpenAI key in the environment or the keychain
	VoiceBusy         Code = "voice_busy"          // another console holds this project's voice session
	VoiceKeyRefused   Code = "voice_key_refused"   // OpenAI answered 401 to the key
	VoiceUpstream     Code = "voice_upstream"      // the Realtime server could not be reached or broke the protocol
	VoiceBriefRefused Code = "voice_brief_refused" // .fixthis/voice-brief.md is too long or looks like it holds a secret
	VoiceKeychain     Code = "voice_keychain"      // the OS keychain is missing or refused
	VoiceNotFound     Code = "voice_session_not_found"
	VoiceReconnecting Code = "voice_reconnecting" // the interviewer's socket is down for now

	ForbiddenHost   Code = "forbidden_host"   // a non-loopback Host header (DNS rebinding)
	ForbiddenOrigin Code = "forbidden_origin" // a foreign page tried to change state
	WrongToken      Code = "wrong_token"      // a token of the other surface (MCP vs console)
	Unauthorized    Code = "unauthorized"     // no token, or a wrong one

	NotFound Code = "not_found" // no such route
	Internal Code = "internal"  // anything without a code: a bug or an I/O failure
)

// prefixes is the one table from a code to the prefix its messages start with.
var prefixes = map[Code]string{
	SessionClosed:       "SESSION_CLOSED",
	SessionNotFound:     "SESSION_NOT_FOUND",
	ItemNotFound:        "ITEM_NOT_FOUND",
	ItemNotEditable:     "ITEM_NOT_EDITABLE",
	ItemAlreadyResolved: "ITEM_ALREADY_RESOLVED",
	ItemClosedByUser:    "ITEM_CLOSED_BY_USER",
	ItemClaimed:         "ITEM_CLAIMED",
	ItemNotClaimed:      "ITEM_NOT_CLAIMED",
	NoDraftFeedback:     "NO_DRAFT_FEEDBACK",
	ScreenNotFound:      "SCREEN_NOT_FOUND",
	BatchNotFound:       "BATCH_NOT_FOUND",
	InvalidInput:        "INVALID_INPUT",
	InvalidJSON:         "INVALID_INPUT",
	InvalidQuery:        "INVALID_INPUT",
	OutOfRange:          "INVALID_INPUT",
	StalePreview:        "STALE_PREVIEW",
	FingerprintMismatch: "SCREEN_FINGERPRINT_MISMATCH",
	StorageFull:         "STORAGE_FULL",
	StorageReadOnly:     "STORAGE_READ_ONLY",
	StorageFailed:       "STORAGE_FAILED",
	DeviceNotAvailable:  "DEVICE_NOT_AVAILABLE",
	DeviceNotFound:      "DEVICE_NOT_AVAILABLE",
	ADBUnavailable:      "DEVICE_NOT_AVAILABLE",
	CaptureFailed:       "DEVICE_NOT_AVAILABLE",
	TapFailed:           "DEVICE_NOT_AVAILABLE",
	PreviewNotFound:     "PREVIEW_NOT_FOUND",
	CaptureNotFound:     "CAPTURE_NOT_FOUND",
	ControlRefused:      "DEVICE_CONTROL_REFUSED",
	VideoUnavailable:    "VIDEO_UNAVAILABLE",
	StageLimit:          "STAGE_LIMIT",
	AppNotAvailable:     "APP_NOT_AVAILABLE",
	BuildFailed:         "BUILD_FAILED",
	AppNotInstalled:     "APP_NOT_INSTALLED",
	AppRunBusy:          "APP_RUN_BUSY",
	AppLaunchFailed:     "APP_LAUNCH_FAILED",
	InputFailed:         "INPUT_FAILED",
	NodeNotFound:        "NODE_NOT_FOUND",
	DisplayRefused:      "DISPLAY_REFUSED",
	ClipUnavailable:     "CLIP_UNAVAILABLE",
	ClipNotFound:        "CLIP_NOT_FOUND",
	RuntimeEvidenceOff:  "RUNTIME_EVIDENCE_OFF",
	ScreenshotNotFound:  "PREVIEW_SCREENSHOT_NOT_FOUND",
	SaveInProgress:      "PREVIEW_SAVE_IN_PROGRESS",
	TooLarge:            "PAYLOAD_TOO_LARGE",
	VoiceNoKey:          "VOICE_NO_KEY",
	VoiceBusy:           "VOICE_BUSY",
	VoiceKeyRefused:     "VOICE_KEY_REFUSED",
	VoiceUpstream:       "VOICE_UPSTREAM",
	VoiceBriefRefused:   "VOICE_BRIEF_REFUSED",
	VoiceKeychain:       "VOICE_KEYCHAIN",
	VoiceNotFound:       "VOICE_SESSION_NOT_FOUND",
	VoiceReconnecting:   "VOICE_RECONNECTING",
	ForbiddenHost:       "FORBIDDEN",
	ForbiddenOrigin:     "FORBIDDEN",
	WrongToken:          "FORBIDDEN",
	Unauthorized:        "UNAUTHORIZED",
	NotFound:            "NOT_FOUND",
	Internal:            "INTERNAL",
}

// Prefix is the stable message prefix of c ("SESSION_CLOSED").
func (c Code) Prefix() string {
	if p, ok := prefixes[c]; ok {
		return p
	}
	return "INTERNAL"
}

// Codes lists every code, for the status table's completeness test and the docs.
func Codes() []Code {
	out := make([]Code, 0, len(prefixes))
	for c := range prefixes {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// Error is an error with a code. Its message reads "PREFIX: what happened".
type Error struct {
	Code Code
	Msg  string
	Err  error // underlying cause, if any
}

func (e *Error) Error() string {
	if e.Msg == "" {
		return e.Code.Prefix() + ":"
	}
	return e.Code.Prefix() + ": " + e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

// ErrorCode makes *Error a Coded error.
func (e *Error) ErrorCode() Code { return e.Code }

// Coded is an error that carries a code. Error types with extra fields (a stale
// draft's server copy, a fingerprint mismatch's two fingerprints) implement it too.
type Coded interface {
	error
	ErrorCode() Code
}

// Is makes errors.Is(err, sentinel) match any *Error with the sentinel's code, where
// a sentinel is an *Error with only a Code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Msg == "" && t.Err == nil && t.Code == e.Code
}

// New returns an error with code and a formatted message (without the prefix).
func New(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// Wrap is New with an underlying cause that errors.Is and errors.As can reach.
func Wrap(code Code, err error, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...), Err: err}
}

// Of returns the code of err: the first Coded error in its chain, or Internal.
func Of(err error) Code {
	var c Coded
	if errors.As(err, &c) {
		return c.ErrorCode()
	}
	return Internal
}
