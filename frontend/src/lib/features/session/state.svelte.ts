// The session feature's state, server-backed: the devices and the selected one, the preview,
// the sessions and the active one in full, the agent's presence, the connection, and the
// status messages every feature shows through notify().
import { summaryOf, upsertSummary, type SyncModel } from './model';
import type { Device, EvidencePolicy, Item, Presence, Preview, Session, SessionSummary } from '../../types';

export type StatusKind = 'error' | 'warning' | 'success' | 'info';

export interface StatusMessage {
  id: number;
  kind: StatusKind;
  text: string;
  detail?: string;
  /** Set for messages replaced by later ones of the same topic (e.g. "connection"). */
  topic?: string;
}

/** Server-backed state: what the API and the event stream say. */
export class AppState implements SyncModel {
  version = $state('');
  mode = $state('');
  devices = $state<Device[]>([]);
  selectedSerial = $state('');
  adbError = $state('');
  deviceNotices = $state<string[]>([]);
  offerSerial = $state('');
  sessions = $state<SessionSummary[]>([]);
  activeSessionId = $state('');
  session = $state<Session | null>(null);
  preview = $state<Preview | null>(null);
  agent = $state<Presence | null>(null);
  agentSeq = 0;
  /** Last ETag per session for If-Match on batch saves. */
  etags = new Map<string, string>();

  /** SSE health: true while /api/events is open. */
  connected = $state(false);
  /** True once the first connection attempt has settled either way. */
  started = $state(false);
  unauthorized = $state(false);

  status = $state<StatusMessage[]>([]);
  private nextStatusId = 1;

  selectedDevice = $derived(this.devices.find((d) => d.serial === this.selectedSerial) ?? null);
  activeSummary = $derived(this.sessions.find((s) => s.sessionId === this.activeSessionId) ?? null);
  deviceReady = $derived(this.selectedDevice?.state === 'device');

  setDevices(devices: Device[] | undefined, selectedSerial: string | undefined): void {
    this.devices = devices ?? [];
    this.selectedSerial = selectedSerial ?? '';
  }

  /** Inserts or replaces a session's row in the list, newest first. */
  upsertSession(s: Session | SessionSummary): void {
    this.sessions = upsertSummary(this.sessions, summaryOf(s));
  }

  removeSession(sessionId: string): void {
    this.sessions = this.sessions.filter((s) => s.sessionId !== sessionId);
  }

  /**
   * Takes a session the server answered with. The ETag is kept whatever the active
   * session; the detail only when the answer is for the session still active.
   */
  applySession(sessionId: string, session: Session | null | undefined, etag?: string | null): void {
    if (etag) this.etags.set(sessionId, etag);
    if (!session || this.activeSessionId !== sessionId) return;
    this.session = session;
    this.upsertSession(session);
  }

  /** Replaces one item of the active session, if the answer is still for it. */
  replaceItem(sessionId: string, item: Item | undefined): void {
    if (!item || this.activeSessionId !== sessionId || !this.session) return;
    this.session = { ...this.session, items: this.session.items.map((i) => (i.itemId === item.itemId ? item : i)) };
  }

  removeItem(sessionId: string, itemId: string): void {
    if (this.activeSessionId !== sessionId || !this.session) return;
    this.session = { ...this.session, items: this.session.items.filter((i) => i.itemId !== itemId) };
  }

  /** Shows a policy on the active session at once (the server is asked separately). */
  setPolicy(sessionId: string, policy: EvidencePolicy | undefined): void {
    if (this.activeSessionId !== sessionId || !this.session) return;
    this.session = { ...this.session, runtimeEvidencePolicy: policy ?? this.session.runtimeEvidencePolicy };
  }

  /** Shows a message; a topic replaces the previous message of that topic. */
  notify(kind: StatusKind, text: string, opts: { detail?: string; topic?: string } = {}): number {
    const id = this.nextStatusId++;
    const rest = opts.topic ? this.status.filter((m) => m.topic !== opts.topic) : this.status;
    this.status = [...rest, { id, kind, text, detail: opts.detail, topic: opts.topic }].slice(-4);
    if (kind === 'success' || kind === 'info') {
      setTimeout(() => this.dismiss(id), kind === 'success' ? 5000 : 8000);
    }
    return id;
  }

  dismiss(id: number): void {
    this.status = this.status.filter((m) => m.id !== id);
  }

  clearTopic(topic: string): void {
    this.status = this.status.filter((m) => m.topic !== topic);
  }
}

export const app = new AppState();
