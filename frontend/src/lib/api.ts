// The only module that talks to the server: every fetch and the EventSource live here.
import {
  EventTypeValues,
  type ControlState,
  type DeviceActionList,
  type EventPayloads,
  type EventType,
  type EvidenceDoc,
  type NetworkDoc,
  type EvidenceRecord,
  type HandoffEvidence,
  type TargetAppDoc,
  type TargetAppRunResult,
  type TargetAppRunStarted,
  type PaintReport,
  type AgentControlRequest,
  type ClipRequest,
  type ClipResponse,
  type RecordingRequest,
  type RecordingResponse,
  type AnswerRequest,
  type DeviceSelectRequest,
  type DisplayChangeRequest,
  type DisplayRestoreRequest,
  type DisplaySettings,
  type FreezeRequest,
  type HandoffPreviewRequest,
  type HandoffRequest,
  type ItemUpdateRequest,
  type NewSessionRequest,
  type ResolveRequest,
  type SessionPatch,
  type StageHeight,
  type AuditResult,
  type DismissRequest,
  type SizeCheckRequest,
  type TapRequest,
  type VerdictRequest,
  type VoiceStartRequest,
  type VoiceUpdateRequest,
} from './wire.gen';
import { type ConsoleEventsDiagnostics, newDiagnostics } from './diagnostics';
import { withToken } from './token';
import type {
  BatchRequest,
  BatchResponse,
  ConnectInfo,
  Device,
  Freeze,
  Item,
  ItemSources,
  Presence,
  Preview,
  Session,
  SessionSummary,
} from './types';
import type { AnchorAnswer, VoiceAnchor, VoiceConfig, VoiceMode, VoiceSession } from './features/voice/types';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface WithEtag<T> {
  data: T;
  etag: string | null;
}

/** Every event the server sends, generated from the Go event list. */
export const EVENT_TYPES = EventTypeValues;

export interface EventStreamHandlers {
  onOpen(): void;
  /** One parsed event, typed by the contract's EventPayloads. */
  onEvent<K extends EventType>(type: K, data: EventPayloads[K], id: string): void;
  /** `closed` means the browser gave up (e.g. 401); otherwise it is retrying by itself. */
  onError(closed: boolean): void;
}

export class Api {
  readonly diagnostics: ConsoleEventsDiagnostics = newDiagnostics();

  constructor(private token: string | null) {}

  /** A URL for EventSource, which cannot send the header. Never put it in the DOM. */
  url(path: string): string {
    return withToken(path, this.token);
  }

  /**
   * Fetches an image or file with the token in the header and returns an object URL
   * for it, so the token never appears in the page (an <img src> or <a href> would
   * carry it). The caller revokes the URL when it is replaced.
   */
  async blobUrl(path: string): Promise<string> {
    const h: Record<string, string> = {};
    if (this.token) h['X-FixThis-Console-Token'] = this.token;
    let res: Response;
    try {
      res = await fetch(path, { headers: h });
    } catch (err) {
      throw new ApiError(0, 'network', `The FixThis app did not answer (${(err as Error).message || 'network error'}).`);
    }
    if (!res.ok) throw new ApiError(res.status, `http_${res.status}`, `GET ${path.split('?')[0]} failed with HTTP ${res.status}`);
    return URL.createObjectURL(await res.blob());
  }

  /**
   * Opens GET /api/preview/stream, the live preview as H.264 (video/framing.ts), of
   * serial or, without it, of the selected phone. The caller reads the body and aborts
   * through signal. A device that cannot stream answers 409 video_unavailable, a fifth
   * phone 409 stage_limit, thrown as an ApiError with the reason.
   */
  async previewStream(signal: AbortSignal, serial = ''): Promise<ReadableStream<Uint8Array>> {
    const h: Record<string, string> = {};
    if (this.token) h['X-FixThis-Console-Token'] = this.token;
    let res: Response;
    try {
      const path = serial ? `/api/preview/stream?serial=${encodeURIComponent(serial)}` : '/api/preview/stream';
      res = await fetch(path, { headers: h, cache: 'no-store', signal });
    } catch (err) {
      throw new ApiError(0, 'network', `The FixThis app did not answer (${(err as Error).message || 'network error'}).`);
    }
    if (!res.ok || !res.body) {
      let b: Record<string, unknown> = {};
      try {
        b = (await res.json()) as Record<string, unknown>;
      } catch {
        // Not JSON: keep the status.
      }
      const code = typeof b.error === 'string' ? b.error : `http_${res.status}`;
      const message = typeof b.message === 'string' && b.message ? b.message : `GET /api/preview/stream failed with HTTP ${res.status}`;
      throw new ApiError(res.status, code, message, b);
    }
    return res.body;
  }

  private count(method: string, path: string): void {
    if (method !== 'GET') return;
    const p = path.split('?')[0];
    if (p === '/api/preview') this.diagnostics.fetchPreview++;
    else if (p === '/api/sessions') this.diagnostics.fetchSessions++;
    else if (/^\/api\/sessions\/[^/]+$/.test(p)) this.diagnostics.fetchSession++;
  }

  private async request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<WithEtag<T>> {
    this.count(method, path);
    const h: Record<string, string> = { Accept: 'application/json', ...headers };
    if (this.token) h['X-FixThis-Console-Token'] = this.token;
    if (body !== undefined) h['Content-Type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
    } catch (err) {
      throw new ApiError(0, 'network', `The FixThis app did not answer (${(err as Error).message || 'network error'}).`);
    }
    const text = await res.text();
    let parsed: unknown = null;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = { message: text.slice(0, 300) };
      }
    }
    if (!res.ok) {
      const b = (parsed && typeof parsed === 'object' ? parsed : {}) as Record<string, unknown>;
      const code = typeof b.error === 'string' ? b.error : `http_${res.status}`;
      const message = typeof b.message === 'string' && b.message ? b.message : `${method} ${path.split('?')[0]} failed with HTTP ${res.status}`;
      throw new ApiError(res.status, code, message, b);
    }
    return { data: parsed as T, etag: res.headers.get('ETag') };
  }

  private async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await this.request<T>(method, path, body)).data;
  }

  health() {
    return this.json<{ status: string; version: string }>('GET', '/api/health');
  }
  devices() {
    return this.json<{ devices: Device[]; selectedSerial: string }>('GET', '/api/devices');
  }
  refreshDevices() {
    return this.json<{ devices: Device[]; selectedSerial: string }>('POST', '/api/devices/refresh');
  }
  selectDevice(serial: string) {
    return this.json<{ selectedSerial: string; device: Device }>('POST', '/api/device/select', { serial } satisfies DeviceSelectRequest);
  }
  disconnectDevice() {
    return this.json<{ selectedSerial: string }>('POST', '/api/device/disconnect');
  }
  preview() {
    return this.json<Preview>('GET', '/api/preview');
  }
  freeze(serial: string | undefined, sessionId: string | undefined) {
    return this.json<Freeze>('POST', '/api/preview/freeze', { serial, sessionId } satisfies FreezeRequest);
  }
  resume() {
    return this.json<{ ok: boolean }>('POST', '/api/preview/resume');
  }
  /** Cuts the last `seconds` of the live screen (or a recording) into a clip of the session. */
  clip(req: ClipRequest) {
    return this.json<ClipResponse>('POST', '/api/preview/clip', req);
  }
  /** Starts a recording that clip({recordingId}) ends (a long press, up to 30 s). */
  startRecording(serial: string) {
    return this.json<RecordingResponse>('POST', '/api/preview/clip/record', { serial } satisfies RecordingRequest);
  }
  /**
   * Audits the frozen screen for accessibility and layout flaws (findings dismissed on this screen left out);
   * dynamic also audits it at font scale 2, dark and right to left on the phone, then puts the display back.
   */
  auditFrozen(frozenId: string, dynamic = false) {
    return this.json<AuditResult>('POST', `/api/preview/${encodeURIComponent(frozenId)}/audit${dynamic ? '?dynamic=true' : ''}`);
  }
  /** Keeps one finding dismissed on this screen in every later audit. */
  dismissFinding(frozenId: string, key: string) {
    return this.json<{ ok: boolean }>('POST', `/api/preview/${encodeURIComponent(frozenId)}/audit/dismiss`, { key } satisfies DismissRequest);
  }
  /** Tells the server how tall the stage is in device pixels (live JPEGs are sized to it). */
  setStageHeight(height: number) {
    return this.json<{ height: number }>('POST', '/api/preview/stage', { height: Math.round(height) } satisfies StageHeight);
  }

  /** Says what this console paints (see video/report.ts). */
  reportPaint(report: PaintReport) {
    return this.json<void>('POST', '/api/preview/stats', report);
  }

  tap(x: number, y: number) {
    return this.json<{ ok: boolean }>('POST', '/api/preview/tap', { x: Math.round(x), y: Math.round(y) } satisfies TapRequest);
  }
  sessions() {
    return this.json<{ sessions: SessionSummary[] }>('GET', '/api/sessions');
  }
  createSession(title?: string) {
    return this.json<{ sessionId: string; session: Session }>('POST', '/api/sessions', (title ? { title } : {}) satisfies NewSessionRequest);
  }
  async session(id: string): Promise<WithEtag<Session>> {
    const r = await this.request<{ session: Session }>('GET', `/api/sessions/${encodeURIComponent(id)}`);
    return { data: r.data.session, etag: r.etag };
  }
  updateSession(id: string, patch: SessionPatch) {
    return this.json<{ session: Session }>('PUT', `/api/sessions/${encodeURIComponent(id)}`, patch);
  }
  deleteSession(id: string) {
    return this.json<{ ok: boolean }>('DELETE', `/api/sessions/${encodeURIComponent(id)}`);
  }
  closeSession(id: string) {
    return this.json<{ session: Session }>('POST', `/api/sessions/${encodeURIComponent(id)}/close`);
  }
  /** `ifMatch` is the last ETag seen for the session, or "*" to overwrite. */
  saveBatch(req: BatchRequest, ifMatch: string | null) {
    return this.request<BatchResponse>('POST', '/api/items/batch', req, ifMatch ? { 'If-Match': ifMatch } : {});
  }
  updateItem(itemId: string, sessionId: string, patch: Omit<ItemUpdateRequest, 'sessionId'>) {
    return this.json<{ item: Item }>('PUT', `/api/items/${encodeURIComponent(itemId)}`, { sessionId, ...patch } satisfies ItemUpdateRequest);
  }
  deleteItem(itemId: string, sessionId: string) {
    return this.json<{ ok: boolean }>('DELETE', `/api/items/${encodeURIComponent(itemId)}?sessionId=${encodeURIComponent(sessionId)}`);
  }
  clearDraft(sessionId: string) {
    return this.json<{ deleted: number }>('DELETE', `/api/items/draft?sessionId=${encodeURIComponent(sessionId)}`);
  }
  answer(itemId: string, sessionId: string, answer: string) {
    return this.json<{ item: Item }>('POST', `/api/items/${encodeURIComponent(itemId)}/answer`, { sessionId, answer } satisfies AnswerRequest);
  }
  resolve(itemId: string, sessionId: string, status: ResolveRequest['status']) {
    return this.json<{ item: Item }>('POST', `/api/items/${encodeURIComponent(itemId)}/resolve`, { sessionId, status } satisfies ResolveRequest);
  }
  /** "Looks right": the user agrees with the agent's verified fix. */
  verifyItem(itemId: string, sessionId: string) {
    return this.json<{ item: Item }>('POST', `/api/items/${encodeURIComponent(itemId)}/verify`, { sessionId } satisfies VerdictRequest);
  }
  /** "Reopen": the item goes back to the agent with the user's note. */
  reopenItem(itemId: string, sessionId: string, note: string) {
    return this.json<{ item: Item }>('POST', `/api/items/${encodeURIComponent(itemId)}/reopen`, { sessionId, note } satisfies VerdictRequest);
  }
  agentControl(serial: string) {
    return this.json<ControlState>('GET', `/api/agent-control?serial=${encodeURIComponent(serial)}`);
  }
  setAgentControl(serial: string, allowed: boolean) {
    return this.json<ControlState>('PUT', '/api/agent-control', { serial, allowed } satisfies AgentControlRequest);
  }
  /** The phone's display conditions (dark theme, font scale, density, app locale, animations). */
  display(serial: string) {
    return this.json<DisplaySettings>('GET', `/api/display?serial=${encodeURIComponent(serial)}`);
  }
  setDisplay(change: DisplayChangeRequest) {
    return this.json<DisplaySettings>('PUT', '/api/display', change satisfies DisplayChangeRequest);
  }
  restoreDisplay(serial: string) {
    return this.json<DisplaySettings>('POST', '/api/display/restore', { serial } satisfies DisplayRestoreRequest);
  }
  deviceActions(after = 0) {
    return this.json<DeviceActionList>('GET', `/api/device-actions?after=${after}`);
  }
  /** Where a saved item probably lives in the Android sources (the prompt's candidates). */
  itemSources(itemId: string, sessionId: string) {
    return this.json<ItemSources>('GET', `/api/items/${encodeURIComponent(itemId)}/sources?sessionId=${encodeURIComponent(sessionId)}`);
  }
  agentHandoff(sessionId: string, itemIds: string[]) {
    return this.json<{ session: Session; prompt: string; batchId: string; runtimeEvidence?: HandoffEvidence }>('POST', '/api/agent-handoffs', { sessionId, itemIds } satisfies HandoffRequest);
  }
  /** A saved item's runtime evidence captures, newest first. */
  itemEvidence(itemId: string, sessionId: string) {
    return this.json<EvidenceDoc>('GET', `/api/items/${encodeURIComponent(itemId)}/runtime-evidence?sessionId=${encodeURIComponent(sessionId)}`);
  }
  /** The HTTP calls of the item's newest capture that read the network (the Network section). */
  itemNetwork(itemId: string, sessionId: string) {
    return this.json<NetworkDoc>('GET', `/api/items/${encodeURIComponent(itemId)}/network?sessionId=${encodeURIComponent(sessionId)}`);
  }
  /** Check sizes: the item's element looked for on the phone, foldable and tablet sizes (about 10 s). */
  checkSizes(itemId: string, sessionId: string) {
    return this.json<{ item: Item }>('POST', `/api/items/${encodeURIComponent(itemId)}/check-sizes`, { sessionId } satisfies SizeCheckRequest);
  }
  /** Capture diagnostics: runs the baseline preset for the item now (up to about 3 s). */
  /** Capture diagnostics; `bodies` keeps the HTTP bodies the app logged, for this capture. */
  collectEvidence(itemId: string, bodies = false) {
    return this.json<EvidenceRecord>('POST', `/api/items/${encodeURIComponent(itemId)}/runtime-evidence/collect`, bodies ? { bodies } : undefined);
  }
  handoffPreview(sessionId: string, itemIds: string[], markCopied: boolean) {
    return this.json<{ markdown: string }>('POST', `/api/sessions/${encodeURIComponent(sessionId)}/handoff-preview`, { itemIds, markCopied } satisfies HandoffPreviewRequest);
  }
  agent(sessionId: string) {
    return this.json<Presence>('GET', `/api/agent?sessionId=${encodeURIComponent(sessionId)}`);
  }
  connectInfo() {
    return this.json<ConnectInfo>('GET', '/api/connect');
  }
  /** The user's app on the selected device. */
  targetApp() {
    return this.json<TargetAppDoc>('GET', '/api/target-app');
  }
  /** Brings the installed app to the front; resolves once its window has focus. */
  launchTargetApp() {
    return this.json<TargetAppRunResult>('POST', '/api/target-app/launch');
  }
  /** Starts a build, install and launch; target-app-run-* events follow. */
  runTargetApp() {
    return this.json<TargetAppRunStarted>('POST', '/api/target-app/run');
  }
  /** Voice settings and this project's voice session; never the key itself. */
  voice() {
    return this.json<VoiceConfig>('GET', '/api/voice');
  }
  /** Stores the OpenAI key in the OS keychain (the server's; never in this page). */
  setVoiceKey(key: string) {
    return this.json<void>('PUT', '/api/voice/key', { key });
  }
  deleteVoiceKey() {
    return this.json<void>('DELETE', '/api/voice/key');
  }
  startVoice(sessionId: string, serial: string, spokenReplies: boolean, mode: VoiceMode) {
    const body: VoiceStartRequest = { sessionId, serial, spokenReplies, mode };
    return this.json<VoiceSession>('POST', '/api/voice/sessions', body);
  }
  updateVoice(voiceSessionId: string, patch: VoiceUpdateRequest) {
    return this.json<VoiceSession>('PUT', `/api/voice/sessions/${encodeURIComponent(voiceSessionId)}`, patch);
  }
  stopVoice(voiceSessionId: string) {
    return this.json<void>('DELETE', `/api/voice/sessions/${encodeURIComponent(voiceSessionId)}`);
  }
  /** Tells the interviewer what the user pointed at (device pixels). */
  voiceAnchor(voiceSessionId: string, anchor: VoiceAnchor) {
    return this.json<AnchorAnswer>('POST', `/api/voice/sessions/${encodeURIComponent(voiceSessionId)}/anchors`, anchor);
  }
  /** One chunk of microphone audio: raw PCM16LE mono 24 kHz, 100-250 ms. */
  async voiceAudio(voiceSessionId: string, pcm: Uint8Array): Promise<void> {
    const h: Record<string, string> = { 'Content-Type': 'application/octet-stream' };
    if (this.token) h['X-FixThis-Console-Token'] = this.token;
    const path = `/api/voice/sessions/${encodeURIComponent(voiceSessionId)}/audio`;
    let res: Response;
    try {
      res = await fetch(path, { method: 'POST', headers: h, body: pcm as Uint8Array<ArrayBuffer>, cache: 'no-store' });
    } catch (err) {
      throw new ApiError(0, 'network', `The FixThis app did not answer (${(err as Error).message || 'network error'}).`);
    }
    if (!res.ok) {
      let b: Record<string, unknown> = {};
      try {
        b = (await res.json()) as Record<string, unknown>;
      } catch {
        // Not JSON: keep the status.
      }
      const code = typeof b.error === 'string' ? b.error : `http_${res.status}`;
      throw new ApiError(res.status, code, typeof b.message === 'string' ? b.message : `POST ${path} failed with HTTP ${res.status}`, b);
    }
  }
  exportPath(sessionId: string, format: 'json' | 'markdown'): string {
    return `/api/sessions/${encodeURIComponent(sessionId)}/export?format=${format}`;
  }

  /** Opens /api/events; returns a function that closes it. */
  openEvents(handlers: EventStreamHandlers): () => void {
    const es = new EventSource(this.url('/api/events'));
    es.onopen = () => handlers.onOpen();
    es.onerror = () => handlers.onError(es.readyState === EventSource.CLOSED);
    for (const type of EVENT_TYPES) {
      es.addEventListener(type, (ev) => {
        const msg = ev as MessageEvent<string>;
        let data: unknown = {};
        try {
          data = msg.data ? JSON.parse(msg.data) : {};
        } catch {
          return;
        }
        // The one place a payload gets its type: the server encodes each event's Go
        // payload type, which EventPayloads is generated from.
        handlers.onEvent(type, data as EventPayloads[typeof type], msg.lastEventId);
      });
    }
    return () => es.close();
  }
}
