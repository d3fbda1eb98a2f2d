// The console API's shapes. What the server sends and what the console sends are
// generated from the Go types (wire.gen.ts, `go generate ./app/wire`); this module
// re-exports them under the names the console uses and adds the target the console
// builds before a save.

import type * as wire from './wire.gen';

export type {
  AgentConfig,
  AgentHandoff,
  BatchItem,
  BatchRequest,
  BatchResponse,
  BlockReason,
  Bounds,
  ConnectInfo,
  Device,
  DeviceList,
  DeviceScreen,
  DeviceSelection,
  EditSurface,
  ErrorBody,
  ErrorCode,
  EventPayloads,
  EventType,
  Freeze,
  FrozenScreen,
  Handoff,
  HandoffPreview,
  Item,
  ItemSources,
  Mode,
  NodeChange,
  NodeSnapshot,
  PhaseCounts,
  Presence,
  Preview,
  PreviewFrame,
  PreviewState,
  PreviewStatus,
  PreviewStatusEvent,
  Screen,
  ScreenDisplay,
  ScreenWindow,
  Session,
  SessionSummary,
  SessionUpdate,
  SessionsUpdate,
  Snapshot,
  SourceCandidate,
  SourcesReason,
  UiNode,
  Verification,
} from './wire.gen';

/** An item's lifecycle phase, as the server derives it. */
export type Phase = wire.Item['phase'];
export type Severity = wire.Item['severity'];
export type EvidencePolicy = wire.SessionSummary['runtimeEvidencePolicy'];
export type PresenceState = wire.Presence['presence'];

/** A stored item's target (wire.Target) or one the console builds (Target). */
export type AnyTarget = Target | wire.Target;

/** A target as the console builds it for a save; the server answers with wire.Target. */
export type Target =
  | { type: 'node'; nodeUid: string; bounds: wire.Bounds; snapshot?: wire.NodeSnapshot; ancestors?: wire.NodeSnapshot[] }
  | { type: 'area'; bounds: wire.Bounds }
  | { type: 'screen' };

