import { describe, expect, it } from 'vitest';
import { inDesktopWindow, micHelp, platformOf } from './help';

describe('microphone help', () => {
  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko)', 'linux'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15', 'mac'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Edg/120.0', 'windows'],
    ['Something else', 'other'],
  ])('knows the platform of %s', (ua, want) => {
    expect(platformOf(ua)).toBe(want);
  });

  it('tells the FixThis window from a browser tab', () => {
    expect(inDesktopWindow({ protocol: 'wails:', hostname: 'wails' })).toBe(true);
    expect(inDesktopWindow({ protocol: 'http:', hostname: 'wails.localhost' })).toBe(true);
    expect(inDesktopWindow({ protocol: 'http:', hostname: '127.0.0.1' })).toBe(false);
  });

  it('says where to allow the microphone on each OS', () => {
    expect(micHelp('denied', 'mac', true)).toMatch(/Privacy & Security → Microphone/);
    expect(micHelp('denied', 'windows', true)).toMatch(/Let desktop apps access your microphone/);
    expect(micHelp('denied', 'linux', true)).toMatch(/Settings → Sound/);
    expect(micHelp('denied', 'linux', false)).toMatch(/address bar/);
    expect(micHelp('no-device', 'linux', true)).toMatch(/PulseAudio or PipeWire/);
  });
});
