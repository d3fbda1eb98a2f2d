import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api';
import type { Transport } from '../../transport';
import { LivePlayer } from './player.svelte';

/** One message of GET /api/preview/stream: length, kind, body. */
function message(kind: number, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + body.length);
  new DataView(out.buffer).setUint32(0, 1 + body.length);
  out[4] = kind;
  out.set(body, 5);
  return out;
}

const config = message(
  1,
  new TextEncoder().encode(JSON.stringify({ serial: 'emu', width: 320, height: 720, displayWidth: 1080, displayHeight: 2400, contentX: 0, contentY: 0, contentWidth: 320, contentHeight: 711 })),
);

/** A key picture whose SPS has profile, constraints and level. */
function keyPicture(profile: number, constraints: number, level: number): Uint8Array {
  const au = [0, 0, 0, 1, 0x67, profile, constraints, level, 0xac, 0, 0, 0, 1, 0x68, 0xce, 0, 0, 0, 1, 0x65, 0x88];
  return message(2, new Uint8Array([1, 0, 0, 0, 0, 0, 0, 0, 1, ...au]));
}

/** A stream that sends chunks and then stays open, as the server's does. */
/** The transport the player is handed: the stream serve() set up. */
let transport: Transport;

function serve(...chunks: Uint8Array[]): { opened: () => number; serials: string[] } {
  let opened = 0;
  const serials: string[] = [];
  transport = {
    api: {
      previewStream: async (_signal: AbortSignal, serial = '') => {
        opened++;
        serials.push(serial);
        return new ReadableStream<Uint8Array>({
          start(c) {
            for (const ch of chunks) c.enqueue(ch);
          },
        });
      },
    },
  } as unknown as Transport;
  return { opened: () => opened, serials };
}

/** A VideoDecoder that decodes only the codecs listed. */
function webCodecs(supports: string[]): string[] {
  const decoded: string[] = [];
  class FakeDecoder {
    state = 'unconfigured';
    codec = '';
    static async isConfigSupported(c: { codec: string }) {
      return { supported: supports.includes(c.codec) };
    }
    configure(c: { codec: string }) {
      this.state = 'configured';
      this.codec = c.codec;
    }
    decode() {
      decoded.push(this.codec);
    }
    close() {
      this.state = 'closed';
    }
  }
  vi.stubGlobal('VideoDecoder', FakeDecoder);
  vi.stubGlobal('EncodedVideoChunk', class {});
  return decoded;
}

/** A Worker whose script reports that tinyh264 did not load. */
function brokenWorker(): string[] {
  const started: string[] = [];
  vi.stubGlobal(
    'Worker',
    class {
      private listeners: ((e: { data: unknown }) => void)[] = [];
      constructor(url: URL) {
        started.push(String(url));
        setTimeout(() => this.listeners.forEach((l) => l({ data: { type: 'fatal', message: 'tinyh264 did not load: no memory' } })));
      }
      addEventListener(type: string, fn: (e: { data: unknown }) => void) {
        if (type === 'message') this.listeners.push(fn);
      }
      postMessage() {}
    },
  );
  return started;
}

let player: LivePlayer;
beforeEach(() => {
  player = new LivePlayer();
  vi.stubGlobal('location', { search: '' });
});
afterEach(() => {
  player.stop();
  vi.unstubAllGlobals();
});

describe('LivePlayer decoder choice', () => {
  it('uses WebCodecs when it decodes the stream, without loading the software decoder', async () => {
    const decoded = webCodecs(['avc1.42E01F', 'avc1.42E01E']);
    const started = brokenWorker();
    serve(config, keyPicture(0x42, 0xe0, 0x1e));
    player.play(transport, 'emu');
    await vi.waitFor(() => expect(decoded).toEqual(['avc1.42E01E']));
    expect(player.decoderName).toBe('WebCodecs VideoDecoder (avc1.42E01E)');
    expect(started).toEqual([]);
  });

  it('tries the software decoder when WebCodecs refuses the stream, and gives every reason', async () => {
    webCodecs(['avc1.42E01F']);
    const started = brokenWorker();
    serve(config, keyPicture(0x42, 0xe0, 0x1e));
    player.play(transport, 'emu');
    await vi.waitFor(() => expect(player.phase).toBe('unavailable'));
    expect(player.reason).toBe("WebCodecs cannot decode this stream's H.264 (avc1.42E01E); tinyh264 did not load: no memory");
    expect(started).toHaveLength(1);
    expect(started[0]).toMatch(/tinyh264\.worker/);
  });

  it('falls back to JPEG for a High profile stream when only the software decoder is there', async () => {
    const started = brokenWorker();
    serve(config, keyPicture(0x64, 0x00, 0x28));
    player.play(transport, 'emu');
    await vi.waitFor(() => expect(player.phase).toBe('unavailable'));
    expect(player.reason).toBe('the software H.264 decoder handles Baseline only; this stream is High (profile_idc 100)');
    expect(started).toEqual([]);
  });

  it('opens no stream with ?decoder=jpeg, or when the forced decoder is missing', async () => {
    const server = serve(config, keyPicture(0x42, 0xe0, 0x1e));
    vi.stubGlobal('location', { search: '?decoder=jpeg' });
    player.play(transport, 'emu');
    await vi.waitFor(() => expect(player.phase).toBe('unavailable'));
    expect(player.reason).toBe('the console is set to JPEG frames (?decoder=jpeg)');
    player.stop();
    vi.stubGlobal('location', { search: '?decoder=webcodecs' });
    player.play(transport, 'emu');
    await vi.waitFor(() => expect(player.phase).toBe('unavailable'));
    expect(player.reason).toBe('this browser has no WebCodecs VideoDecoder (?decoder=webcodecs)');
    expect(server.opened()).toBe(0);
  });
});

describe('LivePlayer of a side stage', () => {
  it('names its phone and ends, without reopening, when the server says the phone left', async () => {
    webCodecs(['avc1.42E01F', 'avc1.42E01E']);
    const side = new LivePlayer(true);
    const why = 'no device "emu-2" is connected';
    const server = serve(config, keyPicture(0x42, 0xe0, 0x1e), message(4, new TextEncoder().encode(why)));
    side.play(transport, 'emu-2');
    await vi.waitFor(() => expect(side.phase).toBe('ended'));
    expect(side.reason).toBe(why);
    expect(server.serials).toEqual(['emu-2']);
    await new Promise((r) => setTimeout(r, 150));
    expect(server.opened()).toBe(1);
    side.stop();
  });

  it('ends on a refusal that names the stage limit instead of falling back to JPEG', async () => {
    webCodecs(['avc1.42E01F', 'avc1.42E01E']);
    const side = new LivePlayer(true);
    const refusal = '4 phones are live already; close one of their stages to show emu-5';
    const refusing = {
      api: {
        previewStream: async () => {
          throw new ApiError(409, 'stage_limit', refusal);
        },
      },
    } as unknown as Transport;
    side.play(refusing, 'emu-5');
    await vi.waitFor(() => expect(side.phase).toBe('ended'));
    expect(side.reason).toBe(refusal);
    side.stop();
  });

  it('the selected phone\'s player asks for no serial, so it follows the selection', async () => {
    webCodecs(['avc1.42E01F', 'avc1.42E01E']);
    const server = serve(config, keyPicture(0x42, 0xe0, 0x1e));
    player.play(transport, 'emu');
    await vi.waitFor(() => expect(server.serials).toEqual(['']));
  });
});
