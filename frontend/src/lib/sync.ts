// Keeps AppState in step with the server: one bootstrap preview fetch, then the event
// stream, whose events it parses and hands to the dispatcher (lib/dispatch.ts; the
// reducers and side effects are registered there, not here). Polling runs only while
// the stream is down and stops the moment it is back.
import type { Api } from './api';
import { recordError } from './diagnostics';
import type { Dispatcher } from './dispatch';
import { applyPreview, sortSessions, summaryOf } from './features/session/model';
import { reportHttpError } from './httpErrors';
import type { AppState } from './features/session/state.svelte';

const PREVIEW_POLL_MS = 1500;
const SESSIONS_POLL_MS = 2000;
const RECONNECT_MAX_MS = 15000;

export interface SyncHooks {
  /** Called after a full refresh, and after a poll when no snapshot ever came, to resync the rest. */
  onResync(): void;
}

export class Sync {
  private closeStream: (() => void) | null = null;
  private previewTimer: ReturnType<typeof setInterval> | null = null;
  private sessionsTimer: ReturnType<typeof setInterval> | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private reconnectDelay = 1000;
  private wasConnected = false;
  private snapshotSeen = false;
  /** Bumped by switchSession so late responses for the old session are dropped. */
  private generation = 0;

  constructor(
    private readonly api: Api,
    private readonly app: AppState,
    private readonly events: Dispatcher,
    private readonly hooks: SyncHooks,
  ) {}

  async start(): Promise<void> {
    try {
      const h = await this.api.health();
      this.app.version = h.version ?? '';
    } catch (err) {
      this.reportHttpError(err);
    }
    // The one bootstrap preview fetch, before the EventSource opens.
    try {
      this.api.diagnostics.bootstrapPreviewFetches++;
      const p = await this.api.preview();
      applyPreview(this.app, p);
    } catch {
      // no preview yet; the snapshot will say why
    }
    this.open();
  }

  private open(): void {
    this.closeStream?.();
    this.closeStream = this.api.openEvents({
      onOpen: () => this.onOpen(),
      onError: (closed) => this.onError(closed),
      onEvent: (type, data, id) => {
        const d = this.api.diagnostics;
        d.eventsReceived++;
        d.eventsByType[type] = (d.eventsByType[type] ?? 0) + 1;
        if (id) d.lastEventId = id;
        if (type === 'snapshot') this.snapshotSeen = true;
        this.events.dispatch(type, data, id);
      },
    });
  }

  private onOpen(): void {
    const d = this.api.diagnostics;
    d.connected = true;
    d.connects++;
    d.connectedAt = Date.now();
    this.app.connected = true;
    this.app.started = true;
    this.reconnectDelay = 1000;
    this.stopPolling();
    if (this.wasConnected) {
      d.reconnects++;
      this.app.notify('success', 'Live updates are back.', { topic: 'connection' });
    } else {
      this.app.clearTopic('connection');
    }
    this.wasConnected = true;
  }

  private onError(closed: boolean): void {
    const d = this.api.diagnostics;
    recordError(d, 'eventsource_error');
    const was = d.connected;
    d.connected = false;
    this.app.connected = false;
    this.app.started = true;
    if (was || !this.previewTimer) {
      this.app.notify('warning', 'Connection paused — draft preserved. Reconnecting feedback updates…', {
        topic: 'connection',
        detail: 'Live updates from the FixThis app stopped. Your pending annotations stay in this browser; keep working, they are saved when you hand off.',
      });
    }
    this.startPolling();
    if (closed) this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.open();
    }, this.reconnectDelay);
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_MAX_MS);
  }

  /** Fallback polling; a no-op while the event stream is healthy. */
  private startPolling(): void {
    if (this.app.connected) return;
    if (!this.previewTimer) {
      this.previewTimer = setInterval(() => void this.pollPreview(), PREVIEW_POLL_MS);
    }
    if (!this.sessionsTimer) {
      this.sessionsTimer = setInterval(() => void this.pollSessions(), SESSIONS_POLL_MS);
    }
  }

  private stopPolling(): void {
    if (this.previewTimer) clearInterval(this.previewTimer);
    if (this.sessionsTimer) clearInterval(this.sessionsTimer);
    this.previewTimer = null;
    this.sessionsTimer = null;
  }

  private async pollPreview(): Promise<void> {
    if (this.app.connected) return this.stopPolling();
    this.api.diagnostics.pollsPreview++;
    const gen = this.generation;
    try {
      const p = await this.api.preview();
      if (gen !== this.generation || this.app.connected) return;
      if (applyPreview(this.app, p) === 'ignored-other-session') this.api.diagnostics.ignoredOtherSession++;
    } catch {
      // still down; the next tick retries
    }
  }

  private async pollSessions(): Promise<void> {
    if (this.app.connected) return this.stopPolling();
    this.api.diagnostics.pollsSessions++;
    try {
      // Devices ride along: without the stream nothing else would tell us about them.
      const [r, devs] = await Promise.all([this.api.sessions(), this.api.devices().catch(() => null)]);
      if (this.app.connected) return;
      this.app.sessions = sortSessions(r.sessions ?? []);
      if (devs) this.app.setDevices(devs.devices, devs.selectedSerial);
      if (!this.snapshotSeen) {
        // No snapshot ever arrived: pick the session from the poll instead.
        this.snapshotSeen = true;
        this.hooks.onResync();
        return;
      }
      await this.reloadActiveSession();
    } catch {
      // still down
    }
  }

  /**
   * Makes sessionId the active session (or none for ''). Answers still on their way for
   * the one before are dropped when they arrive: this is the one place the fence moves.
   */
  switchSession(sessionId: string): void {
    this.generation++;
    this.app.activeSessionId = sessionId;
    this.app.session = null;
  }

  /** Fetches the active session's detail; fenced by the session switch generation. */
  async reloadActiveSession(): Promise<void> {
    const id = this.app.activeSessionId;
    if (!id) return;
    const gen = this.generation;
    try {
      const r = await this.api.session(id);
      if (gen !== this.generation || id !== this.app.activeSessionId) return;
      this.app.session = r.data;
      const etag = r.etag ?? r.data.etag;
      if (etag) this.app.etags.set(id, etag);
      this.app.sessions = this.app.sessions.map((s) => (s.sessionId === id ? summaryOf(r.data) : s));
    } catch (err) {
      this.reportHttpError(err);
    }
  }

  /** Full refresh from the authoritative HTTP endpoints (replay overflow, manual refresh). */
  async refresh(): Promise<void> {
    const d = this.api.diagnostics;
    d.fullRefreshes++;
    const gen = this.generation;
    try {
      const [devs, sess, prev] = await Promise.all([this.api.devices(), this.api.sessions(), this.api.preview().catch(() => null)]);
      if (gen !== this.generation) return;
      this.app.setDevices(devs.devices, devs.selectedSerial);
      this.app.sessions = sortSessions(sess.sessions ?? []);
      if (prev) applyPreview(this.app, prev);
      await this.reloadActiveSession();
      this.hooks.onResync();
    } catch (err) {
      this.reportHttpError(err);
    }
  }

  private reportHttpError(err: unknown): void {
    reportHttpError(this.app, err);
  }

  stop(): void {
    this.closeStream?.();
    this.closeStream = null;
    this.stopPolling();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
  }
}
