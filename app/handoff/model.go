// Package handoff renders a feedback session as the compact agent prompt
// (grammar v2, docs/prompt.md) and as full JSON and
// Markdown exports.
// It owns its input model; the app converts stored records into it.
package handoff

import (
	"time"

	"fixthis/app/source"
)

// Session is the set of screens and annotations to hand off.
type Session struct {
	ID        string    `json:"sessionId"`
	Title     string    `json:"title,omitempty"`
	Package   string    `json:"package"`
	Status    string    `json:"status,omitempty"`
	CreatedAt time.Time `json:"createdAt,omitzero"`
	// Build is the app build the feedback was handed off against (nil: unknown).
	Build   *Build   `json:"appBuild,omitempty"`
	Screens []Screen `json:"screens"`
	Items   []Item   `json:"items"`
}

// Build is the installed build of the user's app and the project's source state
// at handoff, so the agent knows which build the screenshots came from.
type Build struct {
	Package     string    `json:"package"`
	VersionName string    `json:"versionName,omitempty"`
	VersionCode int       `json:"versionCode,omitempty"`
	Installed   time.Time `json:"lastUpdateTime,omitzero"`
	GitHead     string    `json:"gitHead,omitempty"`
	GitDirty    bool      `json:"gitDirty,omitempty"`
}

// Screen is a persisted saved screen.
type Screen struct {
	ID             string  `json:"screenId"` // UUID; the prompt shows its first 8 characters
	DisplayName    string  `json:"displayName"`
	ScreenshotPath string  `json:"screenshotPath,omitempty"`
	Width          int     `json:"width,omitempty"`
	Height         int     `json:"height,omitempty"`
	Activity       string  `json:"activity,omitempty"`
	Density        float64 `json:"density,omitempty"` // dp scale; 0 means the grammar's default 1.0
	Fingerprint    string  `json:"fingerprint,omitempty"`
	// What the window list showed at capture time.
	Rotation int    `json:"rotation,omitempty"`     // 0-3 quarter turns from the panel's natural orientation
	Dialog   string `json:"dialogWindow,omitempty"` // title of the dialog window the UI tree came from
	Keyboard *Box   `json:"keyboard,omitempty"`     // the on-screen keyboard's keys, when it was shown
	Secure   bool   `json:"secure,omitempty"`       // FLAG_SECURE: captures of this screen are black
	// Display is the display conditions the screen was drawn under, only what
	// differs from the phone's defaults ("night, fontScale=1.3, locale=ar").
	Display string `json:"display,omitempty"`
	// Serial is the phone the screen was frozen on ("" when not recorded): with
	// several phones connected, the one to name when acting on this screen.
	Serial string `json:"serial,omitempty"`
}

// Box is a rectangle in screen pixels.
type Box struct {
	Left   int `json:"left"`
	Top    int `json:"top"`
	Right  int `json:"right"`
	Bottom int `json:"bottom"`
}

// Target kinds.
const (
	TargetNode   = "node"
	TargetArea   = "area"
	TargetScreen = "screen"
)

// Target is what an annotation points at, with the node snapshot kept at
// comment time.
type Target struct {
	Kind               string `json:"type"` // node | area | screen
	Box                Box    `json:"bounds"`
	Role               string `json:"role,omitempty"`
	Tag                string `json:"testTag,omitempty"`
	Text               string `json:"text,omitempty"`
	ContentDescription string `json:"contentDescription,omitempty"`
	Class              string `json:"class,omitempty"`
	// Path is the node's index path in the UI tree ("0/2/1"); its string order
	// numbers list-rendered instances.
	Path      string `json:"indexPath,omitempty"`
	Sensitive bool   `json:"sensitive,omitempty"` // text redacted at capture
	Editable  bool   `json:"editable,omitempty"`
	Password  bool   `json:"password,omitempty"`
	Interop   bool   `json:"interop,omitempty"` // inside an AndroidView/WebView host
}

// Severity values.
const (
	SeverityHigh = "high"
	SeverityMed  = "med"
	SeverityLow  = "low"
)

// Item is one annotation.
type Item struct {
	ID       string `json:"itemId"`
	ScreenID string `json:"screenId"`
	Sequence int    `json:"sequenceNumber"`
	Severity string `json:"severity"`
	Comment  string `json:"comment"`
	Target   Target `json:"target"`
	CropPath string `json:"cropPath,omitempty"`
	// Said is the user's own words for an item made from speech ("" for a typed one).
	Said string `json:"said,omitempty"`
	// Check is the audit check an item added from a finding names (touch_target,
	// text_contrast, ...; "" for an item the user wrote).
	Check string `json:"check,omitempty"`
	// Clip is a screen clip the user attached: what moved.
	Clip *Clip `json:"clip,omitempty"`
	// Sizes is the item's latest check on window sizes, in the order shown.
	Sizes        []SizeResult         `json:"sizes,omitempty"`
	Candidates   []source.Candidate   `json:"sourceCandidates,omitempty"`
	EditSurfaces []source.EditSurface `json:"editSurfaces,omitempty"`
	Warnings     []string             `json:"warnings,omitempty"`
	// TargetConfidence is high | medium | low | unknown when the capture
	// layer graded the target; empty lets the renderer derive it silently.
	TargetConfidence   string            `json:"targetConfidence,omitempty"`
	ForcedMismatch     bool              `json:"forcedMismatch,omitempty"`
	MissingFingerprint bool              `json:"missingFingerprint,omitempty"`
	RuntimeEvidence    []RuntimeEvidence `json:"runtimeEvidence,omitempty"`
	// Network is the HTTP calls of the item's newest capture, when it read any.
	Network *NetworkCalls `json:"network,omitempty"`

	// Lifecycle, carried into the full exports only.
	Delivery      string    `json:"delivery,omitempty"`
	Status        string    `json:"status,omitempty"`
	ResolvedBy    string    `json:"resolvedBy,omitempty"`
	AgentSummary  string    `json:"agentSummary,omitempty"`
	AgentQuestion string    `json:"agentQuestion,omitempty"`
	UserAnswer    string    `json:"userAnswer,omitempty"`
	CreatedAt     time.Time `json:"createdAt,omitzero"`
	// Verification is the agent's check of its fix and the user's verdict on it.
	Verification *Verification `json:"verification,omitempty"`
}

// Clip is a screen clip of an item for the agent, who cannot watch it: the file, its
// frame strip and the timeline in words.
type Clip struct {
	Path           string `json:"path"`
	DurationMs     int64  `json:"durationMs"`
	Frames         int    `json:"frames"`
	Width          int    `json:"width"`
	Height         int    `json:"height"`
	FrameStripPath string `json:"frameStripPath,omitempty"`
	Stalls         int    `json:"stalls"`
	LongestStallMs int64  `json:"longestStallMs"`
	// Timeline is the pictures in one line: runs of motion and the stalls between.
	Timeline string `json:"timeline"`
}

// Verification is the agent's after-fix capture of an item and the user's verdict.
type Verification struct {
	AfterScreenshotPath string `json:"afterScreenshotPath,omitempty"`
	Summary             string `json:"summary"`               // what changed in the item's region
	Verdict             string `json:"verdict,omitempty"`     // verified | reopened, "" while unchecked
	VerdictNote         string `json:"verdictNote,omitempty"` // why the user reopened it
}

// RuntimeEvidence is a bounded summary of locally collected diagnostics.
type RuntimeEvidence struct {
	Type         string `json:"type"` // logcat | frame | memory | …
	ArtifactPath string `json:"artifactPath,omitempty"`
	Summary      string `json:"summary"`
}

// NetworkCalls is what the item's newest capture read of the app's HTTP
// calls: how many, and the failed (no response, or status >= 400) and slow
// (> 1 s) ones in a few words each (`POST api.example.com/v1/fav 500`).
type NetworkCalls struct {
	Total  int      `json:"total"`
	Failed []string `json:"failed,omitempty"`
	Slow   []string `json:"slow,omitempty"`
}

// EvidenceAttempt records the automatic runtime-evidence decision of a
// Save-to-MCP handoff; Copy Prompt never sets it.
type EvidenceAttempt struct {
	Attempted bool     `json:"attempted"`
	Status    string   `json:"status"` // complete | partial | failed | unsupported | skipped
	Failure   string   `json:"failure,omitempty"`
	Reason    string   `json:"reason,omitempty"` // manual | off | skipped
	Warnings  []string `json:"warnings,omitempty"`
}

// Options tune one rendering.
type Options struct {
	// ItemIDs limits the prompt to these items; empty means every item.
	ItemIDs []string
	// NoSource explains items without candidates on their unknown line:
	// source.NoMatch when empty, or why the index is not ready.
	NoSource source.Readiness
	// Attempt appends the runtimeEvidenceAttempt block (Save to MCP only).
	Attempt *EvidenceAttempt
}
