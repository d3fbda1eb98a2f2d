package sidekick

import "encoding/json"

// The answers of the bridge methods, field for field as the sidekick serialises them
// (kotlinx.serialization with encodeDefaults on and explicitNulls off: every field
// with a default is written, a null one is left out). Pointer fields are the nullable
// ones.

// Rect is a rectangle in window pixels, as floats (FixThisRect).
type Rect struct {
	Left   float64 `json:"left"`
	Top    float64 `json:"top"`
	Right  float64 `json:"right"`
	Bottom float64 `json:"bottom"`
}

// Tree kinds of ComposeNode.TreeKind.
const (
	TreeMerged   = "MERGED"
	TreeUnmerged = "UNMERGED"
)

// Action names the sidekick lists in ComposeNode.Actions (SemanticsActions keys).
const (
	ActionOnClick      = "OnClick"
	ActionOnLongClick  = "OnLongClick"
	ActionScrollBy     = "ScrollBy"
	ActionSetText      = "SetText"
	ActionRequestFocus = "RequestFocus"
)

// ComposeNode is one semantics node (FixThisNode). UID is
// "compose:<rootIndex>:<merged|unmerged>:<composeNodeId>"; Path lists the node's
// ancestors from the root down, ending with itself: "root" for a root node,
// "node:<id>" for the others. Role is Compose's Role name (Button, Checkbox, Switch,
// RadioButton, Tab, Image, DropdownList, ValuePicker, Carousel).
type ComposeNode struct {
	UID                string            `json:"uid"`
	ComposeNodeID      int               `json:"composeNodeId"`
	RootIndex          int               `json:"rootIndex"`
	TreeKind           string            `json:"treeKind"`
	BoundsInWindow     Rect              `json:"boundsInWindow"`
	Text               []string          `json:"text"`
	EditableText       *string           `json:"editableText,omitempty"`
	ContentDescription []string          `json:"contentDescription"`
	Role               *string           `json:"role,omitempty"`
	TestTag            *string           `json:"testTag,omitempty"`
	StateDescription   *string           `json:"stateDescription,omitempty"`
	Selected           *bool             `json:"selected,omitempty"`
	Enabled            bool              `json:"enabled"`
	Actions            []string          `json:"actions"`
	IsPassword         bool              `json:"isPassword"`
	IsSensitive        bool              `json:"isSensitive"`
	Path               []string          `json:"path"`
	RawProperties      map[string]string `json:"rawProperties"`
}

// HasAction reports whether the node lists the action.
func (n ComposeNode) HasAction(name string) bool {
	for _, a := range n.Actions {
		if a == name {
			return true
		}
	}
	return false
}

// InspectedRoot is one Compose root of the activity's window (BridgeInspectedRoot).
type InspectedRoot struct {
	RootIndex      int           `json:"rootIndex"`
	BoundsInWindow Rect          `json:"boundsInWindow"`
	MergedNodes    []ComposeNode `json:"mergedNodes"`
	UnmergedNodes  []ComposeNode `json:"unmergedNodes"`
}

// InspectionError is an error the inspection met (FixThisError), e.g. NO_ACTIVITY,
// NO_DECOR_VIEW, ROOT_DISCOVERY_FAILED, SEMANTICS_MERGED_INSPECTION_FAILED.
type InspectionError struct {
	Code    string            `json:"code"`
	Message string            `json:"message"`
	Details map[string]string `json:"details"`
}

// ScreenInspection is the result of inspectCurrentScreen (BridgeScreenInspection).
// Activity is the resumed activity's fully qualified class name.
type ScreenInspection struct {
	Activity *string           `json:"activity,omitempty"`
	Roots    []InspectedRoot   `json:"roots"`
	Errors   []InspectionError `json:"errors"`
}

// MergedNodes counts the merged-tree nodes of every root.
func (s ScreenInspection) MergedNodes() int {
	n := 0
	for _, r := range s.Roots {
		n += len(r.MergedNodes)
	}
	return n
}

// Capabilities is what the sidekick can do (BridgeCapabilities).
type Capabilities struct {
	TargetEvidence     bool     `json:"targetEvidence"`
	DetailModes        []string `json:"detailModes"`
	ComposableIdentity bool     `json:"composableIdentity"`
}

// Status is the result of status (BridgeStatus). SocketName is the socket the
// server is bound to, which may carry a -1 / -2 suffix.
type Status struct {
	Activity              *string      `json:"activity,omitempty"`
	RootsCount            int          `json:"rootsCount"`
	SidekickVersion       string       `json:"sidekickVersion"`
	BridgeProtocolVersion string       `json:"bridgeProtocolVersion"`
	SourceIndexAvailable  bool         `json:"sourceIndexAvailable"`
	Capabilities          Capabilities `json:"capabilities"`
	ScreenInteractive     *bool        `json:"screenInteractive,omitempty"`
	KeyguardLocked        *bool        `json:"keyguardLocked,omitempty"`
	AppForeground         *bool        `json:"appForeground,omitempty"`
	PictureInPicture      *bool        `json:"pictureInPicture,omitempty"`
	InstallEpochMillis    *int64       `json:"installEpochMillis,omitempty"`
	SidekickBuildEpochMs  *int64       `json:"sidekickBuildEpochMs,omitempty"`
	SocketName            *string      `json:"socketName,omitempty"`
}

// HeartbeatResult is the result of heartbeat (BridgeHeartbeatResult).
type HeartbeatResult struct {
	Connected bool `json:"connected"`
}

// SourceIndexResult is the result of readSourceIndex (BridgeSourceIndexResult,
// BridgeModels.kt:168-171 at upstream v1.5.0): the Gradle plugin's source index
// (schema 1.3; decoded by app/source) when the APK carries a readable one, else why
// not (nothing when it carries none).
type SourceIndexResult struct {
	SourceIndexAvailable bool            `json:"sourceIndexAvailable"`
	SourceIndex          json.RawMessage `json:"sourceIndex,omitempty"`
	SourceIndexError     *string         `json:"sourceIndexError,omitempty"`
}

// MaxSourceIndexBytes is the sidekick's cap on the source index asset
// (BridgeSourceIndexReader.kt:55).
const MaxSourceIndexBytes = 4 << 20

// ScreenshotInfo is where a snapshot's PNG was saved (ScreenshotInfo, Models.kt:131-139
// of fixthis-compose-core at upstream v1.5.0).
type ScreenshotInfo struct {
	FullPath            *string `json:"fullPath,omitempty"`
	CropPath            *string `json:"cropPath,omitempty"`
	DesktopFullPath     *string `json:"desktopFullPath,omitempty"`
	DesktopCropPath     *string `json:"desktopCropPath,omitempty"`
	Width               *int    `json:"width,omitempty"`
	Height              *int    `json:"height,omitempty"`
	CaptureFailedReason *string `json:"captureFailedReason,omitempty"`
}

// ScreenSnapshot is the result of captureScreenSnapshot (BridgeScreenSnapshot,
// BridgeModels.kt:85-128). Params: {"currentFocusOutput": "<dumpsys window focus
// lines>"} (optional), which lets the app tell a permission dialog or the shade.
type ScreenSnapshot struct {
	Activity             *string          `json:"activity,omitempty"`
	Inspection           ScreenInspection `json:"inspection"`
	Screenshot           *ScreenshotInfo  `json:"screenshot,omitempty"`
	SourceIndexAvailable bool             `json:"sourceIndexAvailable"`
	Orientation          *string          `json:"orientation,omitempty"`
	WidthPx              *int             `json:"widthPx,omitempty"`
	HeightPx             *int             `json:"heightPx,omitempty"`
	DensityDpi           *int             `json:"densityDpi,omitempty"`
	WindowMode           *string          `json:"windowMode,omitempty"`
	SystemUIVisible      *bool            `json:"systemUiVisible,omitempty"`
	SystemUIKind         *string          `json:"systemUiKind,omitempty"`
	Fingerprint          *string          `json:"fingerprint,omitempty"`
}

// UIVerification is the result of verifyUiChange (BridgeUiVerificationResult,
// BridgeModels.kt:182-188). Params: {"expectedText": "…"}.
type UIVerification struct {
	Verified     bool    `json:"verified"`
	ExpectedText *string `json:"expectedText,omitempty"`
	MatchedText  *string `json:"matchedText,omitempty"`
	Message      *string `json:"message,omitempty"`
}

// ScreenshotRead is the result of readScreenshot (BridgeScreenshotReadResult,
// BridgeModels.kt:190-196). Params: {"kind": "full"|"crop", "source": "screenSnapshot"}.
type ScreenshotRead struct {
	Path     string `json:"path"`
	Kind     string `json:"kind"`
	MimeType string `json:"mimeType"`
	Base64   string `json:"base64"`
}

// NavigationRequest is performNavigation's params (BridgeNavigationRequest,
// NavigationPerformer.kt:14-48): action back | tap (x, y in window pixels) | swipe
// (direction up | down | left | right, distance in pixels).
type NavigationRequest struct {
	Action    string   `json:"action"`
	X         *float64 `json:"x,omitempty"`
	Y         *float64 `json:"y,omitempty"`
	Direction *string  `json:"direction,omitempty"`
	Distance  *float64 `json:"distance,omitempty"`
}

// NavigationResult is performNavigation's result (BridgeNavigationResult,
// NavigationPerformer.kt:50-56).
type NavigationResult struct {
	Performed bool    `json:"performed"`
	Action    string  `json:"action"`
	Activity  *string `json:"activity,omitempty"`
	Message   *string `json:"message,omitempty"`
}
