import { describe, expect, it } from 'vitest';
import { FrameImage, type FrameLoader } from './frameImage.svelte';

/** A loader whose fetches finish when the test says so. */
function fakeLoader(failing: string[] = []) {
  const pending = new Map<string, () => void>();
  const revoked: string[] = [];
  let n = 0;
  const loader: FrameLoader = {
    fetch: (url) =>
      new Promise((resolve, reject) => {
        pending.set(url, () => (failing.includes(url) ? reject(new Error('404')) : resolve(`blob:${url}#${++n}`)));
      }),
    decode: async () => undefined,
    revoke: (src) => void revoked.push(src),
  };
  const finish = async (url: string) => {
    pending.get(url)?.();
    pending.delete(url);
    await new Promise((r) => setTimeout(r, 0));
  };
  return { loader, finish, revoked };
}

describe('FrameImage', () => {
  it('swaps to a frame once it is loaded and releases the one it replaces', async () => {
    const { loader, finish, revoked } = fakeLoader();
    const img = new FrameImage(loader, () => true);
    void img.show('/a');
    expect(img.src).toBe('');
    await finish('/a');
    expect(img.src).toBe('blob:/a#1');
    void img.show('/b');
    expect(img.src).toBe('blob:/a#1'); // the old frame stays until the new one is ready
    await finish('/b');
    expect(img.src).toBe('blob:/b#2');
    expect(revoked).toEqual(['blob:/a#1']);
  });

  it('lets the latest request win when an older one finishes later', async () => {
    const { loader, finish, revoked } = fakeLoader();
    const img = new FrameImage(loader, () => true);
    void img.show('/old');
    void img.show('/new');
    await finish('/new');
    await finish('/old');
    expect(img.src).toBe('blob:/new#1');
    expect(revoked).toEqual(['blob:/old#2']);
  });

  it('keeps or clears the shown frame on failure as told', async () => {
    for (const keep of [true, false]) {
      const { loader, finish } = fakeLoader(['/gone']);
      const img = new FrameImage(loader, () => keep);
      void img.show('/a');
      await finish('/a');
      void img.show('/gone');
      await finish('/gone');
      expect(img.failed).toBe(true);
      expect(img.src).toBe(keep ? 'blob:/a#1' : '');
    }
  });

  it('shows nothing for an empty URL and forgets an earlier failure', async () => {
    const { loader, finish, revoked } = fakeLoader(['/gone']);
    const img = new FrameImage(loader, () => true);
    void img.show('/a');
    await finish('/a');
    void img.show('/gone');
    await finish('/gone');
    await img.show('');
    expect(img.src).toBe('');
    expect(img.failed).toBe(false);
    expect(revoked).toEqual(['blob:/a#1']);
  });
});
