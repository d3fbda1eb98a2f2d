import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startPaintReports } from './report';
import type { PreviewStats } from './stats';

describe('startPaintReports', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reports while frames are painted and stays quiet when none are', async () => {
    let stats: PreviewStats = { transport: 'h264', decoder: 'WebCodecs VideoDecoder (avc1.42E01E)', framesPainted: 0, fps: 0, latencyMsP50: null };
    const sent: unknown[] = [];
    const stop = startPaintReports(() => stats, async (r) => sent.push(r), 1000);
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent).toHaveLength(0); // nothing painted yet
    stats = { ...stats, framesPainted: 60, fps: 30, latencyMsP50: 20 };
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent).toEqual([{ transport: 'h264', decoder: 'WebCodecs VideoDecoder (avc1.42E01E)', framesPainted: 60, fps: 30, latencyMsP50: 20 }]);
    await vi.advanceTimersByTimeAsync(3000);
    expect(sent).toHaveLength(1); // the screen stood still
    // The stage switched to the other transport, whose count happens to be the same.
    stats = { ...stats, transport: 'jpeg', decoder: 'img (JPEG)' };
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent).toHaveLength(2);
    stop();
    stats = { ...stats, framesPainted: 90 };
    await vi.advanceTimersByTimeAsync(2000);
    expect(sent).toHaveLength(2);
  });

  it('survives a failing send and keeps the decoder name short', async () => {
    const sent: { decoder: string }[] = [];
    let frames = 0;
    const stop = startPaintReports(
      () => ({ transport: 'jpeg', decoder: 'x'.repeat(500), framesPainted: ++frames, fps: 1, latencyMsP50: null }),
      async (r) => {
        sent.push(r);
        throw new Error('offline');
      },
      1000,
    );
    await vi.advanceTimersByTimeAsync(2000);
    stop();
    expect(sent).toHaveLength(2);
    expect(sent[0].decoder).toHaveLength(200);
  });
});
