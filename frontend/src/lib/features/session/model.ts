// The reducers of the session feature's events on the console's model, one per event and typed
// by its payload. Pure over a plain model so the same code runs on the reactive state
// (registered by events.ts) and in unit tests. Events flow one way:
// SSE → dispatcher → model.
import type { Outcome } from '../../dispatch';
import type {
  Device,
  DeviceList,
  Presence,
  Preview,
  PreviewStatus,
  PreviewStatusEvent,
  Session,
  SessionSummary,
  SessionUpdate,
  SessionsUpdate,
  Snapshot,
} from '../../types';

export interface SyncModel {
  version: string;
  mode: string;
  devices: Device[];
  selectedSerial: string;
  /** The adb server's state: '' while it answers, else why it does not. */
  adbError: string;
  /** Device sentences the server says (a reconnect under way, a selected phone gone). */
  deviceNotices?: string[];
  /** An online device the server offers instead of a selected one that is gone. */
  offerSerial?: string;
  sessions: SessionSummary[];
  activeSessionId: string;
  session: Session | null;
  preview: Preview | null;
  agent: Presence | null;
  /** Counts applied agent events, so a slower presence fetch never overwrites a newer event. */
  agentSeq?: number;
}

export function summaryOf(s: Session | SessionSummary): SessionSummary {
  return {
    sessionId: s.sessionId,
    title: s.title,
    status: s.status,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    itemCount: s.itemCount ?? ('items' in s && Array.isArray(s.items) ? s.items.length : 0),
    phaseCounts: s.phaseCounts,
    runtimeEvidencePolicy: s.runtimeEvidencePolicy,
    agentPickup: s.agentPickup,
  };
}

/** Inserts or replaces a summary, newest first. */
export function upsertSummary(list: SessionSummary[], summary: SessionSummary): SessionSummary[] {
  const next = list.filter((s) => s.sessionId !== summary.sessionId);
  next.push(summary);
  return sortSessions(next);
}

export function sortSessions(list: SessionSummary[]): SessionSummary[] {
  return [...list].sort((a, b) => (b.updatedAt ?? b.createdAt ?? '').localeCompare(a.updatedAt ?? a.createdAt ?? ''));
}

function applyPreviewStatus(model: SyncModel, serial: string, status: PreviewStatus): void {
  if (model.preview) {
    model.preview = { ...model.preview, status, serial: serial || model.preview.serial };
  } else {
    model.preview = { previewAvailable: false, previewId: '', serial, width: 0, height: 0, url: '', status };
  }
}

/** Shared by preview-ready events and fallback polls: one path, one session fence. */
export function applyPreview(model: SyncModel, p: Partial<Preview> & { sessionId?: string }): Outcome {
  if (p.sessionId && model.activeSessionId && p.sessionId !== model.activeSessionId) return 'ignored-other-session';
  const prev = model.preview;
  const hasFrame = Boolean(p.url && p.previewId);
  model.preview = {
    previewAvailable: p.previewAvailable ?? (hasFrame || Boolean(prev?.previewAvailable)),
    previewId: p.previewId ?? prev?.previewId ?? '',
    serial: p.serial ?? prev?.serial ?? '',
    width: p.width || prev?.width || 0,
    height: p.height || prev?.height || 0,
    url: p.url ?? prev?.url ?? '',
    capturedAt: p.capturedAt ?? prev?.capturedAt,
    status: p.status ?? (hasFrame ? { state: 'live' } : (prev?.status ?? { state: 'no-device' })),
  };
  return 'applied';
}

/** Records whether the adb server answers (devices-updated and the snapshot carry it). */
function applyADBState(model: SyncModel, d: { adbServerUp: boolean; adbServerError?: string; notices?: string[]; offerSerial?: string }): void {
  if (d.adbServerUp === true) model.adbError = '';
  else if (d.adbServerUp === false) model.adbError = String(d.adbServerError || 'the adb server does not answer');
  model.deviceNotices = d.notices ?? [];
  model.offerSerial = d.offerSerial ?? '';
}

/** snapshot: the one event applied whatever the active session. */
export function applySnapshot(model: SyncModel, s: Snapshot): Outcome {
  if (s.version) model.version = s.version;
  if (s.mode) model.mode = s.mode;
  if (Array.isArray(s.devices)) model.devices = s.devices;
  if (typeof s.selectedSerial === 'string') model.selectedSerial = s.selectedSerial;
  applyADBState(model, s);
  if (Array.isArray(s.sessions)) model.sessions = sortSessions(s.sessions);
  if (s.preview !== undefined) model.preview = s.preview;
  if (s.agent !== undefined) model.agent = s.agent;
  return 'applied';
}

/** devices-updated */
export function applyDevices(model: SyncModel, d: DeviceList): Outcome {
  if (Array.isArray(d.devices)) model.devices = d.devices;
  if (typeof d.selectedSerial === 'string') model.selectedSerial = d.selectedSerial;
  applyADBState(model, d);
  return 'applied';
}

/** preview-status */
export function applyPreviewStatusEvent(model: SyncModel, e: PreviewStatusEvent): Outcome {
  applyPreviewStatus(model, e.serial ?? '', e.status ?? { state: 'live' });
  return 'applied';
}

/** session-updated: the active session in full; others are not ours to show. */
export function applySessionUpdate(model: SyncModel, u: SessionUpdate): Outcome {
  const sessionId = u.sessionId ?? '';
  if (!sessionId || sessionId !== model.activeSessionId) return 'ignored-other-session';
  if (u.session) {
    model.session = keepNewerItems(model.session, u.session);
    model.sessions = upsertSummary(model.sessions, summaryOf(u.session));
  }
  return 'applied';
}

/**
 * next, with each item the console already holds in a newer state kept as it is. An
 * update published before a change this console made (an answer, an edit, whose reply
 * replaced the item) can arrive after that reply; it must not roll the item back.
 */
function keepNewerItems(prev: Session | null, next: Session): Session {
  if (!prev || prev.sessionId !== next.sessionId || !prev.items?.length || !next.items) return next;
  const held = new Map(prev.items.map((i) => [i.itemId, i]));
  let kept = false;
  const items = next.items.map((i) => {
    const mine = held.get(i.itemId);
    if (mine && Date.parse(mine.updatedAt) > Date.parse(i.updatedAt)) {
      kept = true;
      return mine;
    }
    return i;
  });
  return kept ? { ...next, items } : next;
}

/** sessions-updated: one row of the session list, or its deletion. */
export function applySessionsUpdate(model: SyncModel, u: SessionsUpdate): Outcome {
  const sessionId = u.sessionId ?? '';
  if (!sessionId) return 'noop';
  if (u.deleted || u.summary === null) {
    model.sessions = model.sessions.filter((s) => s.sessionId !== sessionId);
    return sessionId === model.activeSessionId ? 'active-session-deleted' : 'applied';
  }
  if (u.summary) model.sessions = upsertSummary(model.sessions, u.summary);
  return 'applied';
}

/** agent: the active session's agent presence. */
export function applyPresence(model: SyncModel, p: Presence): Outcome {
  if (p.sessionId && model.activeSessionId && p.sessionId !== model.activeSessionId) return 'ignored-other-session';
  model.agent = p;
  model.agentSeq = (model.agentSeq ?? 0) + 1;
  return 'applied';
}
