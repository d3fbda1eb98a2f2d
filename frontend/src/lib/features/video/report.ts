// Tells the app what this console paints, every few seconds while new pictures arrive
// (POST /api/preview/stats). The app logs the decoder and rate, which is the only view
// anyone has into the desktop window's webview: "which decoder, how fast" for a user
// asking why the mirror stutters, and for the benchmark. A console that paints
// nothing sends nothing.
import type { PaintReport } from '../../wire.gen';
import type { PreviewStats } from './stats';

export const REPORT_EVERY_MS = 2000;

/** Starts reporting; returns a function that stops it. */
export function startPaintReports(
  stats: () => PreviewStats,
  send: (r: PaintReport) => Promise<unknown>,
  every = REPORT_EVERY_MS,
): () => void {
  // Video and JPEG frames are counted apart: a switch is news even at equal counts.
  let sent = 'jpeg:0';
  const timer = setInterval(() => {
    const s = stats();
    const now = `${s.transport}:${s.framesPainted}`;
    if (now === sent || s.framesPainted === 0) return;
    sent = now;
    send({ ...s, decoder: s.decoder.slice(0, 200) }).catch(() => {
      // Reports are best effort: the next one says the same and more.
    });
  }, every);
  return () => clearInterval(timer);
}
