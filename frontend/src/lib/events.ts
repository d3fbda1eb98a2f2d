// Applies server events to the console's model. Pure over a plain model so the same
// code runs on the reactive state and in unit tests. Events flow one way: SSE → model.
import type { Device, Presence, Preview, PreviewStatus, Session, SessionSummary, Snapshot } from './types';

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

export type Outcome = 'applied' | 'ignored-other-session' | 'full-refresh' | 'active-session-deleted' | 'noop';

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
function applyADBState(model: SyncModel, d: { adbServerUp?: unknown; adbServerError?: unknown; notices?: unknown; offerSerial?: unknown }): void {
  if (d.adbServerUp === true) model.adbError = '';
  else if (d.adbServerUp === false) model.adbError = String(d.adbServerError || 'the adb server does not answer');
  model.deviceNotices = Array.isArray(d.notices) ? d.notices.map(String) : [];
  model.offerSerial = typeof d.offerSerial === 'string' ? d.offerSerial : '';
}

export function applySnapshot(model: SyncModel, s: Snapshot): void {
  if (s.version) model.version = s.version;
  if (s.mode) model.mode = s.mode;
  if (Array.isArray(s.devices)) model.devices = s.devices;
  if (typeof s.selectedSerial === 'string') model.selectedSerial = s.selectedSerial;
  applyADBState(model, s);
  if (Array.isArray(s.sessions)) model.sessions = sortSessions(s.sessions);
  // The snapshot is the one event applied whatever the active session.
  if (s.preview !== undefined) model.preview = s.preview;
  if (s.agent !== undefined) model.agent = s.agent;
}

export function applyEvent(model: SyncModel, type: string, data: unknown): Outcome {
  const d = (data ?? {}) as Record<string, unknown>;
  switch (type) {
    case 'snapshot':
      applySnapshot(model, d as unknown as Snapshot);
      return 'applied';
    case 'devices-updated':
      if (Array.isArray(d.devices)) model.devices = d.devices as Device[];
      if (typeof d.selectedSerial === 'string') model.selectedSerial = d.selectedSerial;
      applyADBState(model, d);
      return 'applied';
    case 'preview-ready':
      return applyPreview(model, d as Partial<Preview>);
    case 'preview-status': {
      if (d.sessionId && model.activeSessionId && d.sessionId !== model.activeSessionId) return 'ignored-other-session';
      applyPreviewStatus(model, String(d.serial ?? ''), (d.status ?? { state: 'live' }) as PreviewStatus);
      return 'applied';
    }
    case 'session-updated': {
      const sessionId = String(d.sessionId ?? '');
      const session = d.session as Session | undefined;
      if (!sessionId || sessionId !== model.activeSessionId) return 'ignored-other-session';
      if (session) {
        model.session = session;
        model.sessions = upsertSummary(model.sessions, summaryOf(session));
      }
      return 'applied';
    }
    case 'sessions-updated': {
      const sessionId = String(d.sessionId ?? '');
      if (!sessionId) return 'noop';
      if (d.deleted || d.summary === null) {
        model.sessions = model.sessions.filter((s) => s.sessionId !== sessionId);
        return sessionId === model.activeSessionId ? 'active-session-deleted' : 'applied';
      }
      if (d.summary) model.sessions = upsertSummary(model.sessions, d.summary as SessionSummary);
      return 'applied';
    }
    case 'agent': {
      const p = d as unknown as Presence;
      if (p.sessionId && model.activeSessionId && p.sessionId !== model.activeSessionId) return 'ignored-other-session';
      model.agent = p;
      model.agentSeq = (model.agentSeq ?? 0) + 1;
      return 'applied';
    }
    case 'replay-overflow':
      return 'full-refresh';
    default:
      return 'noop';
  }
}
