// Wires the transport to the state and implements what the user can do. Components call
// these functions; they never talk to the server themselves.
import { Api } from './api';
import { IME_LABEL, NodeIndex, keyboardAt, nodeLabel, snapshotOf } from './hittest';
import { app } from './state/app.svelte';
import { draft } from './state/draft.svelte';
import { ui } from './state/ui.svelte';
import { Sync } from './sync';
import { ctx } from './ctx';
import { checkRecovery, persistPending, report, setLeaveFrozen } from './handoff';
import { initToken } from './token';
import type { EvidencePolicy, Target, UiNode } from './types';
import { clearSessionWorkspaces, type DraftItem } from './workspace';
import { sortSessions, summaryOf, upsertSummary } from './events';

const ACTIVE_SESSION_KEY = 'fixthis.activeSessionId';

let api: Api;
let sync: Sync;
let resynced = false;
let switched = false;

export function getApi(): Api {
  return api;
}

/** Starts the console: token, health, bootstrap preview, then the event stream. */
export async function start(): Promise<void> {
  const token = initToken({ location: window.location, history: window.history, sessionStorage: window.sessionStorage });
  api = new Api(token);
  ctx.api = api;
  sync = new Sync(api, app, {
    onActiveSessionDeleted: () => {
      app.notify('warning', 'This session was deleted elsewhere. Pick another session or start a new one.');
      activate('');
    },
    onResync: () => void resync(),
  });
  ctx.sync = sync;
  setLeaveFrozen(selectMode);
  window.FixThisConsoleDebug = {
    consoleEventsDiagnostics: () => JSON.parse(JSON.stringify(api.diagnostics)),
  };
  await sync.start();
}

async function resync(): Promise<void> {
  if (!resynced) {
    resynced = true;
    let stored = '';
    try {
      stored = localStorage.getItem(ACTIVE_SESSION_KEY) ?? '';
    } catch {
      // storage disabled
    }
    if (!app.snapshotHadSessions) {
      // An older snapshot without the session list: ask once (bootstrap, not polling).
      try {
        const r = await api.sessions();
        app.sessions = sortSessions(r.sessions ?? []);
      } catch (err) {
        report(err, 'Could not load the sessions');
      }
    }
    const pick =
      app.sessions.find((s) => s.sessionId === stored) ?? app.sessions.find((s) => s.status === 'open') ?? null;
    if (pick) await activate(pick.sessionId);
    return;
  }
  await sync.reloadActiveSession();
}

// ---------------------------------------------------------------- sessions

/** Switches the active session; a dirty draft asks first. '' leaves no session active. */
export async function switchSession(sessionId: string): Promise<void> {
  if (sessionId === app.activeSessionId) {
    ui.drawerOpen = false;
    return;
  }
  if (draft.dirty) {
    ui.dialog = { kind: 'dirtySwitch', toSessionId: sessionId };
    return;
  }
  draft.close(true);
  await activate(sessionId);
}

export async function activate(sessionId: string): Promise<void> {
  sync.generation++;
  ui.clearSelection();
  ui.recovery = null;
  if (ui.stageMode !== 'live') {
    ui.stageMode = 'live';
    ui.tool = 'select';
  }
  app.activeSessionId = sessionId;
  app.session = null;
  if (switched) app.agent = null;
  ui.drawerOpen = false;
  try {
    if (sessionId) localStorage.setItem(ACTIVE_SESSION_KEY, sessionId);
    else localStorage.removeItem(ACTIVE_SESSION_KEY);
  } catch {
    // storage disabled
  }
  if (!sessionId) return;
  await sync.reloadActiveSession();
  // Forced: a draft kept for later when leaving this session must be offered on return.
  if (app.activeSessionId === sessionId) checkRecovery(sessionId, true);
  void refreshPresence(sessionId);
  switched = true;
}

async function refreshPresence(sessionId: string): Promise<void> {
  const seq = app.agentSeq;
  try {
    const p = await api.agent(sessionId);
    // An agent event that arrived while this request was in flight is newer: keep it.
    if (app.activeSessionId !== sessionId || app.agentSeq !== seq) return;
    if (!p.sessionId || p.sessionId === sessionId) app.agent = p;
  } catch {
    // presence is optional: older servers or no MCP yet
  }
}

export async function resolveDirtySwitch(choice: 'keep' | 'discard' | 'cancel'): Promise<void> {
  const d = ui.dialog;
  ui.dialog = null;
  if (!d || d.kind !== 'dirtySwitch' || choice === 'cancel') return;
  draft.close(choice === 'discard');
  if (choice === 'keep') app.notify('info', 'Draft kept in this browser. Open its session again to recover it.');
  if (ui.stageMode === 'frozen') void api.resume().catch(() => undefined);
  await activate(d.toSessionId ?? '');
}

export async function newSession(): Promise<string> {
  if (draft.dirty) {
    ui.dialog = { kind: 'dirtySwitch', toSessionId: null };
    return '';
  }
  try {
    const r = await api.createSession();
    app.sessions = upsertSummary(app.sessions, summaryOf(r.session ?? { sessionId: r.sessionId, title: '', status: 'open', itemCount: 0, items: [], screens: [] }));
    await activate(r.sessionId);
    return r.sessionId;
  } catch (err) {
    report(err, 'Could not start a session');
    return '';
  }
}

async function ensureSession(): Promise<string> {
  if (app.activeSessionId) return app.activeSessionId;
  try {
    const r = await api.createSession();
    app.sessions = upsertSummary(app.sessions, summaryOf(r.session ?? { sessionId: r.sessionId, title: '', status: 'open', itemCount: 0, items: [], screens: [] }));
    await activate(r.sessionId);
    return r.sessionId;
  } catch (err) {
    report(err, 'Could not start a feedback session');
    return '';
  }
}

export function askDeleteSession(sessionId: string): void {
  const s = app.sessions.find((x) => x.sessionId === sessionId);
  ui.dialog = { kind: 'confirmDeleteSession', sessionId, title: s?.title || 'Untitled session' };
}

export async function deleteSession(sessionId: string): Promise<void> {
  ui.dialog = null;
  try {
    await api.deleteSession(sessionId);
    clearSessionWorkspaces(draft.storage, sessionId);
    app.sessions = app.sessions.filter((s) => s.sessionId !== sessionId);
    if (sessionId === app.activeSessionId) {
      draft.close(true);
      await activate('');
    }
    app.notify('success', 'Session deleted, with its local drafts.');
  } catch (err) {
    report(err, 'Could not delete the session');
  }
}

let policyChain: Promise<unknown> = Promise.resolve();

/** Persists the runtime evidence policy; updates are serialized and fenced per session. */
export function setEvidencePolicy(policy: EvidencePolicy): void {
  const sessionId = app.activeSessionId;
  if (!sessionId || !app.session) return;
  const before = app.session.runtimeEvidencePolicy;
  app.session = { ...app.session, runtimeEvidencePolicy: policy };
  policyChain = policyChain.then(async () => {
    try {
      const r = await api.updateSession(sessionId, { runtimeEvidencePolicy: policy });
      if (app.activeSessionId !== sessionId || !r.session) return;
      app.sessions = upsertSummary(app.sessions, summaryOf(r.session));
    } catch (err) {
      if (app.activeSessionId === sessionId && app.session) app.session = { ...app.session, runtimeEvidencePolicy: before };
      report(err, 'Could not change the diagnostics policy');
    }
  });
}

// ---------------------------------------------------------------- devices

export async function selectDevice(serial: string): Promise<void> {
  ui.devicesOpen = false;
  try {
    const r = await api.selectDevice(serial);
    app.selectedSerial = r.selectedSerial;
  } catch (err) {
    report(err, 'Could not select the device');
  }
}

export async function refreshDevices(): Promise<void> {
  try {
    const r = await api.refreshDevices();
    app.devices = r.devices ?? [];
    app.selectedSerial = r.selectedSerial ?? '';
    app.notify('info', `${app.devices.length === 0 ? 'No devices found' : `${app.devices.length} device${app.devices.length === 1 ? '' : 's'} found`}.`, { topic: 'devices' });
  } catch (err) {
    report(err, 'Could not refresh devices');
  }
}

export async function disconnectDevice(): Promise<void> {
  try {
    const r = await api.disconnectDevice();
    app.selectedSerial = r.selectedSerial ?? '';
  } catch (err) {
    report(err, 'Could not clear the device selection');
  }
}

export async function tapDevice(x: number, y: number): Promise<void> {
  try {
    await api.tap(x, y);
  } catch (err) {
    report(err, 'The tap did not reach the device');
  }
}

// ---------------------------------------------------------------- annotate

/** Enters Annotate: freezes the latest frame with its UI tree. */
export async function annotate(): Promise<void> {
  if (ui.stageMode === 'frozen' && draft.workspace) {
    ui.tool = 'annotate';
    return;
  }
  if (ui.busy) return;
  if (!app.selectedSerial) {
    app.notify('warning', 'Connect a device or use the demo device first, then press A to annotate.');
    return;
  }
  ui.busy = 'freezing';
  try {
    const sessionId = await ensureSession();
    if (!sessionId) return;
    const f = await api.freeze(app.selectedSerial, sessionId);
    if (app.activeSessionId !== sessionId) return;
    draft.close(false);
    draft.begin(f, { sessionId, serial: app.selectedSerial });
    ui.clearSelection();
    ui.stageMode = 'frozen';
    ui.tool = 'annotate';
    ui.recovery = null;
  } catch (err) {
    report(err, 'Could not freeze the screen', 'The live preview is unchanged; try Annotate again.');
  } finally {
    ui.busy = '';
  }
}

/** Back to the live preview. Written annotations are saved as drafts first. */
export async function selectMode(): Promise<void> {
  if (ui.stageMode === 'saved') {
    ui.stageMode = 'live';
    ui.savedScreenId = '';
    ui.selectedItemId = '';
    ui.tool = 'select';
    return;
  }
  if (ui.stageMode !== 'frozen') {
    ui.tool = 'select';
    return;
  }
  if (draft.written.length > 0) {
    const saved = await persistPending('leave');
    if (saved === null) return;
  }
  if (draft.items.length > 0) app.notify('info', 'Pins without a comment were kept in this browser; recover them from the banner.');
  draft.close(false);
  ui.clearSelection();
  ui.stageMode = 'live';
  ui.tool = 'select';
  try {
    await api.resume();
  } catch {
    // the live loop resumes on its own when the next watcher arrives
  }
  if (app.activeSessionId) checkRecovery(app.activeSessionId, true);
}

function nodeTarget(node: UiNode): Target {
  return { type: 'node', nodeUid: node.uid, bounds: { ...node.bounds }, snapshot: snapshotOf(node) };
}

function setPending(target: Target, label: string, nodeUid?: string): void {
  ui.editingDraftId = '';
  ui.selectedItemId = '';
  if (!ui.pending) {
    ui.pendingComment = '';
    ui.pendingSeverity = 'med';
  }
  ui.pending = { target, label, nodeUid };
  ui.focusCommentTick++;
}

export function pickPoint(x: number, y: number): void {
  // The dump is the app's window only: nodes lie under the keyboard too, but a click
  // there is on the input method.
  const ime = keyboardAt(draft.workspace?.frozenScreen?.windows, x, y);
  if (ime) {
    setPending({ type: 'area', bounds: { ...ime.bounds } }, IME_LABEL);
    return;
  }
  const node = draft.index?.hitTest(x, y);
  if (node) setPending(nodeTarget(node), nodeLabel(node), node.uid);
  else setPending({ type: 'area', bounds: { left: Math.max(0, x - 24), top: Math.max(0, y - 24), right: x + 24, bottom: y + 24 } }, 'Visual area');
}

/** Picks a node by uid, as a click on it would (keyboard annotation). */
export function pickNode(uid: string): void {
  const node = draft.index?.byUid.get(uid);
  if (node) setPending(nodeTarget(node), nodeLabel(node), node.uid);
}

export function pickArea(bounds: { left: number; top: number; right: number; bottom: number }): void {
  const hint = draft.index?.bestForArea(bounds);
  setPending({ type: 'area', bounds }, hint ? `Area near ${nodeLabel(hint)}` : 'Visual area');
}

export function pickScreen(): void {
  if (ui.stageMode !== 'frozen') return;
  setPending({ type: 'screen' }, 'Whole screen');
}

/** Re-scopes the pending target (or an edited draft item) to an ancestor from the breadcrumb. */
export function rescope(uid: string): void {
  const node = draft.index?.byUid.get(uid);
  if (!node) return;
  if (ui.pending) {
    ui.pending = { ...ui.pending, target: nodeTarget(node), label: nodeLabel(node), nodeUid: uid };
  } else if (ui.editingDraftId) {
    draft.update(ui.editingDraftId, { target: nodeTarget(node), label: nodeLabel(node) });
  }
  ui.focusCommentTick++;
}

export function addPending(): void {
  const p = ui.pending;
  if (!p) return;
  draft.add(JSON.parse(JSON.stringify(p.target)) as Target, ui.pendingComment.trim(), ui.pendingSeverity, p.label);
  ui.pending = null;
  ui.pendingComment = '';
  ui.hoverNode = null;
}

export function cancelPending(): void {
  ui.pending = null;
  ui.pendingComment = '';
  ui.hoverNode = null;
}

export function editDraft(draftItemId: string): void {
  ui.pending = null;
  ui.selectedItemId = '';
  ui.editingDraftId = draftItemId;
  if (ui.stageMode !== 'frozen' && draft.workspace) ui.stageMode = 'frozen';
}

export function updateDraft(draftItemId: string, patch: Partial<Pick<DraftItem, 'comment' | 'severity'>>): void {
  draft.update(draftItemId, patch);
}

export function removeDraft(draftItemId: string): void {
  draft.remove(draftItemId);
  if (ui.editingDraftId === draftItemId) ui.editingDraftId = '';
}

export function undo(): void {
  if (draft.stepBack()) ui.editingDraftId = '';
}

export function redo(): void {
  if (draft.stepForward()) ui.editingDraftId = '';
}

/** The ancestry breadcrumb of the current node target. */
export function crumbsFor(target: Target | undefined): UiNode[] {
  if (!target || target.type !== 'node' || !draft.index) return [];
  return draft.index.crumbs(target.nodeUid);
}

export function nodeIndex(): NodeIndex | null {
  return draft.index;
}

export * from './handoff';
