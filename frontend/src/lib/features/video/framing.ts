// GET /api/preview/stream's framing: each message is a 4-byte big-endian length (of
// what follows), a kind byte, then the body. Kind 1 carries the stream's geometry as
// JSON; kind 2 one H.264 access unit: a flags byte (1 = key frame), the host's
// arrival time as 8-byte unix microseconds, then the Annex-B picture; kind 4 says why a
// named phone's stream ends (the phone left), as text.
import type { VideoConfig } from '../../wire.gen';

export type StreamMessage =
  | { kind: 'config'; config: VideoConfig }
  | { kind: 'picture'; key: boolean; arrivedUs: number; data: Uint8Array }
  | { kind: 'ended'; reason: string };

const KIND_CONFIG = 1;
const KIND_PICTURE = 2;
const KIND_ENDED = 4;

/** Cuts the response body's chunks into messages, however the chunks fall. */
export class StreamParser {
  private buf: Uint8Array = new Uint8Array(0);

  push(chunk: Uint8Array): StreamMessage[] {
    this.buf = this.buf.length ? concat(this.buf, chunk) : chunk;
    const out: StreamMessage[] = [];
    let off = 0;
    while (this.buf.length - off >= 5) {
      const view = new DataView(this.buf.buffer, this.buf.byteOffset + off);
      const len = view.getUint32(0);
      if (len < 1) throw new Error('preview stream: empty message');
      if (this.buf.length - off < 4 + len) break;
      const kind = this.buf[off + 4];
      const body = this.buf.subarray(off + 5, off + 4 + len);
      off += 4 + len;
      if (kind === KIND_CONFIG) {
        out.push({ kind: 'config', config: JSON.parse(new TextDecoder().decode(body)) as VideoConfig });
      } else if (kind === KIND_PICTURE) {
        if (body.length < 9) throw new Error('preview stream: short picture message');
        const meta = new DataView(body.buffer, body.byteOffset, 9);
        out.push({ kind: 'picture', key: (body[0] & 1) === 1, arrivedUs: Number(meta.getBigUint64(1)), data: body.subarray(9) });
      } else if (kind === KIND_ENDED) {
        out.push({ kind: 'ended', reason: new TextDecoder().decode(body) });
      }
      // Unknown kinds are skipped: a newer server may add some.
    }
    // Keep the unread tail in its own buffer so the parsed bodies stay valid.
    this.buf = off === this.buf.length ? new Uint8Array(0) : this.buf.slice(off);
    return out;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const c = new Uint8Array(a.length + b.length);
  c.set(a);
  c.set(b, a.length);
  return c;
}

/** An SPS's profile_idc, constraint flags byte and level_idc. */
export interface SPSProfile {
  profileIdc: number;
  constraints: number;
  levelIdc: number;
}

/** The profile of the first SPS in an access unit: the three bytes after its NAL header. */
export function spsProfile(au: Uint8Array): SPSProfile | null {
  for (let i = 0; i + 6 < au.length; i++) {
    if (au[i] === 0 && au[i + 1] === 0 && au[i + 2] === 1 && (au[i + 3] & 0x1f) === 7) {
      return { profileIdc: au[i + 4], constraints: au[i + 5], levelIdc: au[i + 6] };
    }
  }
  return null;
}

/** The WebCodecs codec string for an access unit's SPS ("avc1.42E01F"). */
export function codecFromSPS(au: Uint8Array): string | null {
  const p = spsProfile(au);
  if (!p) return null;
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(2, '0');
  return `avc1.${hex(p.profileIdc)}${hex(p.constraints)}${hex(p.levelIdc)}`;
}
