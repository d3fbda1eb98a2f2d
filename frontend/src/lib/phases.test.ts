import { describe, expect, it } from 'vitest';
import { PHASES, PHASE_INFO, countPhases, itemPhase } from './phases';
import type { Item } from './types';

type P = Parameters<typeof itemPhase>[0];

describe('itemPhase', () => {
  it.each<[string, P, string]>([
    ['the server phase', { phase: 'sent_modified' }, 'sent_modified'],
    ['terminal', { phase: 'wont_fix' }, 'wont_fix'],
    ['an unknown phase shows as draft', { phase: 'weird' as never }, 'draft'],
    ['no phase shows as draft', {}, 'draft'],
  ])('%s', (_n, item, want) => {
    expect(itemPhase(item)).toBe(want);
  });
});

describe('phase visuals', () => {
  it('gives every phase its own colour and icon', () => {
    const colors = new Set(PHASES.map((p) => PHASE_INFO[p].color));
    const icons = new Set(PHASES.map((p) => PHASE_INFO[p].icon));
    expect(colors.size).toBe(PHASES.length);
    expect(icons.size).toBe(PHASES.length);
  });
  it('marks only resolved and wont_fix terminal', () => {
    expect(PHASES.filter((p) => PHASE_INFO[p].terminal)).toEqual(['wont_fix', 'resolved']);
  });
});

it('counts phases like SessionSummary.phaseCounts', () => {
  const items = [{ phase: 'draft' }, { phase: 'draft' }, { phase: 'resolved' }] as Item[];
  expect(countPhases(items)).toEqual({ draft: 2, sent: 0, sent_modified: 0, in_progress: 0, needs_clarification: 0, wont_fix: 0, resolved: 1 });
});
