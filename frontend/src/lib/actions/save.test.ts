import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api';
import { app } from '../features/session/state.svelte';
import { draft } from '../state/draft.svelte';
import { ui } from '../state/ui.svelte';
import type { Transport } from '../transport';
import type { BatchRequest, Session } from '../types';
import { copyPrompt, persistPending, resolveMismatch, resolveStale, saveToMcp } from './save';
import { screen, session as sessionFx } from '../testing/fixtures';

const session = (etag: string): Session => sessionFx({ sessionId: 'S', etag });

/** The batch requests the fake server saw, with their If-Match. */
let calls: { req: BatchRequest; ifMatch: string | null }[];
let answers: (() => unknown)[];
/** The transport the actions are handed: a fake server's api and sync. */
let transport: Transport;

beforeEach(() => {
  calls = [];
  answers = [];
  transport = {
    api: {
      saveBatch: vi.fn(async (req: BatchRequest, ifMatch: string | null) => {
        calls.push({ req, ifMatch });
        return answers.shift()!();
      }),
      resume: vi.fn(async () => ({ ok: true })),
      handoffPreview: vi.fn(async () => ({ markdown: '# FixThis Feedback Handoff' })),
      agentHandoff: vi.fn(async () => ({ session: session('"3"') })),
    },
    sync: { reloadActiveSession: vi.fn(async () => undefined) },
  } as unknown as Transport;
  app.activeSessionId = 'S';
  app.session = session('"1"');
  app.etags.clear();
  ui.dialog = null;
  draft.close(true);
  draft.begin({ frozenId: 'p1', imageUrl: '/img', screen: screen({ fingerprint: 'fp', width: 100, height: 200 }), nodes: [] }, { sessionId: 'S', serial: 'emu' });
  draft.add({ type: 'screen' }, 'make it blue', 'med', 'Whole screen');
  draft.add({ type: 'screen' }, '', 'low', 'Whole screen');
});

const saved = (etag: string) => () => ({ data: { session: session(etag), items: [{ itemId: 'i1' }] }, etag });

describe('persistPending', () => {
  it('saves the written annotations once, keyed by workspace and draft item, and keeps the pins', async () => {
    answers.push(saved('"2"'));
    const items = await persistPending(transport, 'copy', async () => undefined);
    expect(items).toEqual([{ itemId: 'i1' }]);
    expect(calls).toHaveLength(1);
    expect(calls[0].ifMatch).toBe('"1"');
    expect(calls[0].req).toMatchObject({ sessionId: 'S', frozenId: 'p1', frozenFingerprint: 'fp', workspaceId: draft.workspace?.workspaceId });
    expect(calls[0].req.items.map((i) => i.comment)).toEqual(['make it blue']);
    expect(draft.items.map((i) => i.comment)).toEqual(['']);
    expect(app.etags.get('S')).toBe('"2"');
  });

  it('sends a fractional area kept in the browser in whole device pixels', async () => {
    draft.add({ type: 'area', bounds: { left: 516.47, top: 260.47412353923204, right: 564.5, bottom: 308.2 } }, 'kept from before', 'low', 'Visual area');
    answers.push(saved('"2"'));
    await persistPending(transport, 'copy', async () => undefined);
    expect(calls[0].req.items.map((i) => i.target)).toEqual([{ type: 'screen' }, { type: 'area', bounds: { left: 516, top: 260, right: 565, bottom: 308 } }]);
  });

  it('asks on a fingerprint mismatch and forces the save only when told', async () => {
    answers.push(() => {
      throw new ApiError(409, 'screen_fingerprint_mismatch', 'SCREEN_FINGERPRINT_MISMATCH: x', { frozenFingerprint: 'fp', currentFingerprint: 'fp2' });
    });
    const again = vi.fn(async () => void (await persistPending(transport, 'leave', again)));
    expect(await persistPending(transport, 'leave', again)).toBeNull();
    expect(ui.dialog).toEqual({ kind: 'fingerprintMismatch', frozen: 'fp', current: 'fp2', action: 'save' });
    answers.push(saved('"2"'));
    await resolveMismatch(transport, 'force');
    expect(again).toHaveBeenCalledTimes(1);
    expect(calls.map((c) => c.req.forceMismatchOverride)).toEqual([undefined, true]);
  });

  it('overwrites with If-Match * after "Keep mine", once', async () => {
    answers.push(() => {
      throw new ApiError(412, 'stale_preview', 'STALE_PREVIEW: x', { serverDraft: session('"9"') });
    });
    const again = async () => void (await persistPending(transport, 'save', again));
    expect(await persistPending(transport, 'save', again)).toBeNull();
    expect(ui.dialog?.kind).toBe('staleDraft');
    answers.push(saved('"10"'), saved('"11"'));
    await resolveStale(transport, 'keep');
    await persistPending(transport, 'save', again);
    expect(calls.map((c) => c.ifMatch)).toEqual(['"1"', '*']);
  });

  it('takes the server version after "Use server\'s version" and drops the local work', async () => {
    answers.push(() => {
      throw new ApiError(412, 'stale_preview', 'STALE_PREVIEW: x', { serverDraft: session('"9"') });
    });
    await persistPending(transport, 'copy', async () => undefined);
    ui.enterFrozen();
    await resolveStale(transport, 'server');
    expect(draft.workspace).toBeNull();
    expect(app.session?.etag).toBe('"9"');
    expect(app.etags.get('S')).toBe('"9"');
    expect([ui.stageMode, ui.tool]).toEqual(['live', 'select']);
    expect(transport.sync.reloadActiveSession).not.toHaveBeenCalled();
  });

  it('drops an answer for a session that is no longer active', async () => {
    answers.push(() => {
      app.activeSessionId = 'T';
      throw new ApiError(409, 'screen_fingerprint_mismatch', 'x', {});
    });
    expect(await persistPending(transport, 'copy', async () => undefined)).toBeNull();
    expect(ui.dialog).toBeNull();
  });
});

describe('handing off', () => {
  const withItems = (etag: string) => () => ({
    data: { session: { ...session(etag), items: [{ itemId: 'i1', phase: 'draft' }, { itemId: 'i0', phase: 'sent' }] }, items: [{ itemId: 'i1' }] },
    etag,
  });

  it('Save to MCP saves first, sends only unsent items, and ends the frozen draft', async () => {
    answers.push(withItems('"2"'));
    ui.enterFrozen();
    await saveToMcp(transport);
    expect(transport.api.agentHandoff).toHaveBeenCalledWith('S', ['i1']);
    expect(draft.workspace).toBeNull();
    expect([ui.stageMode, ui.busy]).toEqual(['live', '']);
    expect(transport.api.resume).toHaveBeenCalled();
  });

  it('Copy Prompt copies every open item and falls back to a dialog without a clipboard', async () => {
    answers.push(withItems('"2"'));
    await copyPrompt(transport);
    expect(transport.api.handoffPreview).toHaveBeenCalledWith('S', ['i1', 'i0'], true);
    expect(ui.dialog).toEqual({ kind: 'clipboard', text: '# FixThis Feedback Handoff' });
    expect(draft.items.map((i) => i.comment)).toEqual(['']); // the pin stays local
  });

  it('runs one handoff at a time', async () => {
    ui.busy = 'freezing';
    await saveToMcp(transport);
    expect(calls).toHaveLength(0);
    ui.busy = '';
  });
});
