// The pure part of the audit list: findings grouped by check, the severity an item
// added from a finding gets, and the comment it starts with.
import type { AuditFinding } from '../../wire.gen';

/** Each check's findings, in the order the audit gave them (errors first). */
export interface CheckGroup {
  check: string;
  findings: AuditFinding[];
  errors: number;
}

/** Groups findings by check; groups with errors come first, then by size. */
export function groupByCheck(findings: readonly AuditFinding[]): CheckGroup[] {
  const groups = new Map<string, CheckGroup>();
  for (const f of findings) {
    let g = groups.get(f.check);
    if (!g) groups.set(f.check, (g = { check: f.check, findings: [], errors: 0 }));
    g.findings.push(f);
    if (f.severity === 'error') g.errors++;
  }
  return [...groups.values()].sort((a, b) => b.errors - a.errors || b.findings.length - a.findings.length || a.check.localeCompare(b.check));
}

/** The check id as words: touch_target → "Touch target". */
export function checkTitle(check: string): string {
  const words = check.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** An ATF error is a high-severity item, a warning medium, information low. */
export function itemSeverity(f: AuditFinding): 'high' | 'med' | 'low' {
  return f.severity === 'error' ? 'high' : f.severity === 'warning' ? 'med' : 'low';
}

/** The comment an added finding starts with: what is wrong, measured against what is required (unless the message says it), and the fix. */
export function itemComment(f: AuditFinding): string {
  const message = f.message.trim().replace(/\.$/, '');
  const values = f.measured && f.required && !message.includes(f.measured) ? ` (${f.measured}, needs ${f.required})` : '';
  return `${message}${values}. ${f.suggestion.trim()}`.trim();
}
