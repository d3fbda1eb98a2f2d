// Which decoder paints the live preview. WebCodecs first (hardware or the browser's own
// decoder, cheapest), then the bundled software decoder, then JPEG frames with a reason.
// `?decoder=webcodecs|software|jpeg` on the console's URL forces one path, for tests and
// for troubleshooting a preview that looks wrong.
import type { SPSProfile } from './framing';

export type DecoderKind = 'webcodecs' | 'software';
export type DecoderPref = 'auto' | DecoderKind | 'jpeg';

const PREFS: readonly DecoderPref[] = ['auto', 'webcodecs', 'software', 'jpeg'];

/** The `decoder` query parameter of the console's URL; anything else means auto. */
export function decoderPref(search: string): DecoderPref {
  const v = new URLSearchParams(search).get('decoder')?.trim().toLowerCase() ?? '';
  return (PREFS as readonly string[]).includes(v) ? (v as DecoderPref) : 'auto';
}

/** Why each decoder cannot be used in this browser; '' when it can. */
export interface DecoderSupport {
  webcodecs: string;
  software: string;
}

export interface DecoderPlan {
  /** Decoders to try, best first; empty means JPEG frames. */
  order: DecoderKind[];
  /** Why there is no video, when order is empty. */
  reason: string;
}

/** Orders the decoders the preference allows and the browser supports. */
export function planDecoders(pref: DecoderPref, support: DecoderSupport): DecoderPlan {
  if (pref === 'jpeg') return { order: [], reason: 'the console is set to JPEG frames (?decoder=jpeg)' };
  const wanted: DecoderKind[] = pref === 'auto' ? ['webcodecs', 'software'] : [pref];
  const order = wanted.filter((k) => support[k] === '');
  if (order.length) return { order, reason: '' };
  const why = wanted.map((k) => support[k]).join('; ');
  return { order, reason: pref === 'auto' ? why : `${why} (?decoder=${pref})` };
}

/**
 * Why the software decoder cannot decode a stream with this SPS ('' when it can).
 * tinyh264 is h264bsd: Baseline only (CAVLC, no B pictures, no 8×8 transform). A Main or
 * High stream is decodable only when it sets constraint_set1, which promises that it
 * keeps to Constrained Baseline.
 */
export function softwareRefuses(p: SPSProfile | null): string {
  if (!p) return '';
  if (p.profileIdc === 66 || (p.constraints & 0x40) !== 0) return '';
  return `the software H.264 decoder handles Baseline only; this stream is ${profileName(p.profileIdc)} (profile_idc ${p.profileIdc})`;
}

function profileName(idc: number): string {
  const names: Record<number, string> = { 66: 'Baseline', 77: 'Main', 88: 'Extended', 100: 'High', 110: 'High 10', 122: 'High 4:2:2', 244: 'High 4:4:4' };
  return names[idc] ?? 'an unknown profile';
}
