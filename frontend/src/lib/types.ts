// Shapes of the console API (docs/api.md). Optional fields are ones the server may omit.

export interface Bounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface Device {
  serial: string;
  state: string;
  model: string;
  product?: string;
  device?: string;
  transportId?: number | string;
  connection?: 'usb' | 'tcp' | string;
  androidVersion?: string;
  sdk?: number | string;
  screen?: { width: number; height: number; density?: number } | null;
  isDemo?: boolean;
  hint?: string;
}

export type PreviewState = 'live' | 'frozen' | 'blocked' | 'no-device' | 'stale';

export interface PreviewStatus {
  state: PreviewState;
  reason?: string;
  message?: string;
  /** Why the live preview shows JPEG frames instead of H.264 video. */
  videoUnavailable?: string;
}

export interface Preview {
  previewAvailable: boolean;
  previewId: string;
  serial: string;
  width: number;
  height: number;
  url: string;
  capturedAt?: string;
  status?: PreviewStatus;
  sessionId?: string;
}

export interface UiNode {
  uid: string;
  parentUid?: string | null;
  indexPath?: string | number[];
  class?: string;
  text?: string;
  contentDescription?: string;
  resourceId?: string;
  testTag?: string;
  bounds: Bounds;
  clickable?: boolean;
  enabled?: boolean;
  focused?: boolean;
  selected?: boolean;
  checkable?: boolean;
  checked?: boolean;
  password?: boolean;
  scrollable?: boolean;
  editable?: boolean;
  compose?: boolean;
  role?: string;
}

export interface FrozenScreen {
  fingerprint: string;
  fingerprints?: { structural?: string; perceptual?: string; structure?: string };
  width: number;
  height: number;
  package?: string;
  activity?: string;
  orientation?: number | string;
  density?: number;
}

export interface Freeze {
  previewId: string;
  imageUrl: string;
  screen: FrozenScreen;
  nodes: UiNode[];
  timingsMs?: Record<string, number>;
}

export type Phase =
  | 'draft'
  | 'sent'
  | 'sent_modified'
  | 'in_progress'
  | 'needs_clarification'
  | 'wont_fix'
  | 'resolved';

export type PhaseCounts = Partial<Record<Phase, number>>;

export type EvidencePolicy = 'auto' | 'manual' | 'off';

export interface NodeSnapshot {
  class?: string;
  text?: string;
  testTag?: string;
  contentDescription?: string;
  role?: string;
  resourceId?: string;
}

export type Target =
  | { type: 'node'; nodeUid: string; bounds: Bounds; snapshot?: NodeSnapshot; ancestors?: NodeSnapshot[] }
  | { type: 'area'; bounds: Bounds }
  | { type: 'screen' };

export type Severity = 'high' | 'med' | 'low';

export interface Item {
  itemId: string;
  sessionId: string;
  screenId?: string;
  sequenceNumber: number;
  clientWorkspaceId?: string;
  clientDraftItemId?: string;
  target: Target;
  severity: Severity;
  comment: string;
  delivery: 'draft' | 'sent';
  status: 'open' | 'ready' | 'in_progress' | 'needs_clarification' | 'wont_fix' | 'resolved';
  phase?: Phase;
  resolvedBy?: '' | 'agent' | 'user';
  agentNote?: string;
  agentSummary?: string;
  agentQuestion?: string;
  userAnswer?: string;
  createdAt?: string;
  updatedAt?: string;
  lastHandedOffAt?: string;
  cropUrl?: string;
}

export interface Screen {
  screenId: string;
  sessionId: string;
  fingerprint?: string;
  width: number;
  height: number;
  package?: string;
  activity?: string;
  imageUrl: string;
  createdAt?: string;
}

export interface SessionSummary {
  sessionId: string;
  title: string;
  status: 'open' | 'closed';
  createdAt?: string;
  updatedAt?: string;
  itemCount: number;
  phaseCounts?: PhaseCounts;
  runtimeEvidencePolicy?: EvidencePolicy;
}

export interface Handoff {
  handoffId?: string;
  batchId?: string;
  createdAt?: string;
  itemIds?: string[];
  kind?: string;
}

export interface Session extends SessionSummary {
  items: Item[];
  screens: Screen[];
  handoffs?: Handoff[];
  etag?: string;
}

export type PresenceState = 'listening' | 'working' | 'away' | 'none';

export interface Presence {
  sessionId?: string;
  presence: PresenceState;
  since?: string;
  lastSeenAt?: string;
}

export interface Snapshot {
  version?: string;
  devices?: Device[];
  selectedSerial?: string;
  /** False while the adb server does not answer (FixThis restarts it). */
  adbServerUp?: boolean;
  adbServerError?: string;
  sessions?: SessionSummary[];
  preview?: Preview | null;
  agent?: Presence | null;
  mode?: 'desktop' | 'serve';
}

/** One agent client's config: the file it lives in and its text for stdio / HTTP. */
export interface AgentConfig {
  file?: string;
  stdio?: string;
  http?: string;
}

export interface ConnectInfo {
  mcpUrl?: string;
  mcpToken?: string;
  projectDir?: string;
  command?: string;
  configs?: Record<string, AgentConfig | string>;
}

export interface BatchItemInput {
  draftItemId: string;
  target: Target;
  severity: Severity;
  comment: string;
}

export interface BatchRequest {
  sessionId: string;
  previewId: string;
  workspaceId: string;
  frozenFingerprint: string;
  forceMismatchOverride?: boolean;
  items: BatchItemInput[];
}

export interface BatchResponse {
  session: Session;
  items: Item[];
  screenId?: string;
}

/** A place in the Android sources the item probably lives at (docs/api.md, sources). */
export interface SourceCandidate {
  file: string;
  line: number;
  confidence: 'high' | 'medium' | 'low' | string;
  score?: number;
  margin?: number;
  owner?: string;
  matched?: string[];
  stale?: boolean;
  caution?: string;
}

export interface EditSurface {
  kind: string;
  role: string;
  file: string;
  line?: number;
  confidence: string;
  why?: string[];
  basis?: string;
  action?: string;
}

/** Why there are no candidates: '' when the index is ready (then none means no match). */
export type SourcesReason = '' | 'index-building' | 'index-error' | 'no-project-dir' | 'no-match' | string;

export interface ItemSources {
  itemId: string;
  candidates: SourceCandidate[];
  editSurfaces?: EditSurface[] | null;
  reason: SourcesReason;
}
