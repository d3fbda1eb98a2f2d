import { describe, expect, it } from 'vitest';
import { decoderPref, planDecoders, softwareRefuses } from './choose';

const all = { webcodecs: '', software: '' };
const noWebCodecs = { webcodecs: 'this browser has no WebCodecs VideoDecoder', software: '' };
const nothing = { webcodecs: 'this browser has no WebCodecs VideoDecoder', software: 'this browser has no WebAssembly for the software decoder' };

describe('decoderPref', () => {
  it('reads ?decoder= and treats anything else as auto', () => {
    expect(decoderPref('')).toBe('auto');
    expect(decoderPref('?decoder=software')).toBe('software');
    expect(decoderPref('?x=1&decoder=WebCodecs')).toBe('webcodecs');
    expect(decoderPref('?decoder=jpeg')).toBe('jpeg');
    expect(decoderPref('?decoder=ffmpeg')).toBe('auto');
  });
});

describe('planDecoders', () => {
  it('prefers WebCodecs, then the software decoder', () => {
    expect(planDecoders('auto', all)).toEqual({ order: ['webcodecs', 'software'], reason: '' });
    expect(planDecoders('auto', noWebCodecs)).toEqual({ order: ['software'], reason: '' });
  });

  it('falls back to JPEG with every reason when nothing decodes', () => {
    const p = planDecoders('auto', nothing);
    expect(p.order).toEqual([]);
    expect(p.reason).toBe('this browser has no WebCodecs VideoDecoder; this browser has no WebAssembly for the software decoder');
  });

  it('uses only the forced decoder, and says it was forced', () => {
    expect(planDecoders('software', all).order).toEqual(['software']);
    expect(planDecoders('webcodecs', all).order).toEqual(['webcodecs']);
    const p = planDecoders('webcodecs', noWebCodecs);
    expect(p.order).toEqual([]);
    expect(p.reason).toBe('this browser has no WebCodecs VideoDecoder (?decoder=webcodecs)');
  });

  it('forces JPEG frames', () => {
    expect(planDecoders('jpeg', all)).toEqual({ order: [], reason: 'the console is set to JPEG frames (?decoder=jpeg)' });
  });
});

describe('softwareRefuses', () => {
  it('takes Baseline and streams that promise Constrained Baseline', () => {
    expect(softwareRefuses({ profileIdc: 66, constraints: 0xe0, levelIdc: 31 })).toBe('');
    expect(softwareRefuses({ profileIdc: 66, constraints: 0, levelIdc: 40 })).toBe('');
    expect(softwareRefuses({ profileIdc: 77, constraints: 0x40, levelIdc: 31 })).toBe('');
    expect(softwareRefuses(null)).toBe('');
  });

  it('refuses Main and High with the profile named', () => {
    expect(softwareRefuses({ profileIdc: 100, constraints: 0, levelIdc: 40 })).toBe(
      'the software H.264 decoder handles Baseline only; this stream is High (profile_idc 100)',
    );
    expect(softwareRefuses({ profileIdc: 77, constraints: 0, levelIdc: 31 })).toMatch(/is Main/);
  });
});
