import { itemPhase } from './phases';
import type { Item } from './types';

export type ReadinessState = 'no-session' | 'closed' | 'empty' | 'draft-only' | 'ready-to-copy' | 'ready-to-save';

export interface Readiness {
  state: ReadinessState;
  text: string;
  canCopy: boolean;
  canSave: boolean;
  /** Saved items a Copy Prompt would include (not terminal). */
  copyItemIds: string[];
  /** Saved items a Save to MCP would release (not yet sent, or edited since). */
  saveItemIds: string[];
}

export interface ReadinessInput {
  hasSession: boolean;
  sessionClosed: boolean;
  /** Pending (browser-local) annotations with a written comment. */
  pendingWritten: number;
  /** Pending annotations that are still only a pin. */
  pendingPinOnly: number;
  items: Item[];
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Explains, without a click, what Copy Prompt and Save to MCP would do right now. */
export function promptReadiness(input: ReadinessInput): Readiness {
  const copyItemIds: string[] = [];
  const saveItemIds: string[] = [];
  for (const item of input.items) {
    const phase = itemPhase(item);
    if (phase === 'resolved' || phase === 'wont_fix') continue;
    copyItemIds.push(item.itemId);
    if (phase === 'draft' || phase === 'sent_modified') saveItemIds.push(item.itemId);
  }
  const base = { copyItemIds, saveItemIds };
  if (!input.hasSession && input.pendingWritten + input.pendingPinOnly === 0) {
    return { ...base, state: 'no-session', canCopy: false, canSave: false, text: 'Nothing to hand off yet. Press A to annotate the screen.' };
  }
  if (input.sessionClosed) {
    return { ...base, state: 'closed', canCopy: copyItemIds.length > 0, canSave: false, text: 'This session is closed. Start a new session to hand off more feedback.' };
  }
  const toSave = input.pendingWritten + saveItemIds.length;
  const toCopy = input.pendingWritten + copyItemIds.length;
  const pins = input.pendingPinOnly > 0 ? ` ${plural(input.pendingPinOnly, 'pin')} without a comment stay${input.pendingPinOnly === 1 ? 's' : ''} local.` : '';
  if (toSave > 0) {
    return {
      ...base,
      state: 'ready-to-save',
      canCopy: true,
      canSave: true,
      text: `${plural(toSave, 'annotation')} ready: Copy Prompt for any chat agent, or Save to MCP for agents with FixThis tools.${pins}`,
    };
  }
  if (toCopy > 0) {
    return {
      ...base,
      state: 'ready-to-copy',
      canCopy: true,
      canSave: false,
      text: `Everything is already saved to MCP. Copy Prompt still gives the text of ${plural(toCopy, 'open annotation')}.${pins}`,
    };
  }
  if (input.pendingPinOnly > 0) {
    return {
      ...base,
      state: 'draft-only',
      canCopy: false,
      canSave: false,
      text: `${plural(input.pendingPinOnly, 'pin')} without a comment. Write what should change to make ${input.pendingPinOnly === 1 ? 'it' : 'them'} ready.`,
    };
  }
  return { ...base, state: 'empty', canCopy: false, canSave: false, text: 'Nothing to hand off yet. Press A to annotate the screen.' };
}
