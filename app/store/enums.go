package store

// The store's closed sets of values as they appear on the wire (docs/api.md).
// Each is a named string type with a list of its values, so the wire
// generator (app/wire) turns it into a union of string literals and the
// console cannot send or expect a value the server does not know.

// SessionStatus is whether a session still takes feedback.
type SessionStatus string

const (
	SessionOpen   SessionStatus = "open"
	SessionClosed SessionStatus = "closed"
)

// SessionStatuses lists every SessionStatus.
var SessionStatuses = []SessionStatus{SessionOpen, SessionClosed}

// EvidencePolicy is when Save to MCP collects runtime evidence.
type EvidencePolicy string

const (
	PolicyAuto   EvidencePolicy = "auto"
	PolicyManual EvidencePolicy = "manual"
	PolicyOff    EvidencePolicy = "off"
)

// EvidencePolicies lists every EvidencePolicy.
var EvidencePolicies = []EvidencePolicy{PolicyAuto, PolicyManual, PolicyOff}

// Pickup is how saved drafts reach the agent.
type Pickup string

const (
	// PickupBatch: Save to MCP releases the drafts to the agent (the default).
	PickupBatch Pickup = "batch"
	// PickupInstant: each item is released as soon as it is saved.
	PickupInstant Pickup = "instant"
)

// Pickups lists every Pickup.
var Pickups = []Pickup{PickupBatch, PickupInstant}

// Delivery is whether an item was released to the agent.
type Delivery string

const (
	DeliveryDraft Delivery = "draft"
	DeliverySent  Delivery = "sent"
)

// Deliveries lists every Delivery.
var Deliveries = []Delivery{DeliveryDraft, DeliverySent}

// ItemStatus is where the agent's work on an item stands.
type ItemStatus string

const (
	StatusOpen               ItemStatus = "open"
	StatusReady              ItemStatus = "ready"
	StatusInProgress         ItemStatus = "in_progress"
	StatusNeedsClarification ItemStatus = "needs_clarification"
	StatusWontFix            ItemStatus = "wont_fix"
	StatusResolved           ItemStatus = "resolved"
)

// ItemStatuses lists every ItemStatus.
var ItemStatuses = []ItemStatus{StatusOpen, StatusReady, StatusInProgress, StatusNeedsClarification, StatusWontFix, StatusResolved}

// Phase is the one word the console shows for an item, derived from its
// delivery and status (derivePhase).
type Phase string

const (
	PhaseDraft        Phase = "draft"
	PhaseSent         Phase = "sent"
	PhaseSentModified Phase = "sent_modified"
	PhaseInProgress   Phase = "in_progress"
	PhaseNeedsClarify Phase = "needs_clarification"
	PhaseWontFix      Phase = "wont_fix"
	PhaseResolved     Phase = "resolved"
)

// Phases lists every lifecycle phase in display order.
var Phases = []Phase{PhaseDraft, PhaseSent, PhaseSentModified, PhaseInProgress, PhaseNeedsClarify, PhaseWontFix, PhaseResolved}

// ResolvedBy is who closed an item; "" while it is open.
type ResolvedBy string

const (
	ResolvedByNobody ResolvedBy = ""
	ResolvedByAgent  ResolvedBy = "agent"
	ResolvedByUser   ResolvedBy = "user"
)

// ResolvedBys lists every ResolvedBy, the empty one included.
var ResolvedBys = []ResolvedBy{ResolvedByNobody, ResolvedByAgent, ResolvedByUser}

// Severity is how much an item matters to the user.
type Severity string

const (
	SeverityHigh Severity = "high"
	SeverityMed  Severity = "med"
	SeverityLow  Severity = "low"
)

// Severities lists every Severity.
var Severities = []Severity{SeverityHigh, SeverityMed, SeverityLow}

// TargetType is what an item points at on the screen.
type TargetType string

const (
	TargetNode   TargetType = "node"
	TargetArea   TargetType = "area"
	TargetScreen TargetType = "screen"
)

// TargetTypes lists every TargetType.
var TargetTypes = []TargetType{TargetNode, TargetArea, TargetScreen}

// EvidenceTrigger is who asked for a runtime evidence capture.
type EvidenceTrigger string

const (
	EvidenceTriggerAuto   EvidenceTrigger = "auto"   // Save to MCP under the Auto policy
	EvidenceTriggerManual EvidenceTrigger = "manual" // the console's Capture diagnostics
	EvidenceTriggerAgent  EvidenceTrigger = "agent"  // fixthis_capture_runtime_evidence
)

// EvidenceTriggers lists every EvidenceTrigger.
var EvidenceTriggers = []EvidenceTrigger{EvidenceTriggerAuto, EvidenceTriggerManual, EvidenceTriggerAgent}

// SkipReason is why Save to MCP collected no runtime evidence: the session's
// policy, or "skipped" when nothing could start. "" when it collected.
type SkipReason string

const (
	SkipNone    SkipReason = ""
	SkipManual  SkipReason = "manual"
	SkipOff     SkipReason = "off"
	SkipSkipped SkipReason = "skipped"
)

// SkipReasons lists every SkipReason, the empty one included.
var SkipReasons = []SkipReason{SkipNone, SkipManual, SkipOff, SkipSkipped}

// PresenceState is the agent's state as the console shows it.
type PresenceState string

const (
	PresenceListening PresenceState = "listening" // a wait is parked
	PresenceWorking   PresenceState = "working"   // a batch was served or an item claimed, no new wait yet
	PresenceAway      PresenceState = "away"      // the connection ended, or silence (see below)
	PresenceNone      PresenceState = "none"      // no agent has ever waited here
)

// PresenceStates lists every PresenceState.
var PresenceStates = []PresenceState{PresenceListening, PresenceWorking, PresenceAway, PresenceNone}
