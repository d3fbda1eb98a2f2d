// What the transcript panel shows besides spoken lines: one row per unit the
// interviewer recorded (which item it became, and the state that item is in now) and
// one per question an agent asked about a unit. Pure over plain rows, so the store and
// the unit tests share it.
import { itemPhase } from '../../phases';
import type { Item, Phase } from '../../types';
import type { VoiceQuestion, VoiceUnit } from './types';

/** A unit row's data-state: the item's phase, or what happened to the unit itself. */
export type UnitState = Phase | 'withdrawn' | 'refused';

/** A spoken line, final (a partial is shown apart). */
export interface LineRow {
  kind: 'line';
  key: number;
  role: 'riffer' | 'interviewer';
  text: string;
  turnId: string;
}

export interface UnitRow {
  kind: 'unit';
  key: number;
  unitId: string;
  itemId: string;
  sequenceNumber: number;
  statement: string;
  excerpt: string;
  action: VoiceUnit['action'];
  reason: string;
  /** The item's phase when the session last showed it; '' before it was seen. */
  phase: Phase | '';
}

export interface QuestionRow {
  kind: 'question';
  key: number;
  unitId: string;
  itemId: string;
  question: string;
}

export type TranscriptRow = LineRow | UnitRow | QuestionRow;

/** The words the console uses for a refused tool call's reason. */
const REASONS: Record<string, string> = {
  unknown_anchor: 'it named a click FixThis does not know',
  session_closed: 'the session is closed',
  no_screen: 'there was no screen to attach it to',
  invalid: 'the interviewer sent an incomplete unit',
  already_picked_up: 'an agent already picked the item up',
  unknown_unit: 'there is no such unit',
  withdrawn: 'the unit was withdrawn',
  no_question: 'no question was open',
  already_answered: 'the question was already answered',
};

export function reasonText(reason: string): string {
  return REASONS[reason] ?? reason.replace(/_/g, ' ');
}

/** The line under a unit row whose last tool call was refused ('' when none was). */
export function refusalLine(r: UnitRow): string {
  if (!r.reason || r.action === 'withdrawn') return '';
  const what = r.reason === 'no_question' || r.reason === 'already_answered' ? 'Spoken answer not passed on' : unitState(r) === 'refused' ? 'Not recorded' : 'Not changed';
  return `${what}: ${reasonText(r.reason)}`;
}

/**
 * Applies a voice-unit event to the rows: a unit already shown is updated in place (an
 * update or a withdrawal keeps its place in the transcript), a new one is appended. A
 * refusal without a unit id gets a row of its own. `items` are the session's items as
 * the console has them, so a row shows the item's phase at once when it is there.
 */
export function applyUnit(rows: readonly TranscriptRow[], u: VoiceUnit, nextKey: number, items: readonly Item[] | undefined): { rows: TranscriptRow[]; added: boolean } {
  const item = u.itemId ? items?.find((i) => i.itemId === u.itemId) : undefined;
  const at = u.unitId ? rows.findIndex((r) => r.kind === 'unit' && r.unitId === u.unitId) : -1;
  const old = at >= 0 ? rows[at] : null;
  if (old?.kind === 'unit') {
    // A refused update leaves the unit as it was; the refusal is said on the row.
    const refused = u.action === 'refused';
    const next: UnitRow = {
      ...old,
      itemId: u.itemId || old.itemId,
      sequenceNumber: u.sequenceNumber || old.sequenceNumber,
      statement: refused ? old.statement : u.statement || old.statement,
      excerpt: refused ? old.excerpt : u.excerpt || old.excerpt,
      action: refused && old.action !== 'refused' ? old.action : u.action,
      reason: u.reason ?? '',
      phase: u.action === 'withdrawn' ? old.phase : item ? itemPhase(item) : old.phase,
    };
    const out = [...rows];
    out[at] = next;
    return { rows: out, added: false };
  }
  const row: UnitRow = {
    kind: 'unit',
    key: nextKey,
    unitId: u.unitId,
    itemId: u.itemId,
    sequenceNumber: u.sequenceNumber,
    statement: u.statement,
    excerpt: u.excerpt,
    action: u.action,
    reason: u.reason ?? '',
    phase: item ? itemPhase(item) : '',
  };
  return { rows: [...rows, row], added: true };
}

export function questionRow(q: VoiceQuestion, key: number): QuestionRow {
  return { kind: 'question', key, unitId: q.unitId, itemId: q.itemId, question: q.question };
}

/**
 * Follows the session's items: each unit row takes its item's phase. An item that was
 * shown and is gone was withdrawn (by the interviewer, the user or an agent's
 * withdrawal). Returns the same array when nothing changed, so the view does not redraw.
 */
export function followItems(rows: TranscriptRow[], items: readonly Item[]): TranscriptRow[] {
  let changed = false;
  const out = rows.map((r): TranscriptRow => {
    if (r.kind !== 'unit') return r;
    const u = r;
    if (!u.itemId) return r;
    const item = items.find((i) => i.itemId === u.itemId);
    let phase: UnitRow['phase'] = u.phase;
    let { sequenceNumber } = u;
    if (item) {
      phase = itemPhase(item);
      sequenceNumber = item.sequenceNumber || sequenceNumber;
    } else if (u.phase !== '' && u.action !== 'withdrawn') {
      // It was in the session and is not any more.
      changed = true;
      return { ...u, action: 'withdrawn' };
    }
    if (phase === u.phase && sequenceNumber === u.sequenceNumber) return r;
    changed = true;
    return { ...u, phase, sequenceNumber };
  });
  return changed ? out : rows;
}

/** The row's data-state. A recorded unit is a stored draft until the session says more. */
export function unitState(r: UnitRow): UnitState {
  if (r.action === 'withdrawn') return 'withdrawn';
  if (r.action === 'refused' && !r.itemId) return 'refused';
  return r.phase || 'draft';
}

/** "0:12.4" from milliseconds since the voice session started. */
export function clock(ms: number): string {
  const t = Math.max(0, Math.round(ms / 100)) / 10;
  const m = Math.floor(t / 60);
  const s = (t - m * 60).toFixed(1).padStart(4, '0');
  return `${m}:${s}`;
}

/** "0:12.4–0:15.1 (2.7 s)" for a spoken excerpt's span. */
export function spanText(startMs: number, endMs: number): string {
  const len = Math.max(0, endMs - startMs) / 1000;
  return `${clock(startMs)}–${clock(endMs)} (${len.toFixed(1)} s)`;
}
