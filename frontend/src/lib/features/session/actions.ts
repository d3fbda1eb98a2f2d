// Sessions: which one is active, switching with a dirty draft, creating, deleting, the
// diagnostics policy and the Markdown export. Every result is fenced by the session
// that asked for it.
import { app } from './state.svelte';
import { draft } from '../../state/draft.svelte';
import { ui } from '../../state/ui.svelte';
import type { Transport } from '../../transport';
import type { ConnectInfo, EvidencePolicy } from '../../types';
import { clearSessionWorkspaces } from '../../workspace';
import { checkRecovery } from '../../actions/recovery';
import { report } from '../../actions/report';

const ACTIVE_SESSION_KEY = 'fixthis.activeSessionId';

let resynced = false;
let switched = false;

/**
 * After every snapshot and full refresh. The first time it picks the session to show
 * (the one remembered in this browser, else the newest open one); later it reloads the
 * active session's detail.
 */
export async function resync(transport: Transport): Promise<void> {
  if (resynced) {
    await transport.sync.reloadActiveSession();
    return;
  }
  resynced = true;
  let stored = '';
  try {
    stored = localStorage.getItem(ACTIVE_SESSION_KEY) ?? '';
  } catch {
    // storage disabled
  }
  const pick = app.sessions.find((s) => s.sessionId === stored) ?? app.sessions.find((s) => s.status === 'open') ?? null;
  if (pick) await activate(transport, pick.sessionId);
}

/** Switches the active session; a dirty draft asks first. '' leaves no session active. */
export async function switchSession(transport: Transport, sessionId: string): Promise<void> {
  if (sessionId === app.activeSessionId) {
    ui.drawerOpen = false;
    return;
  }
  if (draft.dirty) {
    ui.dialog = { kind: 'dirtySwitch', toSessionId: sessionId };
    return;
  }
  draft.close(true);
  await activate(transport, sessionId);
}

export async function activate(transport: Transport, sessionId: string): Promise<void> {
  transport.sync.switchSession(sessionId);
  ui.clearSelection();
  ui.recovery = null;
  if (ui.stageMode !== 'live') ui.backToLive();
  if (switched) app.agent = null;
  ui.drawerOpen = false;
  try {
    if (sessionId) localStorage.setItem(ACTIVE_SESSION_KEY, sessionId);
    else localStorage.removeItem(ACTIVE_SESSION_KEY);
  } catch {
    // storage disabled
  }
  if (!sessionId) return;
  await transport.sync.reloadActiveSession();
  // Forced: a draft kept for later when leaving this session must be offered on return.
  if (app.activeSessionId === sessionId) checkRecovery(sessionId, true);
  void refreshPresence(transport, sessionId);
  switched = true;
}

async function refreshPresence(transport: Transport, sessionId: string): Promise<void> {
  const seq = app.agentSeq;
  try {
    const p = await transport.api.agent(sessionId);
    // An agent event that arrived while this request was in flight is newer: keep it.
    if (app.activeSessionId !== sessionId || app.agentSeq !== seq) return;
    if (!p.sessionId || p.sessionId === sessionId) app.agent = p;
  } catch {
    // The presence chip keeps its last state; the next agent event corrects it.
  }
}

export async function resolveDirtySwitch(transport: Transport, choice: 'keep' | 'discard' | 'cancel'): Promise<void> {
  const d = ui.dialog;
  ui.dialog = null;
  if (!d || d.kind !== 'dirtySwitch' || choice === 'cancel') return;
  draft.close(choice === 'discard');
  if (choice === 'keep') app.notify('info', 'Draft kept in this browser. Open its session again to recover it.');
  if (ui.stageMode === 'frozen') void transport.api.resume().catch(() => undefined);
  await activate(transport, d.toSessionId ?? '');
}

async function createAndActivate(transport: Transport, what: string): Promise<string> {
  try {
    const r = await transport.api.createSession();
    app.upsertSession(r.session);
    await activate(transport, r.sessionId);
    return r.sessionId;
  } catch (err) {
    report(err, what);
    return '';
  }
}

export async function newSession(transport: Transport): Promise<string> {
  if (draft.dirty) {
    ui.dialog = { kind: 'dirtySwitch', toSessionId: null };
    return '';
  }
  return createAndActivate(transport, 'Could not start a session');
}

/** The active session, or a new one when there is none (Annotate needs one). */
export async function ensureSession(transport: Transport): Promise<string> {
  if (app.activeSessionId) return app.activeSessionId;
  return createAndActivate(transport, 'Could not start a feedback session');
}

export function askDeleteSession(sessionId: string): void {
  const s = app.sessions.find((x) => x.sessionId === sessionId);
  ui.dialog = { kind: 'confirmDeleteSession', sessionId, title: s?.title || 'Untitled session' };
}

export async function deleteSession(transport: Transport, sessionId: string): Promise<void> {
  ui.dialog = null;
  try {
    await transport.api.deleteSession(sessionId);
    clearSessionWorkspaces(draft.storage, sessionId);
    app.removeSession(sessionId);
    if (sessionId === app.activeSessionId) {
      draft.close(true);
      await activate(transport, '');
    }
    app.notify('success', 'Session deleted, with its local drafts.');
  } catch (err) {
    report(err, 'Could not delete the session');
  }
}

let policyChain: Promise<unknown> = Promise.resolve();

/** Persists the runtime evidence policy; updates are serialized and fenced per session. */
export function setEvidencePolicy(transport: Transport, policy: EvidencePolicy): void {
  const sessionId = app.activeSessionId;
  if (!sessionId || !app.session) return;
  const before = app.session.runtimeEvidencePolicy;
  app.setPolicy(sessionId, policy);
  policyChain = policyChain.then(async () => {
    try {
      const r = await transport.api.updateSession(sessionId, { runtimeEvidencePolicy: policy });
      if (app.activeSessionId !== sessionId || !r.session) return;
      app.upsertSession(r.session);
    } catch (err) {
      app.setPolicy(sessionId, before);
      report(err, 'Could not change the diagnostics policy');
    }
  });
}

/** Downloads the session's Markdown export (fetched with the token in a header). */
export async function exportSession(transport: Transport, sessionId: string): Promise<void> {
  try {
    const href = await transport.api.blobUrl(transport.api.exportPath(sessionId, 'markdown'));
    const a = document.createElement('a');
    a.href = href;
    a.download = `fixthis-${sessionId}.md`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
  } catch (err) {
    app.notify('error', `Export failed: ${(err as Error).message}. Your annotations are safe; try again.`);
  }
}

/** What "Connect an agent" shows: the MCP address, token and per-agent settings. */
export function connectInfo(transport: Transport): Promise<ConnectInfo> {
  return transport.api.connectInfo();
}

/** Close session: closed for good; agents waiting on it are told it ended. */
export async function closeSession(transport: Transport, sessionId: string): Promise<boolean> {
  try {
    const r = await transport.api.closeSession(sessionId);
    if (r.session) {
      app.upsertSession(r.session);
      app.applySession(sessionId, r.session);
    }
    app.notify('success', 'Session closed. Agents waiting on it were told it ended.');
    return true;
  } catch (err) {
    report(err, 'Could not close the session');
    return false;
  }
}

/** The session's agent pickup: batch (Save to MCP releases) or instant. */
export async function setAgentPickup(transport: Transport, v: 'batch' | 'instant'): Promise<void> {
  const sessionId = app.activeSessionId;
  if (!sessionId || !app.session) return;
  try {
    const r = await transport.api.updateSession(sessionId, { agentPickup: v });
    if (app.activeSessionId === sessionId && r.session) app.applySession(sessionId, r.session);
  } catch (err) {
    report(err, 'Could not change the agent pickup');
  }
}
