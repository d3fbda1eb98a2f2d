import { describe, expect, it } from 'vitest';
import { codecFromSPS, spsProfile, StreamParser } from './framing';

function message(kind: number, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + body.length);
  new DataView(out.buffer).setUint32(0, body.length + 1);
  out[4] = kind;
  out.set(body, 5);
  return out;
}

function picture(key: boolean, us: number, data: number[]): Uint8Array {
  const body = new Uint8Array(9 + data.length);
  body[0] = key ? 1 : 0;
  new DataView(body.buffer).setBigUint64(1, BigInt(us));
  body.set(data, 9);
  return message(2, body);
}

describe('StreamParser ended message', () => {
  it('reads why a named phone\'s stream ends, after its pictures', () => {
    const why = 'no device "emulator-5556" is connected';
    const p = new StreamParser();
    const got = p.push(new Uint8Array([...picture(true, 1, [0, 0, 0, 1, 0x65]), ...message(4, new TextEncoder().encode(why))]));
    expect(got.map((m) => m.kind)).toEqual(['picture', 'ended']);
    expect(got[1]).toEqual({ kind: 'ended', reason: why });
  });
});

describe('StreamParser', () => {
  const config = { serial: 's', width: 400, height: 896, displayWidth: 1080, displayHeight: 2400, contentX: 0, contentY: 4, contentWidth: 400, contentHeight: 888 };
  const stream = new Uint8Array([
    ...message(1, new TextEncoder().encode(JSON.stringify(config))),
    ...picture(true, 1_700_000_000_123_456, [0, 0, 0, 1, 0x67, 0x42, 0xe0, 0x1f]),
    ...message(9, new Uint8Array([1, 2, 3])), // unknown kind: skipped
    ...picture(false, 1_700_000_000_223_456, [0, 0, 0, 1, 0x41, 0x9a]),
  ]);

  it('reads messages split at every possible point', () => {
    for (let cut = 1; cut < stream.length; cut += 3) {
      const p = new StreamParser();
      const got = [...p.push(stream.slice(0, cut)), ...p.push(stream.slice(cut))];
      expect(got.map((m) => m.kind)).toEqual(['config', 'picture', 'picture']);
      expect(got[0]).toEqual({ kind: 'config', config });
      const [, a, b] = got as Extract<(typeof got)[number], { kind: 'picture' }>[];
      expect(a.key).toBe(true);
      expect(a.arrivedUs).toBe(1_700_000_000_123_456);
      expect(Array.from(a.data)).toEqual([0, 0, 0, 1, 0x67, 0x42, 0xe0, 0x1f]);
      expect(b.key).toBe(false);
      expect(Array.from(b.data)).toEqual([0, 0, 0, 1, 0x41, 0x9a]);
    }
  });

  it('waits for a whole message', () => {
    const p = new StreamParser();
    expect(p.push(stream.slice(0, 4))).toEqual([]);
  });
});

describe('codecFromSPS', () => {
  it('names profile, constraints and level', () => {
    expect(codecFromSPS(new Uint8Array([0, 0, 0, 1, 0x67, 0x42, 0xe0, 0x33, 0x95]))).toBe('avc1.42E033');
  });
  it('returns null without an SPS', () => {
    expect(codecFromSPS(new Uint8Array([0, 0, 0, 1, 0x41, 0x9a]))).toBeNull();
  });
});

describe('spsProfile', () => {
  it('reads profile, constraints and level from the first SPS', () => {
    const au = new Uint8Array([0, 0, 0, 1, 0x09, 0xf0, 0, 0, 1, 0x67, 0x64, 0x00, 0x28, 0xac]);
    expect(spsProfile(au)).toEqual({ profileIdc: 100, constraints: 0, levelIdc: 40 });
    expect(spsProfile(new Uint8Array([0, 0, 1, 0x67, 0x42]))).toBeNull();
  });
});
