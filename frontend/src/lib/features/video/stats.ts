/** What window.FixThisConsoleDebug.previewStats() reports. */
export interface PreviewStats {
  transport: 'h264' | 'jpeg';
  decoder: string;
  framesPainted: number;
  fps: number;
  latencyMsP50: number | null;
}

/**
 * Counts painted frames: the rate over the last second and the median time from the
 * host receiving a frame to the console painting it.
 */
export class PaintStats {
  framesPainted = 0;
  private paints: number[] = [];
  private latencies: number[] = [];

  constructor(private readonly now: () => number = () => performance.now()) {}

  note(latencyMs: number | null): void {
    this.framesPainted++;
    const t = this.now();
    this.paints.push(t);
    while (this.paints.length && this.paints[0] < t - 1000) this.paints.shift();
    if (latencyMs !== null && Number.isFinite(latencyMs)) {
      this.latencies.push(Math.max(0, latencyMs));
      if (this.latencies.length > 120) this.latencies.shift();
    }
  }

  fps(): number {
    const t = this.now();
    return this.paints.filter((p) => p >= t - 1000).length;
  }

  latencyP50(): number | null {
    if (!this.latencies.length) return null;
    const s = [...this.latencies].sort((a, b) => a - b);
    return Math.round(s[Math.floor(s.length / 2)]);
  }
}
