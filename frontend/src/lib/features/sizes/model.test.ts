import { describe, expect, it } from 'vitest';
import type { SizeCheck, SizeOutcome } from '../../wire.gen';
import { badges, blockedReason, dpText, pictureOf, progressText, summaryText, widthClass } from './model';

const size = (o: Partial<SizeOutcome>): SizeOutcome => ({
  name: 'phone', width: 1080, height: 2340, density: 420, widthDp: 411, heightDp: 891, found: true, ...o,
});

describe('size grid model', () => {
  it('names the window size class by width', () => {
    expect([599, 600, 839, 840, 1280].map(widthClass)).toEqual(['compact', 'medium', 'medium', 'expanded', 'expanded']);
  });

  it('writes the size in dp, and nothing for a size never shown', () => {
    expect(dpText(size({ widthDp: 1280, heightDp: 800 }))).toBe('1280 × 800 dp');
    expect(dpText(size({ widthDp: 0, heightDp: 0 }))).toBe('');
  });

  it('puts the outcome first, then what is wrong with the node', () => {
    expect(badges(size({ matchedBy: 'testTag' }))).toEqual([{ kind: 'found', text: 'Found', detail: 'Found by its testTag.' }]);
    expect(badges(size({ clipped: true, cutOff: true, overlapping: ['"Trails"'] })).map((b) => b.text)).toEqual([
      'Found', 'Clipped', 'Cut off', 'Overlapped',
    ]);
    expect(badges(size({ clipped: true, overlapping: ['"A"', '"B"'] }))[2].detail).toBe('Covered in part by "A", "B".');
    expect(badges(size({ found: false }))).toEqual([{ kind: 'missing', text: 'Not found', detail: 'The element is not on the screen at this size.' }]);
    // A size the phone could not show says why, whatever else is set.
    expect(badges(size({ found: false, error: 'wm size 4000x4000 is past the phone\'s limit' }))).toEqual([
      { kind: 'failed', text: 'Not shown', detail: "wm size 4000x4000 is past the phone's limit" },
    ]);
  });

  it('shows the crop unless the whole screen is asked for or there is no crop', () => {
    const o = size({ imageUrl: '/i', cropUrl: '/c' });
    expect(pictureOf(o, false)).toEqual({ url: '/c', whole: false });
    expect(pictureOf(o, true)).toEqual({ url: '/i', whole: true });
    expect(pictureOf(size({ imageUrl: '/i' }), false)).toEqual({ url: '/i', whole: true });
    expect(pictureOf(size({}), false)).toEqual({ url: '', whole: true });
  });

  it('sums the check up and says when the phone was not put back', () => {
    const c: SizeCheck = { serial: 's', restored: true, checkedAt: '', sizes: [size({}), size({ found: false }), size({})] };
    expect(summaryText(c)).toBe('Found on 2 of 3 sizes.');
    expect(summaryText({ ...c, sizes: [size({})] })).toBe('Found on 1 of 1 size.');
    expect(summaryText({ ...c, restored: false })).toMatch(/^Found on 2 of 3 sizes\. The phone's own size could not be confirmed/);
  });

  it('counts whole seconds in the progress line', () => {
    expect(progressText(1000, 1000)).toMatch(/… 0 s$/);
    expect(progressText(1000, 5999)).toMatch(/… 4 s$/);
    expect(progressText(5000, 1000)).toMatch(/… 0 s$/);
  });

  it('says why a check cannot run', () => {
    expect(blockedReason(true)).toBe('');
    expect(blockedReason(false)).toMatch(/^Select the phone/);
  });
});
