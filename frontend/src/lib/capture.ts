// CAPTURE_UNAVAILABLE readiness: the device is selected but gives no screen.
// The live loop keeps retrying on its own; Retry capture asks at once.
import type { Preview } from './types';

export interface CaptureReadiness {
  state: 'CAPTURE_UNAVAILABLE';
  text: string;
  detail: string;
  primaryAction: 'Retry capture';
}

/** The readiness to show for preview p, or null while capture works. */
export function captureReadiness(p: Preview | null | undefined): CaptureReadiness | null {
  if (!p || p.status?.reason !== 'capture_failed') return null;
  return {
    state: 'CAPTURE_UNAVAILABLE',
    text: 'The device gave no screen on the last capture. Your annotations are safe.',
    detail: p.status.message ?? '',
    primaryAction: 'Retry capture',
  };
}
