import { describe, expect, it } from 'vitest';
import { PHASES, PHASE_INFO, countPhases, itemPhase } from './phases';
import type { Item } from './types';

type P = Parameters<typeof itemPhase>[0];

describe('itemPhase', () => {
  it.each<[string, P, string]>([
    ['server phase wins', { phase: 'sent_modified', status: 'open', delivery: 'sent' }, 'sent_modified'],
    ['unsent is draft', { status: 'open', delivery: 'draft' }, 'draft'],
    ['sent and untouched', { status: 'ready', delivery: 'sent', updatedAt: '2025-01-01T00:00:00Z', lastHandedOffAt: '2025-01-01T00:00:00Z' }, 'sent'],
    ['edited after handoff', { status: 'open', delivery: 'sent', updatedAt: '2025-01-02T00:00:00Z', lastHandedOffAt: '2025-01-01T00:00:00Z' }, 'sent_modified'],
    ['claimed', { status: 'in_progress', delivery: 'sent' }, 'in_progress'],
    ['question', { status: 'needs_clarification', delivery: 'sent' }, 'needs_clarification'],
    ['wont fix', { status: 'wont_fix', delivery: 'sent' }, 'wont_fix'],
    ['resolved', { status: 'resolved', delivery: 'sent' }, 'resolved'],
    ['unknown server phase falls back', { phase: 'weird' as never, status: 'open', delivery: 'sent' }, 'sent'],
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
  const items = [
    { status: 'open', delivery: 'draft' },
    { status: 'open', delivery: 'draft' },
    { status: 'resolved', delivery: 'sent' },
  ] as Item[];
  expect(countPhases(items)).toEqual({ draft: 2, resolved: 1 });
});
