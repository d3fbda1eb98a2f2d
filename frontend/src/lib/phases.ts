import type { Item, Phase, PhaseCounts } from './types';

export const PHASES: Phase[] = [
  'draft',
  'sent',
  'sent_modified',
  'in_progress',
  'needs_clarification',
  'wont_fix',
  'resolved',
];

export interface PhaseInfo {
  label: string;
  /** CSS custom property holding the phase colour; one colour per phase everywhere. */
  color: string;
  /** SVG path in a 16×16 box; one icon per phase everywhere. */
  icon: string;
  terminal: boolean;
  /** Text the inspector shows to explain what the phase means for the user. */
  hint: string;
}

export const PHASE_INFO: Record<Phase, PhaseInfo> = {
  draft: {
    label: 'Draft',
    color: 'var(--phase-draft)',
    icon: 'M3 13l1-3.5L10.5 3 13 5.5 6.5 12 3 13z',
    terminal: false,
    hint: 'Saved in this session, not handed to an agent yet.',
  },
  sent: {
    label: 'Sent',
    color: 'var(--phase-sent)',
    icon: 'M2 8l11-5-4 11-2-4.5L2 8z',
    terminal: false,
    hint: 'Handed off; waiting for an agent to pick it up.',
  },
  sent_modified: {
    label: 'Sent · edited',
    color: 'var(--phase-sent-modified)',
    icon: 'M2 8l11-5-4 11-2-4.5L2 8zM12 11.5a1.5 1.5 0 1 0 3 0 1.5 1.5 0 1 0-3 0',
    terminal: false,
    hint: 'Edited after it was handed off; hand it off again so the agent sees the change.',
  },
  in_progress: {
    label: 'In progress',
    color: 'var(--phase-in-progress)',
    icon: 'M8 2a6 6 0 1 0 0 12A6 6 0 0 0 8 2zm0 2v4l3 2',
    terminal: false,
    hint: 'An agent claimed it and is working on it.',
  },
  needs_clarification: {
    label: 'Needs answer',
    color: 'var(--phase-needs-clarification)',
    icon: 'M5.5 6a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .8-1 1.5V11M8 13.2v.1',
    terminal: false,
    hint: 'The agent asked a question. Answer it to let the agent continue.',
  },
  wont_fix: {
    label: "Won't fix",
    color: 'var(--phase-wont-fix)',
    icon: 'M8 2a6 6 0 1 0 0 12A6 6 0 0 0 8 2zM3.8 3.8l8.4 8.4',
    terminal: true,
    hint: 'Closed without a change.',
  },
  resolved: {
    label: 'Resolved',
    color: 'var(--phase-resolved)',
    icon: 'M3 8.5l3 3L13 4.5',
    terminal: true,
    hint: 'Done. Check the result on the device.',
  },
};

function isPhase(value: unknown): value is Phase {
  return typeof value === 'string' && (PHASES as string[]).includes(value);
}

/**
 * The lifecycle phase of an item, which the server derives for every item it sends. A
 * value this console does not know shows as a draft instead of breaking the row.
 */
export function itemPhase(item: Partial<Pick<Item, 'phase'>>): Phase {
  return isPhase(item.phase) ? item.phase : 'draft';
}

export function isTerminal(phase: Phase): boolean {
  return PHASE_INFO[phase].terminal;
}

/** Counts items per phase, the same shape as SessionSummary.phaseCounts. */
export function countPhases(items: Item[]): PhaseCounts {
  const counts: PhaseCounts = { draft: 0, sent: 0, sent_modified: 0, in_progress: 0, needs_clarification: 0, wont_fix: 0, resolved: 0 };
  for (const item of items) {
    const p = itemPhase(item);
    counts[p] = (counts[p] ?? 0) + 1;
  }
  return counts;
}
