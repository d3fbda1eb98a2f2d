// Talk while you point, with real parts: espeak-ng speech in a WAV with leading silence
// -> Chromium's fake microphone -> the console (getUserMedia, AudioWorklet, PCM16
// chunks) -> fixthis serve -> the fake Realtime server, which finds the speech by
// energy and answers from a script.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { api, openConsole, shotPath, waitFor } from './harness.mjs';
import { clickNode, freeze, waitLive } from './steps.mjs';
import { itemText, speechWav, voiceSuite } from './voice.mjs';

const KEY = 'sk-test-voice-e2e-0123456789';
const PHRASE = 'Make this button blue, and a little larger.';
const SCRIPT = {
  turns: [{ transcript: 'make this button blue and a little larger', responses: [{ text: 'Which blue, the brand one?', audioMs: 400 }] }],
};
// The fake and the reference both cut audio into 10 ms frames: each edge may land one
// frame apart (±10 ms each, so ±20 ms on the length), and the console's box-filter
// resampler versus sox's can move a quiet edge frame across -40 dBFS, one more frame at
// each end. 60 ms covers that with a frame to spare; lost or duplicated audio (a
// dropped chunk is 100 ms) would not fit.
const SPAN_TOLERANCE_MS = 60;

const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

voiceSuite('talk while you point', 'fixthis-voice-', { script: SCRIPT, key: KEY, mic: (d) => speechWav(d, PHRASE), spans: 1 }, (env) => {
  it('hears the speech, shows the transcript, announces clicks, mutes and stops', async () => {
    const { page, errors, context } = await openConsole(env.browser, env.server, { width: 1440, height: 900 });
    await waitLive(page, env.server);
    const posts = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/api\/voice\/sessions\/[^/]+\/audio$/.test(new URL(r.url()).pathname)) posts.push({ at: Date.now(), bytes: r.postDataBuffer()?.length ?? 0 });
    });

    await page.keyboard.press('t');
    await waitFor(async () => (await page.locator('#micState').getAttribute('data-state')) === 'granted', { timeout: 15000, what: 'micState granted' });
    assert.equal((await page.locator('#voiceToggleButton').innerText()).replace(/\s*T$/, '').trim(), 'Stop talking');
    await waitFor(async () => (await page.locator('#voicePanel .state').innerText()) === 'listening', { timeout: 15000, what: 'voice session listening' });

    // The WAV plays in real time from the moment the capture opened: about 7.5 s.
    const heard = await waitFor(
      async () => {
        const s = await env.fake.speech();
        return s.spans.find((x) => !x.open && x.endMs > x.startMs);
      },
      { timeout: 30000, interval: 250, what: 'a closed speech span at the fake' },
    );
    const want = env.speech.spans[0];
    const lenGot = heard.endMs - heard.startMs;
    const lenWant = want.endMs - want.startMs;
    const lostMs = want.startMs - heard.startMs; // the WAV's start that played before audio was sent
    console.log(`voice e2e: WAV speech ${want.startMs}-${want.endMs} ms (${lenWant} ms); fake heard ${heard.startMs}-${heard.endMs} ms (${lenGot} ms), ${lenGot - lenWant} ms apart; ${lostMs} ms of the leading silence played before sending began`);
    assert.ok(Math.abs(lenGot - lenWant) <= SPAN_TOLERANCE_MS, `speech length: fake ${lenGot} ms, WAV ${lenWant} ms`);
    assert.ok(heard.startMs > 0, 'some leading silence reached the fake before the speech');
    // Audio sent from the file's start or later: the onset comes no later than the WAV's
    // (give or take the two 10 ms frame grids, which need not line up).
    assert.ok(lostMs >= -20 && lostMs < want.startMs, `the speech starts ${heard.startMs} ms into what was sent, the WAV's at ${want.startMs} ms`);

    const rows = page.locator('#voiceTranscript [data-role="riffer"]');
    await rows.first().waitFor({ timeout: 15000 });
    assert.equal((await rows.first().locator('.text').innerText()).trim(), SCRIPT.turns[0].transcript);
    const reply = page.locator('#voiceTranscript [data-role="interviewer"]');
    await reply.first().waitFor({ timeout: 15000 });
    assert.match(await reply.first().innerText(), /Which blue, the brand one\?/);

    // Chunks as the console posts them.
    const sizes = posts.map((p) => p.bytes);
    const gaps = posts.slice(1).map((p, i) => p.at - posts[i].at);
    console.log(`voice e2e: ${posts.length} audio POSTs, bytes p50 ${p50(sizes)} (min ${Math.min(...sizes)}, max ${Math.max(...sizes)}), interval p50 ${p50(gaps)} ms`);
    for (const b of sizes) assert.ok(b >= 4800 && b <= 12000 && b % 2 === 0, `an audio POST of ${b} bytes (want 100-250 ms of PCM16)`);

    // Annotate: a node click is announced with its anchor.
    const f = await freeze(page);
    const node = f.nodes.find((n) => n.text && n.clickable) ?? f.nodes.find((n) => n.text);
    assert.ok(node, 'the demo screen has a node with text');
    const anchorResp = page.waitForResponse((r) => r.url().includes('/anchors') && r.request().method() === 'POST');
    await clickNode(page, f, node);
    const anchor = await (await anchorResp).json();
    assert.match(anchor.anchorId, /^anchor_\d{4}$/);
    const note = await waitFor(
      async () => {
        const r = await env.fake.received();
        return r.events.find((e) => e.type === 'conversation.item.create' && itemText(e).includes(`(anchor id: ${anchor.anchorId})`));
      },
      { timeout: 10000, what: `the [PAGE] note for ${anchor.anchorId}` },
    );
    assert.match(itemText(note), /^\[PAGE\] The (user|riffer) clicked /);
    assert.equal(note.event.item.role, 'system');
    assert.ok(itemText(note).includes(node.text.slice(0, 20)), `the note names the node: ${itemText(note)}`);

    // Talking in Annotate mode, with the transcript and the picked node.
    await page.screenshot({ path: shotPath('voice-1440.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('#voiceTranscript').scrollIntoViewIfNeeded();
    await page.screenshot({ path: shotPath('voice-390.png') });
    await page.setViewportSize({ width: 1440, height: 900 });

    // Select: the click taps the phone, then it is announced.
    // The pick focused the comment box, where S would be typed: use the button.
    await page.locator('#selectToolButton').click();
    await waitLive(page, env.server);
    // The same node again within 1 s only refreshes its anchor (no second note).
    await new Promise((r) => setTimeout(r, 1100));
    const tapResp = page.waitForResponse((r) => r.url().includes('/api/preview/tap'));
    const selectAnchor = page.waitForResponse((r) => r.url().includes('/anchors') && r.request().method() === 'POST');
    await clickNode(page, f, node);
    assert.equal((await tapResp).status(), 200);
    const a2 = await (await selectAnchor).json();
    assert.equal(JSON.parse((await selectAnchor).request().postData()).mode, 'select');
    assert.notEqual(a2.anchorId, anchor.anchorId);
    await waitFor(
      async () => (await env.fake.received()).events.some((e) => e.type === 'conversation.item.create' && itemText(e).includes(`(anchor id: ${a2.anchorId})`)),
      { timeout: 10000, what: `the [PAGE] note for the Select-mode click ${a2.anchorId}` },
    );

    // Spoken replies off: the app is told, the session says so.
    const spokenResp = page.waitForResponse((r) => /\/api\/voice\/sessions\/[^/]+$/.test(new URL(r.url()).pathname) && r.request().method() === 'PUT');
    await page.locator('#voiceSpokenReplies').uncheck();
    assert.equal((await (await spokenResp).json()).spokenReplies, false);
    assert.equal((await api(env.server, 'GET', '/api/voice')).body.active.spokenReplies, false);

    // Mute: nothing leaves until unmuted.
    await page.locator('#voiceMuteButton').click();
    await waitFor(async () => (await page.locator('#micState').getAttribute('data-state')) === 'muted', { what: 'micState muted' });
    await new Promise((r) => setTimeout(r, 400)); // a request in flight may still finish
    const mutedAt = posts.length;
    await new Promise((r) => setTimeout(r, 1200));
    assert.equal(posts.length, mutedAt, 'no audio is posted while muted');
    await page.locator('#voiceMuteButton').click();
    await waitFor(async () => (await page.locator('#micState').getAttribute('data-state')) === 'unmuted', { what: 'micState unmuted' });
    await waitFor(() => posts.length > mutedAt, { what: 'audio again after unmute' });

    // Stop: the microphone closes, the app holds no session, nothing more is sent.
    await page.keyboard.press('t');
    await waitFor(async () => (await page.locator('#micState').getAttribute('data-state')) === 'off', { what: 'micState off' });
    await waitFor(async () => (await api(env.server, 'GET', '/api/voice')).body.active === null, { what: 'no active voice session' });
    await new Promise((r) => setTimeout(r, 400));
    const stoppedAt = posts.length;
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(posts.length, stoppedAt, 'no audio is posted after Stop talking');
    assert.equal(await page.locator('#voiceTranscript [data-role="riffer"]').count(), 1, 'the transcript stays for reading');
    assert.deepEqual(errors, []);
    await context.close();
  });
});

voiceSuite('talk with the microphone refused', 'fixthis-voice-denied-', { script: SCRIPT, key: KEY, mic: (d) => speechWav(d, 'hello'), allow: false }, (env) => {
  it('shows denied, says how to allow it and starts no session', async () => {
    const { page, errors, context } = await openConsole(env.browser, env.server, { width: 1440, height: 900 });
    await waitLive(page, env.server);
    await page.keyboard.press('t');
    await waitFor(async () => (await page.locator('#micState').getAttribute('data-state')) === 'denied', { timeout: 15000, what: 'micState denied' });
    assert.equal(await page.locator('#voiceNotice').getAttribute('data-kind'), 'mic');
    assert.match(await page.locator('#voiceNotice').innerText(), /address bar.*Allow/);
    assert.equal((await api(env.server, 'GET', '/api/voice')).body.active, null, 'no voice session was started');
    assert.equal((await env.fake.received()).connects ?? 0, 0, 'nothing reached the Realtime server');
    assert.equal((await page.locator('#voiceToggleButton').innerText()).replace(/\s*T$/, '').trim(), 'Talk');
    assert.deepEqual(errors, []);
    await context.close();
  });
});

voiceSuite('talk without a key', 'fixthis-voice-nokey-', { script: SCRIPT, key: KEY, keyless: true, mic: () => '/dev/null' }, (env) => {
  it('explains how to add one and starts nothing', async (t) => {
    const cfg = (await api(env.server, 'GET', '/api/voice')).body;
    if (cfg.keySet) return t.skip(`a key is already set here (${cfg.keySource})`);
    const { page, errors, context } = await openConsole(env.browser, env.server, { width: 1440, height: 900 });
    await waitLive(page, env.server);
    await page.keyboard.press('t');
    await page.locator('#voiceNotice[data-kind="no-key"]').waitFor({ timeout: 10000 });
    assert.match(await page.locator('#voiceNotice').innerText(), /OPENAI_API_KEY/);
    assert.equal(await page.locator('#micState').getAttribute('data-state'), 'off');
    assert.equal(await page.locator('#voiceKeyState').getAttribute('data-key-set'), 'false');
    assert.equal((await api(env.server, 'GET', '/api/voice')).body.active, null);
    assert.equal((await env.fake.received()).connects ?? 0, 0, 'nothing reached the Realtime server');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
