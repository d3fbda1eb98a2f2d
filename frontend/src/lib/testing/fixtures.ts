// Builders for the server's shapes in unit tests: a test names only the fields it
// cares about and the rest get the values the server sends for "nothing".

import type { Device, FrozenScreen, Item, ItemSources, NodeSnapshot, Presence, Session, Snapshot, UiNode } from '../types';
import type { TargetAppRunFinished } from '../wire.gen';
import type { VoiceSession } from '../features/voice/types';

export function node(n: Partial<UiNode> & Pick<UiNode, 'uid' | 'bounds'>): UiNode {
  return {
    parentUid: '', indexPath: '', class: '', text: '', contentDescription: '', resourceId: '', testTag: '',
    clickable: false, enabled: true, focused: false, selected: false, checkable: false, checked: false,
    password: false, scrollable: false, editable: false, compose: false, role: '',
    ...n,
  };
}

export function snapshot(s: Partial<NodeSnapshot>): NodeSnapshot {
  return { class: '', text: '', testTag: '', contentDescription: '', role: '', resourceId: '', ...s };
}

export function screen(s: Partial<FrozenScreen> & Pick<FrozenScreen, 'fingerprint' | 'width' | 'height'>): FrozenScreen {
  return { fingerprints: { structural: '', perceptual: '', structure: '' }, package: '', activity: '', density: 0, orientation: 'PORTRAIT', rotation: 0, windows: [], imeVisible: false, secure: false, ...s };
}

export function session(s: Partial<Session> & Pick<Session, 'sessionId'>): Session {
  return {
    title: '', status: 'open', createdAt: '', updatedAt: '', itemCount: 0,
    phaseCounts: { draft: 0, sent: 0, sent_modified: 0, in_progress: 0, needs_clarification: 0, wont_fix: 0, resolved: 0 },
    runtimeEvidencePolicy: 'auto', agentPickup: 'batch', items: [], screens: [], handoffs: [], etag: '',
    ...s,
  };
}

export function item(i: Partial<Item> & Pick<Item, 'itemId' | 'sequenceNumber'>): Item {
  return {
    sessionId: '', screenId: '', clientWorkspaceId: '', clientDraftItemId: '', target: { type: 'screen' },
    severity: 'med', comment: '', delivery: 'draft', status: 'open', phase: 'draft', resolvedBy: '', agentNote: '',
    agentSummary: '', agentQuestion: '', userAnswer: '', createdAt: '', updatedAt: '', lastHandedOffAt: null, cropUrl: '',
    resolvedAt: null, forcedSave: false,
    ...i,
  };
}

export function sources(s: Partial<ItemSources> & Pick<ItemSources, 'itemId'>): ItemSources {
  return { candidates: [], editSurfaces: [], reason: '', ...s };
}

export function device(d: Partial<Device> & Pick<Device, 'serial'>): Device {
  return { state: 'device', model: '', product: '', device: '', transportId: 0, connection: 'usb', androidVersion: '', sdk: 0, screen: null, hint: '', isDemo: false, ...d };
}

export function presence(p: Partial<Presence> & Pick<Presence, 'sessionId' | 'presence'>): Presence {
  return { since: '', lastSeenAt: '', ...p };
}

export function snapshotEvent(s: Partial<Snapshot>): Snapshot {
  return {
    sessions: [], agent: null, version: '', mode: 'serve', devices: [], selectedSerial: '', adbServerUp: true, adbServerError: '',
    preview: { previewAvailable: false, status: { state: 'no-device' } },
    ...s,
  };
}

export function runFinished(f: Partial<TargetAppRunFinished> & Pick<TargetAppRunFinished, 'runId' | 'ok'>): TargetAppRunFinished {
  return { result: { applicationId: 'com.fixthis.demo', serial: 'sim', built: true, installed: true, launchMs: 0, foreground: true }, ...f };
}

export function voiceSession(v: Partial<VoiceSession> = {}): VoiceSession {
  return { voiceSessionId: 'v1', sessionId: 's1', serial: 'emu', state: 'listening', muted: false, spokenReplies: true, mode: 'smart', startedAt: '', holder: 'console', ...v };
}
