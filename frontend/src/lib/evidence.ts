// Runtime evidence in words: what Capture diagnostics shows on a saved item and what
// Save to MCP's success status says Auto collected. Only bounded summaries and status
// metadata reach the browser; raw collector output stays in the local files.
import type { EvidenceAttachment, EvidenceAttempt, EvidenceKind, EvidenceStatus, HandoffEvidence } from './wire.gen';

const KIND_LABEL: Record<EvidenceKind, string> = { logcat: 'Log', frames: 'Frames', memory: 'Memory', network: 'Network' };

export function kindLabel(k: EvidenceKind): string {
  return KIND_LABEL[k] ?? k;
}

const STATUS_TEXT: Record<EvidenceStatus, string> = {
  complete: 'Complete',
  partial: 'Partial',
  failed: 'Failed',
  unsupported: 'Unsupported',
  skipped: 'Skipped',
};

export function statusText(s: EvidenceStatus): string {
  return STATUS_TEXT[s] ?? s;
}

/** Warning tokens ("memory-timeout") in words ("memory: timeout"). */
export function warningText(w: string): string {
  const i = w.indexOf('-');
  if (i <= 0) return w;
  return `${w.slice(0, i)}: ${w.slice(i + 1).replaceAll('-', ' ')}`;
}

/** When a capture ran relative to the freeze of its screen: "12 s after the freeze". */
export function proximityText(startedAtMillis: number, frozenAt: string | undefined): string {
  const at = new Date(startedAtMillis);
  const frozen = frozenAt ? Date.parse(frozenAt) : NaN;
  if (Number.isNaN(frozen)) return at.toLocaleTimeString();
  const secs = Math.max(0, Math.round((startedAtMillis - frozen) / 1000));
  if (secs < 120) return `${secs} s after the freeze`;
  return `${Math.round(secs / 60)} min after the freeze`;
}

/** The label of the capture button: a second capture is "Capture again". */
export function captureLabel(attempts: readonly unknown[]): string {
  return attempts.length > 0 ? 'Capture again' : 'Capture diagnostics';
}

/** One short clause per completed collector, for the Save to MCP status. */
function collected(a: EvidenceAttempt): string {
  const done = a.attachments.filter((x: EvidenceAttachment) => x.status === 'complete').map((x) => kindLabel(x.kind).toLowerCase());
  return done.length ? done.join(', ') : 'nothing';
}

/** What Save to MCP's success status says about runtime evidence. */
export function autoEvidenceText(h: HandoffEvidence | undefined): string {
  if (!h) return '';
  const d = h.decision;
  if (!d.attempted) {
    if (d.reason === 'manual') return 'Diagnostics: Manual, nothing collected automatically.';
    if (d.reason === 'off') return 'Diagnostics: Off, nothing collected.';
    return '';
  }
  const a = h.attempt;
  const what = a ? collected(a) : 'nothing';
  const warn = d.warnings?.length ? ` (${d.warnings.map(warningText).join(', ')})` : '';
  return `Diagnostics ${d.status}: collected ${what}${warn}.`;
}
