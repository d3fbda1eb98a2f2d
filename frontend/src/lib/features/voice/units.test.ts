import { describe, expect, it } from 'vitest';
import type { Item } from '../../types';
import type { VoiceUnit } from './types';
import { applyUnit, clock, followItems, reasonText, refusalLine, spanText, unitState, type TranscriptRow, type UnitRow } from './units';

const unit = (over: Partial<VoiceUnit> = {}): VoiceUnit => ({
  voiceSessionId: 'v1',
  unitId: 'unit_0001',
  itemId: 'i1',
  sequenceNumber: 3,
  statement: 'Make the button blue',
  excerpt: 'make this button blue',
  action: 'recorded',
  ...over,
});

const item = (itemId: string, phase: Item['phase'], sequenceNumber = 3) => ({ itemId, phase, sequenceNumber }) as Item;

const units = (rows: TranscriptRow[]) => rows.filter((r): r is UnitRow => r.kind === 'unit');

describe('unit rows', () => {
  it('adds a row per unit and updates it in place', () => {
    let rows: TranscriptRow[] = [{ kind: 'line', key: 1, role: 'riffer', text: 'make this button blue', turnId: 't1' }];
    let r = applyUnit(rows, unit(), 2, undefined);
    expect(r.added).toBe(true);
    rows = r.rows;
    expect(units(rows).map((u) => [u.unitId, u.sequenceNumber, unitState(u)])).toEqual([['unit_0001', 3, 'draft']]);
    r = applyUnit(rows, unit({ action: 'updated', statement: 'Make the button brand blue' }), 3, [item('i1', 'draft')]);
    expect(r.added).toBe(false);
    rows = r.rows;
    expect(rows).toHaveLength(2);
    expect(units(rows)[0]).toMatchObject({ key: 2, statement: 'Make the button brand blue', action: 'updated', phase: 'draft' });
  });

  it('shows the item’s phase at once when the session already has it', () => {
    const { rows } = applyUnit([], unit(), 1, [item('i1', 'sent')]);
    expect(unitState(units(rows)[0])).toBe('sent');
  });

  it('keeps the statement of a unit whose update was refused, and says why', () => {
    let { rows } = applyUnit([], unit(), 1, undefined);
    rows = applyUnit(rows, unit({ action: 'refused', reason: 'already_picked_up', statement: 'Make it red' }), 2, [item('i1', 'in_progress')]).rows;
    const u = units(rows)[0];
    expect([u.statement, u.action, u.reason, unitState(u)]).toEqual(['Make the button blue', 'recorded', 'already_picked_up', 'in_progress']);
    expect(reasonText(u.reason)).toBe('an agent already picked the item up');
    expect(refusalLine(u)).toBe('Not changed: an agent already picked the item up');
    const relay = units(applyUnit(rows, unit({ action: 'refused', reason: 'already_answered' }), 3, undefined).rows)[0];
    expect(refusalLine(relay)).toBe('Spoken answer not passed on: the question was already answered');
  });

  it('gives a refused recording without a unit a row of its own', () => {
    const { rows } = applyUnit([], unit({ unitId: '', itemId: '', sequenceNumber: 0, action: 'refused', reason: 'unknown_anchor' }), 1, []);
    expect(unitState(units(rows)[0])).toBe('refused');
    expect(refusalLine(units(rows)[0])).toBe('Not recorded: it named a click FixThis does not know');
    expect(followItems(rows, [])).toBe(rows);
  });

  it('follows the item through its lifecycle, and to withdrawn when it is gone', () => {
    let rows = applyUnit([], unit(), 1, undefined).rows;
    // Not seen yet: an absent item is a session still loading, not a withdrawal.
    expect(followItems(rows, [])).toBe(rows);
    for (const phase of ['draft', 'sent', 'in_progress', 'needs_clarification', 'resolved'] as const) {
      rows = followItems(rows, [item('i1', phase)]);
      expect(unitState(units(rows)[0])).toBe(phase);
    }
    const same = followItems(rows, [item('i1', 'resolved')]);
    expect(same).toBe(rows);
    rows = followItems(rows, [item('i2', 'draft', 4)]);
    expect(unitState(units(rows)[0])).toBe('withdrawn');
  });

  it('marks a withdrawn unit at once', () => {
    let rows = applyUnit([], unit(), 1, [item('i1', 'draft')]).rows;
    rows = applyUnit(rows, unit({ action: 'withdrawn' }), 2, [item('i1', 'draft')]).rows;
    expect(unitState(units(rows)[0])).toBe('withdrawn');
    expect(units(followItems(rows, [])).map(unitState)).toEqual(['withdrawn']);
  });
});

describe('spans', () => {
  it('reads as minutes, seconds and the length', () => {
    expect(clock(0)).toBe('0:00.0');
    expect(clock(12440)).toBe('0:12.4');
    expect(clock(75050)).toBe('1:15.1');
    expect(spanText(12400, 15100)).toBe('0:12.4–0:15.1 (2.7 s)');
  });
});
