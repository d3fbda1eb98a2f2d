// When spoken units reach the agent, end to end in Chromium against the fake
// interviewer: three phrases 1.5 s apart, said once with Talk in Instant mode and
// once in Smart mode. Instant hands each unit off as it is recorded; Smart keeps them
// drafts through the short pauses and hands them off together once the user has been
// quiet for 4 s. A typed answer to an agent's question on a spoken item comes first
// and stands; the spoken answer after it is refused. (Collect, drafts until Save to MCP, is in voice-units.test.mjs.) It
// also prints how long a record_unit the fake sent takes to show as an item in the
// console; `make bench` (frontend/scripts/bench-voice-units.mjs) holds it to its budget.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { api, openConsole, shotPath, waitFor } from './harness.mjs';
import { waitLive } from './steps.mjs';
import { McpClient } from './mcp.mjs';
import { callToItemMs, itemText, sessionItems, speechWavParts, stats, unitRows, voicePageInit, voiceSuite } from './voice.mjs';

const KEY = 'sk-test-voice-modes-0123456789';
const PHRASES = [
  { text: 'Make the list rows taller.', gapS: 1.5 },
  { text: 'Make the header darker.', gapS: 1.5 },
  { text: 'Round the card corners.', gapS: 8 },
];
const turn = (text, statement) => ({
  transcript: text,
  responses: [{ toolCalls: [{ name: 'record_unit', arguments: { statement, anchors: [], transcript_excerpt: text } }] }],
});
const TURNS = [
  ['make the list rows taller', 'Make the list rows taller'],
  ['make the header darker', 'Make the header darker'],
  ['round the card corners', 'Round the card corners'],
];
const TYPED = 'Taller by 8 dp';
// Turns are shared by connections in order: the first Talk uses three, the second the
// next three. The last reply stays active for a while, so an agent's question waits
// for it and the typed answer comes first; the spoken one the note brings is refused.
const turns = [...TURNS, ...TURNS].map(([t, s]) => turn(t, s));
turns[5].responses[0] = { ...turns[5].responses[0], text: 'Noted.', audioMs: 300, holdMs: 14000 };
const SCRIPT = {
  turns,
  notes: [{ prefix: '[ENDPOINT QUESTION]', responses: [{ toolCalls: [{ name: 'relay_answer', arguments: { unit_id: 'unit_0001', answer_text: 'Twice as tall' } }] }] }],
};

const ms = (iso) => (iso ? Date.parse(iso) : NaN);
/** The items of one voice session, in order. */
const mine = (items, v) => items.filter((i) => i.voice?.voiceSessionId === v.voiceSessionId).sort((a, b) => a.sequenceNumber - b.sequenceNumber);

voiceSuite('spoken units reach the agent by the mode', 'fixthis-voice-modes-', { script: SCRIPT, key: KEY, mic: (d) => speechWavParts(d, PHRASES, { leadS: 3 }), spans: PHRASES.length }, (env) => {
  /** Chooses the mode, talks until the three units show, and returns this Talk's items. */
  async function talk(page, mode) {
    await page.locator('#voiceSettingsButton').click(); // the panel, with its mode control
    await page.locator(`#voiceModeControl [data-value="${mode}"]`).click();
    assert.equal(await page.locator('#voiceModeControl').getAttribute('data-mode'), mode);
    await page.locator('#voiceSettingsButton').click();
    const started = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/voice/sessions' && r.request().method() === 'POST');
    await page.keyboard.press('t');
    const s = await (await started).json();
    assert.equal(s.mode, mode, 'Talk starts in the chosen mode');
    // Rows of this Talk only (a new Talk starts the transcript over).
    await waitFor(
      async () => {
        const ids = mine(await sessionItems(env.server, s.sessionId), s).map((i) => i.itemId);
        const rows = await unitRows(page);
        return rows.length === 3 && rows.every((r) => ids.includes(r.itemId));
      },
      { timeout: 40000, interval: 100, what: `three units in ${mode} mode` },
    );
    return s;
  }

  async function stop(page) {
    await page.keyboard.press('t');
    await waitFor(async () => (await api(env.server, 'GET', '/api/voice')).body.active === null, { what: 'no active voice session' });
  }

  it('hands off at once in Instant, at the silence checkpoint in Smart; a typed answer first stands', async () => {
    const { page, errors, context } = await openConsole(env.browser, env.server, { width: 1440, height: 900, init: voicePageInit });
    await waitLive(page, env.server);

    // Instant: each unit is handed off as it is recorded, before the next is said.
    const instant = await talk(page, 'instant');
    await waitFor(async () => (await unitRows(page)).every((r) => r.state === 'sent'), { timeout: 10000, what: 'instant units sent' });
    const a = mine(await sessionItems(env.server, instant.sessionId), instant);
    assert.equal(a.length, 3);
    for (let i = 0; i < 3; i++) {
      assert.equal(a[i].delivery, 'sent');
      if (i < 2) assert.ok(ms(a[i].lastHandedOffAt) <= ms(a[i + 1].createdAt), `#${a[i].sequenceNumber} was handed off before #${a[i + 1].sequenceNumber} was recorded`);
    }
    await stop(page);

    // Smart: the 1.5 s pauses are no checkpoint; 4 s of quiet after the last is.
    const smart = await talk(page, 'smart');
    assert.equal(smart.sessionId, instant.sessionId);
    await waitFor(async () => (await unitRows(page)).every((r) => r.state === 'sent'), { timeout: 20000, what: 'smart units sent' });
    const b = mine(await sessionItems(env.server, smart.sessionId), smart);
    assert.equal(b.length, 3);
    const last = ms(b[2].createdAt);
    for (const it of b) {
      const waited = ms(it.lastHandedOffAt) - last;
      assert.ok(waited >= 3500, `#${it.sequenceNumber} handed off ${waited} ms after the last unit was recorded (want the 4 s checkpoint)`);
    }

    // Typed answers keep working on a spoken item: typed first wins, the spoken
    // answer that comes after is refused and the unit's row says so.
    const agent = new McpClient(env.server.mcpUrl, env.server.mcpToken);
    await agent.initialize();
    const served = await agent.call('fixthis_wait_for_feedback', { sessionId: smart.sessionId, timeoutSeconds: 5 });
    if (served?.batchId) await agent.call('fixthis_ack_feedback', { batchId: served.batchId });
    await agent.call('fixthis_claim_feedback', { sessionId: smart.sessionId, itemId: b[0].itemId });
    await agent.call('fixthis_ask', { sessionId: smart.sessionId, itemId: b[0].itemId, question: 'Taller by how much?' });
    const row = page.locator('#voiceTranscript [data-unit-id="unit_0001"]');
    await waitFor(async () => (await row.getAttribute('data-state')) === 'needs_clarification', { what: 'the spoken item needs an answer' });
    await row.locator('button').click();
    await page.locator('#answerBox').fill(TYPED);
    await page.getByRole('button', { name: 'Send answer' }).click();
    await waitFor(async () => (await page.locator('.editor').innerText()).includes(TYPED), { what: 'the typed answer shown' });
    const typed = await waitFor(
      async () => {
        const w = await agent.call('fixthis_wait_for_feedback', { sessionId: smart.sessionId, timeoutSeconds: 5 });
        if (w?.batchId) await agent.call('fixthis_ack_feedback', { batchId: w.batchId });
        return (w?.answers ?? []).find((x) => x.itemId === b[0].itemId);
      },
      { timeout: 20000, interval: 0, what: "the typed answer in the agent's wait" },
    );
    assert.equal(typed.answer, TYPED);
    await waitFor(async () => /already answered/.test(await row.innerText()), { timeout: 25000, what: 'the spoken answer refused on the unit row' });
    assert.ok((await env.fake.received()).events.some((e) => e.type === 'conversation.item.create' && itemText(e).startsWith('[ENDPOINT QUESTION]')), 'the question reached the interviewer');
    assert.equal((await sessionItems(env.server, smart.sessionId)).find((i) => i.itemId === b[0].itemId).userAnswer, TYPED, 'the typed answer stands');
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: shotPath('voice-typed-first-1440.png') });
    await stop(page);

    const lat = stats(await callToItemMs(env.fake, page, await sessionItems(env.server, smart.sessionId)));
    console.log(`voice units e2e: record_unit sent by the fake → its item in the console: p50 ${lat.p50} ms, p90 ${lat.p90} ms (N=${lat.n}; budget 300 ms p50, held by make bench)`);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
