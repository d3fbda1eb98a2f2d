// Browser-local draft workspaces, schema v2 (docs/console.md, "Draft workspaces"):
//   localStorage["fixthis.workspace.<sessionId>.<workspaceId>"] = DraftWorkspace envelope
//   localStorage["fixthis.workspace.index.<sessionId>"]        = WorkspaceIndex
// Only pending (not yet persisted) work lives here; the server owns everything saved.
import type { FrozenScreen, Item, Severity, Target, UiNode } from './types';

export const SCHEMA_VERSION = 2;
const PREFIX = 'fixthis.workspace.';
const HISTORY_LIMIT = 50;

/** The subset of the Web Storage API this module needs, so tests can pass a Map-backed one. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  key(index: number): string | null;
  readonly length: number;
}

export interface DraftItem {
  draftItemId: string;
  workspaceId: string;
  target: Target;
  severity: Severity;
  comment: string;
  createdAt: string;
  /** Human label of the target at the time it was picked (breadcrumb leaf). */
  label?: string;
  /** A screen clip attached to it (POST /api/preview/clip). */
  clip?: DraftClip;
  /** The audit check of a draft added from a finding (touch_target, ...). */
  check?: string;
}

/** What a draft keeps of its clip: the id the save sends, and what the editor plays. */
export interface DraftClip {
  clipId: string;
  durationMs: number;
  videoUrl: string;
}

export interface WorkspaceContext {
  sessionId: string;
  serial: string;
  frozenId: string;
  frozenAt: string;
}

export type WorkspaceLifecycle = 'active' | 'recovery';

export interface DraftWorkspace {
  schema: 2;
  workspaceId: string;
  revision: number;
  lifecycle: WorkspaceLifecycle;
  context: WorkspaceContext;
  frozenScreen: FrozenScreen | null;
  screenshotUrl: string;
  nodes?: UiNode[];
  items: DraftItem[];
  history: { undo: DraftItem[][]; redo: DraftItem[][] };
  updatedAt: string;
}

export interface WorkspaceIndex {
  schema: 2;
  workspaces: { workspaceId: string; updatedAt: string; itemCount: number }[];
}

export function workspaceKey(sessionId: string, workspaceId: string): string {
  return `${PREFIX}${sessionId}.${workspaceId}`;
}

export function indexKey(sessionId: string): string {
  return `${PREFIX}index.${sessionId}`;
}

export function newId(prefix: string): string {
  const c = globalThis.crypto as Crypto | undefined;
  if (c?.randomUUID) return `${prefix}-${c.randomUUID()}`;
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

export function createWorkspace(context: WorkspaceContext, frozenScreen: FrozenScreen, screenshotUrl: string, nodes: UiNode[]): DraftWorkspace {
  return {
    schema: SCHEMA_VERSION,
    workspaceId: newId('ws'),
    revision: 0,
    lifecycle: 'active',
    context: { ...context },
    frozenScreen,
    screenshotUrl,
    nodes,
    items: [],
    history: { undo: [], redo: [] },
    updatedAt: new Date().toISOString(),
  };
}

function readJson(storage: KeyValueStorage, key: string): unknown {
  const raw = storage.getItem(key);
  if (raw == null) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

function isDraftItem(value: unknown, workspaceId: string): value is DraftItem {
  if (!value || typeof value !== 'object') return false;
  const v = value as Partial<DraftItem>;
  // Keyless items cannot be matched against persisted ones, so they are dropped.
  return (
    typeof v.draftItemId === 'string' &&
    v.draftItemId.length > 0 &&
    v.workspaceId === workspaceId &&
    !!v.target &&
    typeof (v.target as Target).type === 'string' &&
    typeof v.comment === 'string'
  );
}

/** A stored context; one saved before the frozen frame's id was named frozenId keeps it. */
function contextOf(c: WorkspaceContext & { previewId?: string }): WorkspaceContext {
  const { previewId, ...rest } = c;
  return { ...rest, frozenId: typeof c.frozenId === 'string' ? c.frozenId : typeof previewId === 'string' ? previewId : '' };
}

/** Parses and validates an envelope; anything not schema v2 is ignored. */
export function parseWorkspace(value: unknown, sessionId: string): DraftWorkspace | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Partial<DraftWorkspace>;
  if (v.schema !== SCHEMA_VERSION || typeof v.workspaceId !== 'string' || !v.context) return null;
  if (v.context.sessionId !== sessionId) return null;
  const workspaceId = v.workspaceId;
  const items = Array.isArray(v.items) ? v.items.filter((i) => isDraftItem(i, workspaceId)) : [];
  return {
    schema: SCHEMA_VERSION,
    workspaceId,
    revision: typeof v.revision === 'number' ? v.revision : 0,
    lifecycle: v.lifecycle === 'active' ? 'active' : 'recovery',
    context: contextOf(v.context),
    frozenScreen: v.frozenScreen ?? null,
    screenshotUrl: typeof v.screenshotUrl === 'string' ? v.screenshotUrl : '',
    nodes: Array.isArray(v.nodes) ? v.nodes : undefined,
    items: items.map((i) => ({ ...i, severity: i.severity ?? 'med' })),
    history: {
      undo: Array.isArray(v.history?.undo) ? v.history.undo : [],
      redo: Array.isArray(v.history?.redo) ? v.history.redo : [],
    },
    updatedAt: typeof v.updatedAt === 'string' ? v.updatedAt : '',
  };
}

export function readIndex(storage: KeyValueStorage, sessionId: string): WorkspaceIndex {
  const v = readJson(storage, indexKey(sessionId)) as Partial<WorkspaceIndex> | null;
  if (!v || v.schema !== SCHEMA_VERSION || !Array.isArray(v.workspaces)) return { schema: SCHEMA_VERSION, workspaces: [] };
  return { schema: SCHEMA_VERSION, workspaces: v.workspaces.filter((w) => w && typeof w.workspaceId === 'string') };
}

function writeIndex(storage: KeyValueStorage, sessionId: string, index: WorkspaceIndex): void {
  if (index.workspaces.length === 0) storage.removeItem(indexKey(sessionId));
  else storage.setItem(indexKey(sessionId), JSON.stringify(index));
}

/**
 * Writes the envelope and its index entry. When the quota is exceeded the UI tree and
 * then the undo history are dropped: the comments and targets are what must survive.
 * Returns false when even the slim envelope did not fit.
 */
export function saveWorkspace(storage: KeyValueStorage, ws: DraftWorkspace): boolean {
  const key = workspaceKey(ws.context.sessionId, ws.workspaceId);
  const trimmed: DraftWorkspace = {
    ...ws,
    history: { undo: ws.history.undo.slice(-HISTORY_LIMIT), redo: ws.history.redo.slice(-HISTORY_LIMIT) },
  };
  const attempts: DraftWorkspace[] = [
    trimmed,
    { ...trimmed, nodes: undefined },
    { ...trimmed, nodes: undefined, history: { undo: [], redo: [] } },
  ];
  let saved = false;
  for (const attempt of attempts) {
    try {
      storage.setItem(key, JSON.stringify(attempt));
      saved = true;
      break;
    } catch {
      // try a slimmer envelope
    }
  }
  if (!saved) return false;
  const index = readIndex(storage, ws.context.sessionId);
  const entry = { workspaceId: ws.workspaceId, updatedAt: ws.updatedAt, itemCount: ws.items.length };
  const at = index.workspaces.findIndex((w) => w.workspaceId === ws.workspaceId);
  if (at >= 0) index.workspaces[at] = entry;
  else index.workspaces.push(entry);
  try {
    writeIndex(storage, ws.context.sessionId, index);
  } catch {
    return false;
  }
  return true;
}

export function loadWorkspace(storage: KeyValueStorage, sessionId: string, workspaceId: string): DraftWorkspace | null {
  return parseWorkspace(readJson(storage, workspaceKey(sessionId, workspaceId)), sessionId);
}

export function removeWorkspace(storage: KeyValueStorage, sessionId: string, workspaceId: string): void {
  storage.removeItem(workspaceKey(sessionId, workspaceId));
  const index = readIndex(storage, sessionId);
  index.workspaces = index.workspaces.filter((w) => w.workspaceId !== workspaceId);
  writeIndex(storage, sessionId, index);
}

/** Every valid workspace of a session, newest first; stale index entries are pruned. */
export function listWorkspaces(storage: KeyValueStorage, sessionId: string): DraftWorkspace[] {
  const index = readIndex(storage, sessionId);
  const found: DraftWorkspace[] = [];
  const kept: WorkspaceIndex['workspaces'] = [];
  for (const entry of index.workspaces) {
    const ws = loadWorkspace(storage, sessionId, entry.workspaceId);
    if (ws) {
      found.push(ws);
      kept.push(entry);
    } else {
      storage.removeItem(workspaceKey(sessionId, entry.workspaceId));
    }
  }
  if (kept.length !== index.workspaces.length) writeIndex(storage, sessionId, { schema: SCHEMA_VERSION, workspaces: kept });
  return found.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

/** Deletes every workspace of a session, including ones missing from the index. */
export function clearSessionWorkspaces(storage: KeyValueStorage, sessionId: string): void {
  const doomed: string[] = [];
  const prefix = `${PREFIX}${sessionId}.`;
  for (let i = 0; i < storage.length; i++) {
    const k = storage.key(i);
    if (k && k.startsWith(prefix)) doomed.push(k);
  }
  doomed.forEach((k) => storage.removeItem(k));
  storage.removeItem(indexKey(sessionId));
}

/** Local items counted in the history row: pending work not yet on the server. */
export function localItemCount(storage: KeyValueStorage, sessionId: string): number {
  return readIndex(storage, sessionId).workspaces.reduce((n, w) => n + (w.itemCount || 0), 0);
}

export interface Recovery {
  workspace: DraftWorkspace;
  items: DraftItem[];
  /** Recover needs the frozen preview context; without it only Recapture or Discard remain. */
  canRecover: boolean;
}

/**
 * What a reload may offer to recover: items of the workspace that the server does not
 * already hold under the same (clientWorkspaceId, clientDraftItemId) key.
 */
export function recoveryFor(ws: DraftWorkspace, persisted: Pick<Item, 'clientWorkspaceId' | 'clientDraftItemId'>[]): Recovery | null {
  const saved = new Set(persisted.map((p) => `${p.clientWorkspaceId ?? ''}\u0000${p.clientDraftItemId ?? ''}`));
  const items = ws.items.filter((i) => !saved.has(`${ws.workspaceId}\u0000${i.draftItemId}`));
  if (items.length === 0) return null;
  const canRecover = Boolean(ws.frozenScreen && ws.frozenScreen.width > 0 && ws.screenshotUrl && ws.context.frozenId);
  return { workspace: ws, items, canRecover };
}
