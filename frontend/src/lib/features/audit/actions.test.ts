import { beforeEach, describe, expect, it, vi } from 'vitest';
import { draft } from '../../state/draft.svelte';
import { ui } from '../../state/ui.svelte';
import type { Transport } from '../../transport';
import { node, screen } from '../../testing/fixtures';
import type { AuditFinding, AuditResult } from '../../wire.gen';
import { addAllErrors, addFinding, auditOnFreeze, dismissFinding, runAudit } from './actions';
import { groupByCheck, itemComment, itemSeverity } from './model';
import { audits } from './state.svelte';

const finding = (over: Partial<AuditFinding>): AuditFinding => ({
  check: 'touch_target',
  severity: 'error',
  bounds: { left: 900, top: 100, right: 994, bottom: 194 },
  nodeUid: 'search',
  measured: '36×36 dp',
  required: '48×48 dp',
  message: 'This control is too small to tap reliably',
  suggestion: 'Make it at least 48×48 dp.',
  key: 'touch_target|search|id/search',
  ...over,
});

const small = finding({});
const contrast = finding({ check: 'text_contrast', severity: 'warning', nodeUid: 'gone', bounds: { left: 10, top: 300, right: 500, bottom: 360 }, key: 'text_contrast|x', measured: 'contrast 2.88:1', required: '3.00:1' });
const avatar = finding({ nodeUid: 'avatar', bounds: { left: 800, top: 100, right: 905, bottom: 205 }, key: 'touch_target|avatar', measured: '40×40 dp' });

let dismissed: string[] = [];
/** The transport the actions are handed: a fake server's audit routes. */
let transport: Transport;

beforeEach(() => {
  draft.close(true);
  ui.clearSelection();
  draft.begin(
    {
      frozenId: 'f1',
      imageUrl: '/img',
      screen: screen({ fingerprint: 'fp', width: 1080, height: 2400 }),
      nodes: [node({ uid: 'search', bounds: small.bounds, contentDescription: 'Search', clickable: true }), node({ uid: 'avatar', bounds: avatar.bounds })],
    },
    { sessionId: 'S', serial: 'emu' },
  );
  ui.enterFrozen();
  dismissed = [];
  const result: AuditResult = { frozenId: 'f1', densityDpi: 420, contrastChecked: true, findings: [small, avatar, contrast], dismissed: 0 };
  transport = {
    api: {
      auditFrozen: vi.fn(async () => structuredClone(result)),
      dismissFinding: vi.fn(async (_id: string, key: string) => {
        dismissed.push(key);
        return { ok: true };
      }),
    },
  } as unknown as Transport;
  audits.result = null;
});

describe('audit', () => {
  it('adds a finding as an editable pending annotation that keeps its check', async () => {
    await runAudit(transport);
    expect(audits.findingsFor('f1')).toHaveLength(3);
    expect(audits.findingsFor('another frame')).toHaveLength(0);
    addFinding(small);
    expect(draft.items).toHaveLength(1);
    const d = draft.items[0];
    expect(d.check).toBe('touch_target');
    expect(d.severity).toBe('high');
    expect(d.target).toMatchObject({ type: 'node', nodeUid: 'search' });
    expect(d.comment).toContain('36×36 dp, needs 48×48 dp');
    expect(ui.editingDraftId).toBe(d.draftItemId);
    addFinding(small); // twice is once
    expect(draft.items).toHaveLength(1);
  });

  it('adds every error once, and a finding whose node is gone as an area', async () => {
    await runAudit(transport);
    expect(addAllErrors()).toBe(2);
    expect(addAllErrors()).toBe(0);
    addFinding(contrast);
    const last = draft.items[draft.items.length - 1];
    expect(last.target).toEqual({ type: 'area', bounds: contrast.bounds });
    expect(last.severity).toBe('med');
  });

  it('asks for the font, dark and RTL pass only when that option is on', async () => {
    await runAudit(transport);
    expect(transport.api.auditFrozen).toHaveBeenLastCalledWith('f1', false);
    audits.dynamic = true;
    await runAudit(transport);
    expect(transport.api.auditFrozen).toHaveBeenLastCalledWith('f1', true);
    audits.dynamic = false;
  });

  it('dismisses a finding on the server and drops it from the list', async () => {
    await runAudit(transport);
    await dismissFinding(transport, contrast);
    expect(dismissed).toEqual(['text_contrast|x']);
    expect(audits.result?.findings.map((f) => f.key)).not.toContain('text_contrast|x');
    expect(audits.result?.dismissed).toBe(1);
  });
});

describe('audit on every freeze', () => {
  beforeEach(() => {
    // The browser's storage, as a page has it (the tests run in Node).
    const kept = new Map<string, string>();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => kept.get(k) ?? null,
      setItem: (k: string, v: string) => void kept.set(k, v),
      removeItem: (k: string) => void kept.delete(k),
    });
    return () => vi.unstubAllGlobals();
  });

  it('is off until turned on, then audits each new frozen screen once', async () => {
    audits.restoreOnEveryFreeze();
    expect(audits.onEveryFreeze).toBe(false);
    await auditOnFreeze(transport, 'f1');
    expect(transport.api.auditFrozen).not.toHaveBeenCalled();

    audits.setOnEveryFreeze(true);
    audits.dynamic = true; // a freeze never changes the phone's display
    await auditOnFreeze(transport, 'f1');
    await auditOnFreeze(transport, 'f1'); // the same screen is audited once
    expect(transport.api.auditFrozen).toHaveBeenCalledTimes(1);
    expect(transport.api.auditFrozen).toHaveBeenLastCalledWith('f1', false);
    audits.dynamic = false;
    expect(audits.findingsFor('f1')).toHaveLength(3);
    await auditOnFreeze(transport, undefined);
    expect(transport.api.auditFrozen).toHaveBeenCalledTimes(1);
  });

  it('is kept in this browser like the other console preferences', () => {
    audits.setOnEveryFreeze(true);
    audits.onEveryFreeze = false;
    audits.restoreOnEveryFreeze();
    expect(audits.onEveryFreeze).toBe(true);
    audits.setOnEveryFreeze(false);
    audits.restoreOnEveryFreeze();
    expect(audits.onEveryFreeze).toBe(false);
  });
});

describe('audit model', () => {
  it('groups by check, errors first', () => {
    const g = groupByCheck([contrast, small, avatar]);
    expect(g.map((x) => [x.check, x.findings.length, x.errors])).toEqual([
      ['touch_target', 2, 2],
      ['text_contrast', 1, 0],
    ]);
  });
  it('words the item from the finding', () => {
    expect(itemComment(small)).toBe('This control is too small to tap reliably (36×36 dp, needs 48×48 dp). Make it at least 48×48 dp.');
    expect(itemComment(finding({ message: 'Touch target 36×36 dp is smaller than 48×48 dp.' }))).toBe('Touch target 36×36 dp is smaller than 48×48 dp. Make it at least 48×48 dp.');
    expect(itemSeverity(finding({ severity: 'info' }))).toBe('low');
  });
});
