import { describe, expect, it } from 'vitest';
import { captureReadiness } from './capture';
import type { Preview } from './types';

const preview = (status: Preview['status']): Preview =>
  ({ previewAvailable: true, previewId: 'p', serial: 's', width: 1, height: 1, url: '/x', status }) as Preview;

describe('captureReadiness', () => {
  it('is CAPTURE_UNAVAILABLE with Retry capture when the capture failed', () => {
    const r = captureReadiness(preview({ state: 'stale', reason: 'capture_failed', message: 'screencap: exit 1' }));
    expect(r?.state).toBe('CAPTURE_UNAVAILABLE');
    expect(r?.primaryAction).toBe('Retry capture');
    expect(r?.detail).toBe('screencap: exit 1');
  });
  it.each([
    ['no preview', null],
    ['a live preview', preview({ state: 'live' })],
    ['a locked screen', preview({ state: 'blocked', reason: 'keyguard' })],
  ])('is nothing for %s', (_n, p) => {
    expect(captureReadiness(p as Preview | null)).toBeNull();
  });
});
