// Audit of the frozen screen: run the checks, add a finding (or every error) as an
// ordinary pending annotation that keeps its check, and dismiss a false positive on
// this screen for good.
import { draft } from '../../state/draft.svelte';
import type { Transport } from '../../transport';
import type { AuditFinding } from '../../wire.gen';
import type { Target } from '../../types';
import { nodeLabel } from '../../hittest';
import { editDraft, nodeTarget } from '../../actions/annotate';
import { report } from '../../actions/report';
import { checkTitle, itemComment, itemSeverity } from './model';
import { audits } from './state.svelte';

/**
 * Audits the frozen screen on the stage; with the "font, dark and RTL" option the phone
 * also shows it under each of those settings, and FixThis puts the display back.
 */
export async function runAudit(transport: Transport, dynamic = audits.dynamic): Promise<void> {
  const frozenId = draft.workspace?.context.frozenId;
  if (!frozenId || audits.busy) return;
  audits.busy = 'auditing';
  audits.error = '';
  try {
    audits.result = await transport.api.auditFrozen(frozenId, dynamic);
    audits.focusKey = '';
  } catch (err) {
    audits.error = err instanceof Error ? err.message : String(err);
    report(err, 'Could not audit this screen', 'Freeze the screen again and retry.');
  } finally {
    audits.busy = '';
  }
}

/**
 * Audits a newly frozen screen when the user asked for an audit on every freeze;
 * a screen already audited (or being audited) is left alone.
 */
export async function auditOnFreeze(transport: Transport, frozenId: string | undefined): Promise<void> {
  if (!audits.onEveryFreeze || !frozenId || audits.busy || audits.result?.frozenId === frozenId) return;
  await runAudit(transport, false); // the static checks only: a freeze does not change the phone's display

}

/** The finding's node as a target when the frozen tree has it, else the area it covers. */
function targetOf(f: AuditFinding): { target: Target; label: string } {
  const node = f.nodeUid ? draft.index?.byUid.get(f.nodeUid) : undefined;
  if (node) return { target: nodeTarget(node), label: nodeLabel(node) };
  return { target: { type: 'area', bounds: { ...f.bounds } }, label: checkTitle(f.check) };
}

/** Adds one finding as a pending annotation and opens it in the editor (its comment is editable). */
export function addFinding(f: AuditFinding): void {
  const added = addAsDraft(f);
  if (added) editDraft(added);
}

/** Adds every error finding not already added as a pending annotation. */
export function addAllErrors(): number {
  const frozenId = draft.workspace?.context.frozenId;
  let n = 0;
  for (const f of audits.findingsFor(frozenId)) {
    if (f.severity === 'error' && addAsDraft(f)) n++;
  }
  return n;
}

/** The draft id made from f, or "" when one already is (added twice is added once). */
function addAsDraft(f: AuditFinding): string {
  if (isAdded(f)) return '';
  const { target, label } = targetOf(f);
  return draft.add(target, itemComment(f), itemSeverity(f), label, undefined, f.check)?.draftItemId ?? '';
}

/** Whether a pending annotation already carries this finding (same check, same place). */
export function isAdded(f: AuditFinding): boolean {
  return draft.items.some((d) => d.check === f.check && d.target.type !== 'screen' && sameBounds(d.target.bounds, f.bounds));
}

function sameBounds(a: { left: number; top: number; right: number; bottom: number } | undefined, b: AuditFinding['bounds']): boolean {
  return !!a && a.left === b.left && a.top === b.top && a.right === b.right && a.bottom === b.bottom;
}

/** Dismisses a false positive: it leaves the list now and every later audit of this screen. */
export async function dismissFinding(transport: Transport, f: AuditFinding): Promise<void> {
  const res = audits.result;
  if (!res || audits.busy) return;
  audits.busy = 'dismissing';
  try {
    await transport.api.dismissFinding(res.frozenId, f.key);
    if (audits.result === res) {
      audits.result = { ...res, findings: res.findings.filter((x) => x.key !== f.key), dismissed: res.dismissed + 1 };
    }
    if (audits.focusKey === f.key) audits.focusKey = '';
  } catch (err) {
    report(err, 'Could not dismiss the finding', 'Retry in a moment.');
  } finally {
    audits.busy = '';
  }
}

/** Highlights a finding on the stage (or clears it). */
export function focusFinding(key: string): void {
  audits.focusKey = audits.focusKey === key ? '' : key;
}
