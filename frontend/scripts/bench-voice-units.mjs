// A spoken unit from the interviewer's tool call to the item on screen: the fake
// Realtime server (build/bin/realtime-fake) scripts one record_unit per phrase of a
// WAV that Chromium's fake microphone plays into the console while Talk is on
// (Collect mode: nothing is handed off meanwhile). For each call it takes the time
// from the fake writing response.function_call_arguments.done (its sent log) to the
// item's row first showing in the console (a MutationObserver in the page, same
// clock). Called by scripts/bench.sh; BENCH_VOICE_UNITS phrases (default 10).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, openConsole, prerequisites, waitFor } from '../e2e/harness.mjs';
import { waitLive } from '../e2e/steps.mjs';
import { callToItemMs, launchWithMic, serverWith, sessionItems, speechWavParts, startFake, stats, unitRows, voicePageInit, voicePrerequisites } from '../e2e/voice.mjs';

const N = Number(process.env.BENCH_VOICE_UNITS || 10);
const BUDGET_MS = 300;
const missing = [...prerequisites(), ...voicePrerequisites()];
if (missing.length) {
  console.log(`  (spoken unit → console: missing ${missing.join(', ')})`);
  process.exit(0);
}

const WORDS = ['Make the header darker.', 'Round the card corners.', 'Make the list rows taller.', 'Use a bolder title.', 'Move the search icon left.'];
const phrases = Array.from({ length: N }, (_, i) => ({ text: WORDS[i % WORDS.length], gapS: i === N - 1 ? 3 : 1.2 }));
const script = {
  turns: phrases.map((p) => {
    const said = p.text.replace(/\.$/, '').toLowerCase();
    return { transcript: said, responses: [{ toolCalls: [{ name: 'record_unit', arguments: { statement: p.text.replace(/\.$/, ''), anchors: [], transcript_excerpt: said } }] }] };
  }),
};

const dir = mkdtempSync(join(tmpdir(), 'fixthis-bench-units-'));
const key = 'sk-bench-units-0123456789';
let fake;
let server;
let browser;
try {
  const speech = speechWavParts(dir, phrases, { leadS: 3 });
  if (speech.spans.length !== N) throw new Error(`the WAV holds ${speech.spans.length} spans of speech, want ${N}`);
  fake = await startFake(dir, script, key);
  server = await serverWith({ OPENAI_API_KEY: key, OPENAI_BASE_URL: fake.url });
  browser = await launchWithMic(speech.wav);
  const { page, context } = await openConsole(browser, server, { init: voicePageInit });
  await waitLive(page, server);
  await page.locator('#voiceSettingsButton').click();
  await page.locator('#voiceModeControl [data-value="collect"]').click();
  await page.locator('#voiceSettingsButton').click();
  await page.keyboard.press('t');
  await waitFor(async () => (await unitRows(page)).length === N, { timeout: 30000 + N * 4000, what: `${N} units` });
  const sessionId = (await api(server, 'GET', '/api/voice')).body.active?.sessionId;
  // Every item row, not only the units': wait until each showed.
  await waitFor(async () => {
    const items = await sessionItems(server, sessionId);
    const seen = await page.evaluate(() => window.__seenItems);
    return items.length === N && items.every((i) => i.itemId in seen);
  }, { what: 'every item shown' });
  const s = stats(await callToItemMs(fake, page, await sessionItems(server, sessionId)));
  await page.keyboard.press('t');
  await context.close();
  const label = `record_unit sent → item in the console, N=${s.n}`;
  console.log(`  ${label.padEnd(50)} ${String(s.p50).padStart(8)} ${String(s.p90).padStart(8)}   ${s.p50 <= BUDGET_MS ? 'ok' : 'OVER'} (budget ${BUDGET_MS} ms p50)`);
} finally {
  await browser?.close();
  await server?.stop();
  await fake?.stop();
  rmSync(dir, { recursive: true, force: true });
}
