// The audit of the frozen screen: its findings, which one is highlighted on the
// stage, and what is running; and whether every freeze is audited (a preference
// this browser keeps, off until the user turns it on).
import type { AuditResult } from '../../wire.gen';

const ON_FREEZE_KEY = 'fixthis.audit.onFreeze';

export class AuditState {
  /** The newest audit; shown only while its frozen screen is on the stage. */
  result = $state<AuditResult | null>(null);
  busy = $state<'' | 'auditing' | 'dismissing'>('');
  error = $state('');
  /** The finding highlighted on the stage (its key). */
  focusKey = $state('');
  /** Audit each screen as soon as it is frozen. */
  onEveryFreeze = $state(false);
  /** The next Audit also checks font scale 2, dark and right to left on the phone (a few seconds). */
  dynamic = $state(false);

  /** The findings of frozenId's audit, or none when the stage shows another screen. */
  findingsFor(frozenId: string | undefined) {
    return this.result && frozenId && this.result.frozenId === frozenId ? this.result.findings : [];
  }

  /** Turns auditing on every freeze on or off, kept in this browser. */
  setOnEveryFreeze(on: boolean): void {
    this.onEveryFreeze = on;
    try {
      if (on) localStorage.setItem(ON_FREEZE_KEY, '1');
      else localStorage.removeItem(ON_FREEZE_KEY);
    } catch {
      // No storage (private mode): the choice lasts this page.
    }
  }

  /** Reads the choice this browser made last time (off when it made none). */
  restoreOnEveryFreeze(): void {
    try {
      this.onEveryFreeze = localStorage.getItem(ON_FREEZE_KEY) === '1';
    } catch {
      this.onEveryFreeze = false;
    }
  }
}

export const audits = new AuditState();
audits.restoreOnEveryFreeze();
