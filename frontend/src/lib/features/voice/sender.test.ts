import { describe, expect, it } from 'vitest';
import { AudioSender } from './sender';

function deferred() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const chunk = (n: number, v = 1) => new Uint8Array(n).fill(v);
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('AudioSender', () => {
  it('sends one request at a time and batches what queued meanwhile, up to maxBytes', async () => {
    const bodies: number[] = [];
    const pending: ReturnType<typeof deferred>[] = [];
    const s = new AudioSender({
      maxBytes: 12000,
      maxBacklogBytes: 96000,
      post: (b) => {
        bodies.push(b.length);
        const d = deferred();
        pending.push(d);
        return d.promise;
      },
    });
    s.push(chunk(4800)); // leaves at once
    s.push(chunk(4800));
    s.push(chunk(4800));
    s.push(chunk(4800));
    expect(bodies).toEqual([4800]);
    pending[0].resolve();
    await tick();
    expect(bodies).toEqual([4800, 9600]); // two queued chunks fit in 12,000 bytes, three do not
    pending[1].resolve();
    await tick();
    expect(bodies).toEqual([4800, 9600, 4800]);
    pending[2].resolve();
    await tick();
    expect(s.idle).toBe(true);
    expect(s.stats).toMatchObject({ chunks: 4, requests: 3, bytesSent: 19200, failures: 0, droppedBytes: 0 });
  });

  it('keeps the bytes of each chunk in order when it joins them', async () => {
    const got: number[][] = [];
    let release = () => {};
    const s = new AudioSender({
      maxBytes: 100,
      maxBacklogBytes: 1000,
      post: (b) => {
        got.push(Array.from(b));
        return new Promise<void>((r) => (release = r));
      },
    });
    s.push(chunk(2, 1));
    s.push(chunk(2, 2));
    s.push(chunk(2, 3));
    release();
    await tick();
    expect(got).toEqual([
      [1, 1],
      [2, 2, 3, 3],
    ]);
  });

  it('drops the oldest audio when the backlog is too long', () => {
    const s = new AudioSender({ maxBytes: 100, maxBacklogBytes: 10, post: () => new Promise<void>(() => {}) });
    for (let i = 0; i < 6; i++) s.push(chunk(4));
    // first chunk in flight; the queue keeps at most 10 bytes
    expect(s.stats.droppedBytes).toBe(12);
  });

  it('counts a refused request, reports it and goes on', async () => {
    const errors: unknown[] = [];
    let n = 0;
    const s = new AudioSender({
      maxBytes: 100,
      maxBacklogBytes: 100,
      post: () => (n++ === 0 ? Promise.reject(new Error('413')) : Promise.resolve()),
      onError: (e) => errors.push(e),
    });
    s.push(chunk(4));
    await tick();
    s.push(chunk(4));
    await tick();
    expect(errors).toHaveLength(1);
    expect(s.stats).toMatchObject({ requests: 2, failures: 1, bytesSent: 4 });
  });

  it('sends nothing once closed', () => {
    let posts = 0;
    const s = new AudioSender({ maxBytes: 100, maxBacklogBytes: 100, post: () => (posts++, Promise.resolve()) });
    void s.close();
    s.push(chunk(4));
    expect(posts).toBe(0);
  });

  it('settles close once the request in flight is answered, and drops the queue', async () => {
    const answers: (() => void)[] = [];
    let posts = 0;
    const s = new AudioSender({ maxBytes: 4, maxBacklogBytes: 100, post: () => (posts++, new Promise<void>((r) => answers.push(r))) });
    s.push(chunk(4));
    s.push(chunk(4));
    let closed = false;
    const done = s.close().then(() => (closed = true));
    await tick();
    expect(closed).toBe(false);
    answers[0]();
    await done;
    expect(closed).toBe(true);
    expect(posts).toBe(1);
    await expect(new AudioSender({ maxBytes: 4, maxBacklogBytes: 4, post: () => Promise.resolve() }).close()).resolves.toBeUndefined();
  });

  it('records request sizes and the time between requests', async () => {
    let t = 0;
    const s = new AudioSender({ maxBytes: 100, maxBacklogBytes: 100, post: () => Promise.resolve() }, () => t);
    s.push(chunk(10));
    await tick();
    t = 100;
    s.push(chunk(20));
    await tick();
    expect(s.stats.sizes).toEqual([10, 20]);
    expect(s.stats.intervals).toEqual([100]);
  });
});
