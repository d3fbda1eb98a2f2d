// "Where this lives in code": the source candidates of a saved item, fetched once per
// item and kept until the item's target or comment changes (only those change the match).
import type { Item, ItemSources, SourceCandidate, SourcesReason } from './types';

/** What the match depends on; a new key means the cached candidates are out of date. */
export function sourcesKey(item: Pick<Item, 'target' | 'comment'>): string {
  const t = item.target;
  const b = t.type === 'screen' ? null : t.bounds;
  const where = b ? [b.left, b.top, b.right, b.bottom].join(',') : '';
  const node = t.type === 'node' ? [t.nodeUid, t.snapshot?.text ?? '', t.snapshot?.testTag ?? '', t.snapshot?.contentDescription ?? ''].join('\u0001') : '';
  return [t.type, where, node, item.comment].join('\u0002');
}

export interface SourcesEntry {
  key: string;
  status: 'loading' | 'ready' | 'error';
  data?: ItemSources;
  error?: string;
}

/** Why no candidate is shown, in the words the inspector uses. */
export function reasonText(reason: SourcesReason): { title: string; detail: string; busy: boolean } {
  switch (reason) {
    case 'index-building':
      return { title: 'Indexing sources…', detail: 'FixThis is reading the Kotlin files of the project folder.', busy: true };
    case 'no-project-dir':
      return {
        title: 'No Android sources in the project folder',
        detail: 'Start FixThis with --project-dir pointing at your app’s repository to see where this lives.',
        busy: false,
      };
    case 'index-error':
      return { title: 'The source index could not be built', detail: 'The prompt still carries the element’s text, tag and screenshot.', busy: false };
    default:
      return { title: 'No confident match in the sources', detail: 'The prompt still carries the element’s text, tag and screenshot.', busy: false };
  }
}

/** A string resource file (strings.xml or plurals.xml under res/values or values-xx, or
 *  under composeResources): where words are defined, never the screen to edit, so it is
 *  not offered as a place. */
export function isStringsDefinition(file: string): boolean {
  return /(^|\/)values(-[^/]+)?\/[^/]*(string|plural)[^/]*\.xml$/.test(file);
}

/** The best few candidates, highest score first (the server already ranks them),
 *  without string resource files. */
export function topCandidates(data: ItemSources | undefined, n = 3): SourceCandidate[] {
  return (data?.candidates ?? []).filter((c) => c && c.file && !isStringsDefinition(c.file)).slice(0, n);
}

/** Whether the best remaining candidate is strong enough to present as the place to edit. */
export function confident(list: SourceCandidate[]): boolean {
  return list.length > 0 && list[0].confidence !== 'low';
}

/** Splits a project-relative path into folder and file name for a compact two-part display. */
export function splitPath(file: string): { dir: string; name: string } {
  const i = file.lastIndexOf('/');
  return i < 0 ? { dir: '', name: file } : { dir: file.slice(0, i), name: file.slice(i + 1) };
}

/** Reason tokens (nearbyText, tag, …; docs/console.md) as short words: "nearby text". */
export function tokenText(token: string): string {
  return token.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}
