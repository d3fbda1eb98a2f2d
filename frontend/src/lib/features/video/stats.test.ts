import { describe, expect, it } from 'vitest';
import { PaintStats } from './stats';

describe('PaintStats', () => {
  it("counts frames, the last second's rate and the median latency", () => {
    let now = 0;
    const s = new PaintStats(() => now);
    for (let i = 0; i < 30; i++) {
      now = i * 50; // 20 fps for 1.5 s
      s.note(i % 3 === 0 ? 90 : 30);
    }
    expect(s.framesPainted).toBe(30);
    expect(s.fps()).toBe(21); // paints at 450..1450 ms
    expect(s.latencyP50()).toBe(30);
    now = 5000;
    expect(s.fps()).toBe(0);
  });
  it('has no latency before the first paint', () => {
    expect(new PaintStats(() => 0).latencyP50()).toBeNull();
  });
});
