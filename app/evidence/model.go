// Package evidence collects runtime evidence for a feedback item: what the app
// was doing when the user pointed at it. A preset of allowlisted collectors
// (logcat, frames, memory, network) runs over adb in parallel, each under its own
// timeout; raw output is redacted before it is parsed or stored, and only
// bounded one-line summaries and typed status metadata leave this package.
//
// Each collector is two layers: a function that names the exact device
// command, and a parser tested against literal device output in testdata/.
package evidence

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Kind names a collector and the attachment it produces.
type Kind string

// The baseline preset's collectors.
const (
	KindLogcat Kind = "logcat"
	KindFrames Kind = "frames"
	KindMemory Kind = "memory"
	// KindNetwork is the HTTP calls the app logged (OkHttp, Ktor).
	KindNetwork Kind = "network"
)

// Kinds lists the baseline preset in the order results are shown.
var Kinds = []Kind{KindLogcat, KindFrames, KindMemory, KindNetwork}

// Status is the outcome of one collector or of a whole attempt.
type Status string

// Statuses. Skipped is only ever an attempt's status: Save to MCP under the
// Manual or Off policy records that it did not collect.
const (
	StatusComplete    Status = "complete"
	StatusPartial     Status = "partial"
	StatusFailed      Status = "failed"
	StatusUnsupported Status = "unsupported"
	StatusSkipped     Status = "skipped"
)

// Reason is a mapped, stable token for why a collector or attempt did not
// complete. Free-form error text never leaves the package: it may carry
// serials, paths or commands.
type Reason string

// Reasons.
const (
	ReasonNone              Reason = ""
	ReasonNoDevice          Reason = "no-device"
	ReasonDeviceGone        Reason = "device-gone"
	ReasonNoPackage         Reason = "no-package"
	ReasonProcessNotRunning Reason = "process-not-running"
	ReasonTimeout           Reason = "timeout"
	ReasonCommandFailed     Reason = "command-failed"
	ReasonUnparsable        Reason = "unparsable-output"
	ReasonStorageFailed     Reason = "storage-failed"
)

// Reasons lists every reason token (ReasonNone excepted).
var Reasons = []Reason{ReasonNoDevice, ReasonDeviceGone, ReasonNoPackage, ReasonProcessNotRunning,
	ReasonTimeout, ReasonCommandFailed, ReasonUnparsable, ReasonStorageFailed}

// MaxWarnings bounds an attempt's warning tokens.
const MaxWarnings = 8

// MaxSummary bounds a one-line summary, in characters.
const MaxSummary = 200

// Attachment is one collector's result.
type Attachment struct {
	Kind    Kind   `json:"kind"`
	Status  Status `json:"status"`
	Reason  Reason `json:"reason,omitempty"`
	Summary string `json:"summary"`
	// Artifact is the redacted raw output's path as shown to people and
	// agents (relative to the project); "" when nothing was stored.
	Artifact   string          `json:"artifact,omitempty"`
	DurationMs int64           `json:"durationMs"`
	Logcat     *LogcatSummary  `json:"logcat,omitempty"`
	Frames     *FrameSummary   `json:"frames,omitempty"`
	Memory     *MemorySummary  `json:"memory,omitempty"`
	Network    *NetworkSummary `json:"network,omitempty"`
}

// Attempt is one run of the preset for one item.
type Attempt struct {
	ID          string       `json:"id"` // the capture id, also the storage directory's name
	Package     string       `json:"package"`
	StartedAt   int64        `json:"startedAtEpochMillis"`
	DurationMs  int64        `json:"durationMs"`
	Status      Status       `json:"status"`
	Failure     Reason       `json:"failure,omitempty"`
	Warnings    []string     `json:"warnings"`
	Attachments []Attachment `json:"attachments"`
	Dir         string       `json:"dir,omitempty"` // the artifacts' directory, as shown

	storeWarnings []string // files that could not be written
}

// Attachment returns the result of the attempt's collector of kind k; one that did
// not run gives the zero Attachment, whose Kind is "". A preset runs each kind once.
func (a Attempt) Attachment(k Kind) Attachment {
	for _, at := range a.Attachments {
		if at.Kind == k {
			return at
		}
	}
	return Attachment{}
}

// finish derives the attempt's status, failure reason and warnings from its
// attachments: all complete is complete; none complete is unsupported when
// every collector was unsupported and failed otherwise; a mix is partial.
func (a *Attempt) finish() {
	complete, unsupported := 0, 0
	var warnings []string
	var firstFail Reason
	for _, at := range a.Attachments {
		switch at.Status {
		case StatusComplete:
			complete++
			continue
		case StatusUnsupported:
			unsupported++
		}
		if firstFail == ReasonNone {
			firstFail = at.Reason
		}
		warnings = append(warnings, string(at.Kind)+"-"+string(at.Reason))
	}
	n := len(a.Attachments)
	switch {
	case n > 0 && complete == n:
		a.Status = StatusComplete
	case complete > 0:
		a.Status = StatusPartial
	case n > 0 && unsupported == n:
		a.Status, a.Failure = StatusUnsupported, firstFail
	default:
		a.Status, a.Failure = StatusFailed, firstFail
		if a.Failure == ReasonNone {
			a.Failure = ReasonCommandFailed
		}
	}
	a.Warnings = boundWarnings(append(warnings, a.storeWarnings...))
}

// boundWarnings keeps at most MaxWarnings distinct tokens, in order.
func boundWarnings(in []string) []string {
	out := []string{}
	for _, w := range in {
		if w == "" || slices.Contains(out, w) {
			continue
		}
		if len(out) == MaxWarnings {
			break
		}
		out = append(out, w)
	}
	return out
}

// oneLine makes s a single bounded line: control characters become spaces,
// runs of spaces collapse, and anything past MaxSummary is cut with "…".
func oneLine(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if r < ' ' || r == 0x7f || r == '\u2028' || r == '\u2029' {
			r = ' '
		}
		if r == ' ' {
			if space || b.Len() == 0 {
				continue
			}
			space = true
		} else {
			space = false
		}
		b.WriteRune(r)
	}
	out := strings.TrimRight(b.String(), " ")
	if utf8.RuneCountInString(out) <= MaxSummary {
		return out
	}
	r := []rune(out)
	return strings.TrimRight(string(r[:MaxSummary-1]), " ") + "…"
}
