// The size grid's pure part: how one size of an item's check reads in its cell (its
// size in dp, which window size class that is, what became of the node there) and
// what the section says before, during and after a check.
import type { SizeCheck, SizeOutcome } from '../../wire.gen';

/** Android's window size classes by width: compact < 600 dp, medium < 840 dp, expanded. */
export type WidthClass = 'compact' | 'medium' | 'expanded';

export function widthClass(widthDp: number): WidthClass {
  if (widthDp >= 840) return 'expanded';
  if (widthDp >= 600) return 'medium';
  return 'compact';
}

/** `1280 × 800 dp`; '' when the size was never shown. */
export function dpText(o: Pick<SizeOutcome, 'widthDp' | 'heightDp'>): string {
  if (!(o.widthDp > 0) || !(o.heightDp > 0)) return '';
  return `${o.widthDp} × ${o.heightDp} dp`;
}

/** A badge on a cell: what the check found there, in a word or two. */
export interface Badge {
  kind: 'found' | 'missing' | 'failed' | 'clipped' | 'cutOff' | 'overlapped';
  text: string;
  /** Says more, for the badge's title. */
  detail?: string;
}

/** The badges of one size, the outcome first. */
export function badges(o: SizeOutcome): Badge[] {
  if (o.error) return [{ kind: 'failed', text: 'Not shown', detail: o.error }];
  if (!o.found) return [{ kind: 'missing', text: 'Not found', detail: 'The element is not on the screen at this size.' }];
  const out: Badge[] = [{ kind: 'found', text: 'Found', detail: o.matchedBy ? `Found by its ${o.matchedBy}.` : undefined }];
  if (o.clipped) out.push({ kind: 'clipped', text: 'Clipped', detail: 'Part of it lies past the edge of the screen.' });
  if (o.cutOff) out.push({ kind: 'cutOff', text: 'Cut off', detail: 'Part of it lies outside a container it is in.' });
  const over = o.overlapping ?? [];
  if (over.length) out.push({ kind: 'overlapped', text: 'Overlapped', detail: `Covered in part by ${over.join(', ')}.` });
  return out;
}

/** The cell's picture: the crop around the node when there is one, else the whole screen. */
export function pictureOf(o: SizeOutcome, whole: boolean): { url: string; whole: boolean } {
  if (!whole && o.cropUrl) return { url: o.cropUrl, whole: false };
  return { url: o.imageUrl ?? '', whole: true };
}

/** One line under the grid: `Found on 2 of 3 sizes.` and whether the phone was put back. */
export function summaryText(c: SizeCheck): string {
  const n = c.sizes.length;
  const found = c.sizes.filter((s) => s.found).length;
  const line = `Found on ${found} of ${n} ${n === 1 ? 'size' : 'sizes'}.`;
  return c.restored ? line : `${line} The phone's own size could not be confirmed as put back; check it in Display settings.`;
}

/** Seconds since a check started, for the progress line: `Checking sizes… 4 s`. */
export function progressText(startedAt: number, now: number): string {
  const s = Math.max(0, Math.floor((now - startedAt) / 1000));
  return `Showing the phone, foldable and tablet sizes in turn… ${s} s`;
}

/** Why Check sizes cannot run now on an element's item ('' when it can). */
export function blockedReason(deviceReady: boolean): string {
  return deviceReady ? '' : 'Select the phone this was written on to check it on other sizes.';
}
