import { describe, expect, it } from 'vitest';
import { promptReadiness } from './readiness';
import type { Item } from './types';

const item = (itemId: string, over: Partial<Item>): Item =>
  ({ itemId, sessionId: 's', sequenceNumber: 1, target: { type: 'screen' }, severity: 'med', comment: 'c', delivery: 'draft', status: 'open', phase: 'draft', ...over }) as Item;

describe('promptReadiness', () => {
  const base = { hasSession: true, sessionClosed: false, pendingWritten: 0, pendingPinOnly: 0, items: [] as Item[] };

  it.each([
    ['nothing at all', { ...base, hasSession: false }, 'no-session', false, false],
    ['an empty session', base, 'empty', false, false],
    ['only pins without comments', { ...base, pendingPinOnly: 2 }, 'draft-only', false, false],
    ['written pending annotations', { ...base, pendingWritten: 1, pendingPinOnly: 1 }, 'ready-to-save', true, true],
    ['saved drafts', { ...base, items: [item('a', {})] }, 'ready-to-save', true, true],
    ['everything already sent', { ...base, items: [item('a', { delivery: 'sent', phase: 'sent' })] }, 'ready-to-copy', true, false],
    ['all resolved', { ...base, items: [item('a', { delivery: 'sent', status: 'resolved', phase: 'resolved' })] }, 'empty', false, false],
    ['closed session', { ...base, sessionClosed: true, items: [item('a', { delivery: 'sent', phase: 'sent' })] }, 'closed', true, false],
  ])('%s', (_n, input, state, canCopy, canSave) => {
    const r = promptReadiness(input);
    expect(r.state).toBe(state);
    expect(r.canCopy).toBe(canCopy);
    expect(r.canSave).toBe(canSave);
    expect(r.text.length).toBeGreaterThan(10);
  });

  it('copies open items and saves only unsent or edited ones', () => {
    const r = promptReadiness({
      ...base,
      items: [
        item('draft', {}),
        item('sent', { delivery: 'sent', phase: 'sent' }),
        item('edited', { delivery: 'sent', phase: 'sent_modified' }),
        item('done', { delivery: 'sent', status: 'resolved', phase: 'resolved' }),
      ],
    });
    expect(r.copyItemIds).toEqual(['draft', 'sent', 'edited']);
    expect(r.saveItemIds).toEqual(['draft', 'edited']);
  });

  it('mentions pins that stay local', () => {
    expect(promptReadiness({ ...base, pendingWritten: 1, pendingPinOnly: 1 }).text).toMatch(/1 pin without a comment stays local/);
  });
});
