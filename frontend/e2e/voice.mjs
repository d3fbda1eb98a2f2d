// Real parts for the voice tests: speech made by espeak-ng, turned by sox into the WAV
// a fake microphone plays, the span of speech in it measured the way the fake Realtime
// server measures what it receives, and that fake server itself.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { api, launchBrowser, prerequisites, repoRoot, startServer, track } from './harness.mjs';

export const FAKE_BIN = process.env.REALTIME_FAKE_BIN || join(repoRoot, 'build', 'bin', 'realtime-fake');

/** What the voice tests need besides the browser and fixthis. */
export function voicePrerequisites() {
  const missing = [];
  for (const tool of ['espeak-ng', 'sox']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) missing.push(`${tool} (apt-get install ${tool})`);
  }
  if (!existsSync(FAKE_BIN)) missing.push(`${FAKE_BIN} (run make build)`);
  return missing;
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 30000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr || r.error}`);
}

/**
 * Speech for a fake microphone: `text` spoken by espeak-ng, padded with `leadS` seconds
 * of silence (the start of the file is lost while the stream opens) and `tailS` after,
 * as 16-bit mono WAV at `rate`. Returns the file and the speech span in it, measured
 * on a 24 kHz copy sox resamples (not the console's resampler).
 */
export function speechWav(dir, text, { rate = 48000, leadS = 3, tailS = 2 } = {}) {
  const raw = join(dir, 'espeak.wav');
  const wav = join(dir, `mic-${rate}.wav`);
  const ref = join(dir, 'ref-24k.raw');
  run('espeak-ng', ['-w', raw, text]);
  run('sox', [raw, '-r', String(rate), '-c', '1', '-b', '16', wav, 'pad', String(leadS), String(tailS)]);
  run('sox', [wav, '-r', '24000', '-t', 's16', '-e', 'signed', '-c', '1', ref]);
  const pcm = readFileSync(ref);
  return { wav, spans: speechSpans(pcm), durationMs: Math.round((pcm.length / 2 / 24000) * 1000) };
}

/**
 * Several phrases in one WAV for a fake microphone: `parts` are {text, gapS} (the
 * silence after the phrase), after `leadS` seconds of silence. Each phrase is one
 * speech turn for the fake when its gap is longer than the turn detection's 500 ms.
 * Returns the file, the speech spans (one per phrase, checked by the caller) and the
 * length.
 */
export function speechWavParts(dir, parts, { rate = 48000, leadS = 3, name = 'parts' } = {}) {
  const files = parts.map((p, i) => {
    const raw = join(dir, `${name}-${i}-espeak.wav`);
    const out = join(dir, `${name}-${i}.wav`);
    run('espeak-ng', ['-w', raw, p.text]);
    run('sox', [raw, '-r', String(rate), '-c', '1', '-b', '16', out, 'pad', i === 0 ? String(leadS) : '0', String(p.gapS ?? 2)]);
    return out;
  });
  const wav = join(dir, `${name}-${rate}.wav`);
  const ref = join(dir, `${name}-ref-24k.raw`);
  run('sox', [...files, wav]);
  run('sox', [wav, '-r', '24000', '-t', 's16', '-e', 'signed', '-c', '1', ref]);
  const pcm = readFileSync(ref);
  return { wav, spans: speechSpans(pcm), durationMs: Math.round((pcm.length / 2 / 24000) * 1000) };
}

/**
 * Speech spans in PCM16LE mono 24 kHz by the fake's rule: 10 ms frames at or above
 * -40 dBFS RMS are voiced; speech starts after 3 voiced frames and ends after `silenceMs`
 * without one; a span runs from its first to its last voiced frame.
 */
export function speechSpans(pcm, { thresholdDbfs = -40, silenceMs = 500 } = {}) {
  const frame = 240;
  const threshold = 32768 * 10 ** (thresholdDbfs / 20);
  const frames = Math.floor(pcm.length / 2 / frame);
  const spans = [];
  let run = 0;
  let quiet = 0;
  let speaking = false;
  let start = 0;
  let last = 0;
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let i = 0; i < frame; i++) {
      const s = pcm.readInt16LE((f * frame + i) * 2);
      sum += s * s;
    }
    const voiced = Math.sqrt(sum / frame) >= threshold;
    if (voiced && !speaking) {
      if (++run >= 3) {
        speaking = true;
        start = f - run + 1;
        last = f;
        quiet = 0;
      }
    } else if (!voiced && !speaking) run = 0;
    else if (voiced) {
      last = f;
      quiet = 0;
    } else if (++quiet >= silenceMs / 10) {
      speaking = false;
      run = 0;
      spans.push({ startMs: start * 10, endMs: (last + 1) * 10 });
    }
  }
  if (speaking) spans.push({ startMs: start * 10, endMs: (last + 1) * 10, open: true });
  return spans;
}

/** Chromium whose microphone plays `wav` once (the fake UI allows it, unless `allow` is false). */
export async function launchWithMic(wav, { allow = true } = {}) {
  return launchBrowser([
    // Without the fake UI the permission prompt is dismissed, as a user refusing it.
    ...(allow ? ['--use-fake-ui-for-media-stream'] : []),
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-audio-capture=${wav}%noloop`,
  ]);
}

/** Starts fixthis serve with the given environment additions (the key, the fake's URL). */
export async function serverWith(env) {
  const saved = {};
  for (const [k, v] of Object.entries(env)) {
    saved[k] = process.env[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    return await startServer();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** Starts the fake Realtime server with a script; resolves with its URL and inspectors. */
export async function startFake(dir, script, key) {
  const scriptFile = join(dir, 'script.json');
  writeFileSync(scriptFile, JSON.stringify(script));
  const child = track(spawn(FAKE_BIN, ['--script', scriptFile, '--key', key], { stdio: ['ignore', 'pipe', 'pipe'] }));
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const url = await new Promise((res, rej) => {
    let buf = '';
    const t = setTimeout(() => rej(new Error(`realtime-fake printed nothing in 10 s: ${stderr}`)), 10000);
    child.stdout.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(t);
        res(JSON.parse(buf.slice(0, nl)).url);
      }
    });
    child.on('exit', (code) => rej(new Error(`realtime-fake exited with ${code}: ${stderr}`)));
  });
  const base = url.replace(/\/v1\/?$/, '');
  const get = async (path) => (await fetch(base + path)).json();
  return {
    url,
    received: () => get('/_fake/received'),
    speech: () => get('/_fake/speech'),
    sent: () => get('/_fake/sent'),
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.on('exit', r));
    },
  };
}

/**
 * One voice suite's setup: a temporary folder, the fake Realtime server with its
 * script, fixthis serve pointed at it with the key (none when `keyless`) and Chromium
 * whose microphone plays what mic(dir) returns (a speech WAV's {wav, spans} or a path).
 */
export async function startVoice(prefix, { script, key, keyless = false, mic, allow = true }) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const made = mic(dir);
  const speech = typeof made === 'string' ? null : made;
  const fake = await startFake(dir, script, key);
  const server = await serverWith({ OPENAI_API_KEY: keyless ? undefined : key, OPENAI_BASE_URL: fake.url });
  const browser = await launchWithMic(speech ? speech.wav : made, { allow });
  return { dir, speech, fake, server, browser };
}

/** Undoes startVoice, whatever part of it ran. */
export async function stopVoice(env) {
  await env.browser?.close();
  await env.server?.stop();
  await env.fake?.stop();
  if (env.dir) rmSync(env.dir, { recursive: true, force: true });
}

/**
 * describe(name) around one voice setup: before starts it (startVoice(prefix, opts)),
 * after stops it, and body(env) declares the tests, which read env.server,
 * env.browser, env.fake, env.dir and env.speech. `spans` checks that the speech WAV
 * holds that many spans of speech. Skipped, saying what is missing, without the tools.
 */
export function voiceSuite(name, prefix, { spans, ...opts }, body) {
  const missing = [...prerequisites(), ...voicePrerequisites()];
  describe(name, { skip: missing.length ? `missing ${missing.join(', ')}` : false }, () => {
    const env = {};
    before(async () => {
      Object.assign(env, await startVoice(prefix, opts));
      if (spans !== undefined) {
        assert.equal(env.speech.spans.length, spans, `the speech WAV should hold ${spans} span(s) of speech: ${JSON.stringify(env.speech.spans)}`);
      }
    });
    after(() => stopVoice(env));
    body(env);
  });
}

/** The text of a conversation.item.create the client sent (system notes, user text). */
export function itemText(ev) {
  const content = ev?.event?.item?.content ?? [];
  return content.map((c) => c.text ?? '').join('');
}

/**
 * Page init scripts for the voice suites (openConsole's `init`). heldEvents lets a
 * test hold the event stream's deliveries in the page (window.__events.hold() /
 * release()), as a console a moment behind the app would be; seenItems stamps the
 * wall-clock time each annotation row (`[data-item-id]`) first shows, in
 * window.__seenItems.
 */
export function voicePageInit() {
  const held = [];
  let holding = false;
  window.__events = {
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const f of held.splice(0)) f();
    },
  };
  const add = EventSource.prototype.addEventListener;
  EventSource.prototype.addEventListener = function (type, fn, opts) {
    const wrapped = function (ev) {
      if (holding) held.push(() => fn.call(this, ev));
      else fn.call(this, ev);
    };
    return add.call(this, type, wrapped, opts);
  };
  window.__seenItems = {};
  const stamp = () => {
    for (const el of document.querySelectorAll('[data-item-id]')) {
      const id = el.getAttribute('data-item-id');
      if (!(id in window.__seenItems)) window.__seenItems[id] = Date.now();
    }
  };
  new MutationObserver(stamp).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-item-id'] });
}

/** The unit rows of the transcript: unit id, "→ #N", data-state, in order. */
export async function unitRows(page) {
  return page.locator('#voiceTranscript [data-unit-id]').evaluateAll((els) =>
    els.map((el) => ({ unitId: el.getAttribute('data-unit-id'), state: el.getAttribute('data-state'), itemId: el.getAttribute('data-item-ref'), num: el.querySelector('.num')?.textContent?.trim() ?? '' })),
  );
}

/** The session's items as the app has them. */
export async function sessionItems(server, sessionId) {
  return (await api(server, 'GET', `/api/sessions/${sessionId}`)).body?.session?.items ?? [];
}

/**
 * Tool call sent → item shown: for each record_unit the fake sent (in order), the
 * time from its write to its item's row first showing in the page (voicePageInit's
 * stamps). Items are matched to calls in order: the app handles unit calls one at a
 * time, and each recorded unit is one new item. Returns the latencies in ms.
 */
export async function callToItemMs(fake, page, items) {
  const calls = ((await fake.sent()).events ?? []).filter((e) => e.type === 'response.function_call_arguments.done' && e.name === 'record_unit');
  const seen = await page.evaluate(() => window.__seenItems);
  const ordered = [...items].filter((i) => i.voice).sort((a, b) => a.sequenceNumber - b.sequenceNumber);
  if (ordered.length !== calls.length) throw new Error(`${calls.length} record_unit calls sent, ${ordered.length} voice items`);
  return ordered.map((it, i) => {
    if (!(it.itemId in seen)) throw new Error(`item #${it.sequenceNumber} never showed in the page`);
    return seen[it.itemId] - Date.parse(calls[i].at);
  });
}

/** The median and the 90th percentile of xs. */
export function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: s[Math.floor(s.length / 2)], p90: s[Math.min(s.length - 1, Math.floor(s.length * 0.9))], n: s.length };
}
