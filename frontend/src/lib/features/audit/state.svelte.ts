// The audit of the frozen screen: its findings, which one is highlighted on the
// stage, and what is running.
import type { AuditResult } from '../../wire.gen';

export class AuditState {
  /** The newest audit; shown only while its frozen screen is on the stage. */
  result = $state<AuditResult | null>(null);
  busy = $state<'' | 'auditing' | 'dismissing'>('');
  error = $state('');
  /** The finding highlighted on the stage (its key). */
  focusKey = $state('');

  /** The findings of frozenId's audit, or none when the stage shows another screen. */
  findingsFor(frozenId: string | undefined) {
    return this.result && frozenId && this.result.frozenId === frozenId ? this.result.findings : [];
  }
}

export const audits = new AuditState();
