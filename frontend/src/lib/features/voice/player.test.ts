import { describe, expect, it } from 'vitest';
import { decodeBase64Pcm, nextStart } from './player';

describe('reply audio', () => {
  it('decodes base64 PCM16LE', () => {
    // bytes 01 00 ff ff 00 80 -> 1, -1, -32768
    const b64 = btoa(String.fromCharCode(0x01, 0x00, 0xff, 0xff, 0x00, 0x80));
    expect(Array.from(decodeBase64Pcm(b64))).toEqual([1, -1, -32768]);
    expect(decodeBase64Pcm('').length).toBe(0);
  });

  it('plays pieces back to back, or shortly after now when playback ran dry', () => {
    expect(nextStart(1.0, 1.5)).toBe(1.5);
    expect(nextStart(2.0, 1.5)).toBeCloseTo(2.05);
    expect(nextStart(0, 0)).toBeCloseTo(0.05);
  });
});
