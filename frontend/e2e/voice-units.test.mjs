// What you say becomes items, end to end with real parts: espeak-ng phrases in one WAV
// -> Chromium's fake microphone -> the console -> fixthis serve -> the fake Realtime
// server, whose script makes the interviewer's unit tool calls. One Talk in Collect
// mode: a click and "make this button blue" become an item on that node; one sentence
// with two changes becomes two items; nothing reaches the agent until Save to MCP;
// "forget that" withdraws the last one from the agent; the agent's question reaches the
// interviewer as an [ENDPOINT QUESTION] note and its relay_answer is what the agent's
// wait returns; a typed answer that comes second is refused and says why; after a
// reload the voice items are in the session with what was said.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { api, openConsole, shotPath, waitFor } from './harness.mjs';
import { McpClient } from './mcp.mjs';
import { clickNode, freeze, waitLive, waitSessionShown } from './steps.mjs';
import { itemText, sessionItems, speechWavParts, unitRows, voicePageInit, voiceSuite } from './voice.mjs';

const KEY = 'sk-test-voice-units-0123456789';
const QUESTION = 'Which blue: the brand blue or the link blue?';
const SPOKEN_ANSWER = 'The brand blue, like the header';
// Lead silence for Talk to start, Annotate to freeze and the click to land before the
// first phrase; the long gap after the second phrase is the Collect check (silence
// past the 4 s checkpoint hands nothing off) and Save to MCP.
const PHRASES = [
  { text: 'Make this button blue.', gapS: 2.5 },
  { text: 'Make the title bigger, and the subtitle grey.', gapS: 14 },
  { text: 'Forget that.', gapS: 20 },
];
const record = (statement, anchors, excerpt) => ({ name: 'record_unit', arguments: { statement, anchors, transcript_excerpt: excerpt } });
const SCRIPT = {
  turns: [
    { transcript: 'make this button blue', responses: [{ toolCalls: [record('Make this button blue', ['this'], 'make this button blue')], text: 'Got it.', audioMs: 300 }] },
    {
      transcript: 'make the title bigger and the subtitle grey',
      responses: [{ toolCalls: [record('Make the title bigger', ['the title'], 'make the title bigger'), record('Make the subtitle grey', ['the subtitle'], 'and the subtitle grey')], text: 'Two changes.', audioMs: 300 }],
    },
    // The reply stays active for a while: a question note waits for it to end, so the
    // console shows the question before the spoken answer comes.
    { transcript: 'forget that', responses: [{ toolCalls: [{ name: 'withdraw_unit', arguments: { unit_id: 'unit_0003', reason: 'the user took it back' } }], text: 'Okay, I took that back.', audioMs: 300, holdMs: 9000 }] },
  ],
  notes: [{ prefix: '[ENDPOINT QUESTION]', responses: [{ toolCalls: [{ name: 'relay_answer', arguments: { unit_id: 'unit_0001', answer_text: SPOKEN_ANSWER } }], text: 'I told the agent.', audioMs: 300 }] }],
};

/** Waits for the agent's next batch of the given kind (acknowledging each one served). */
async function nextBatch(agent, sessionId, what, pick) {
  return waitFor(
    async () => {
      const b = await agent.call('fixthis_wait_for_feedback', { sessionId, timeoutSeconds: 5 });
      if (b?.batchId) await agent.call('fixthis_ack_feedback', { batchId: b.batchId });
      return b?.status === 'batch' && pick(b) ? b : null;
    },
    { timeout: 30000, interval: 0, what },
  );
}

voiceSuite('what you say becomes items', 'fixthis-voice-units-', { script: SCRIPT, key: KEY, mic: (d) => speechWavParts(d, PHRASES, { leadS: 6 }), spans: PHRASES.length }, (env) => {
  it('records, hands off on Save to MCP, withdraws, relays the answer and keeps it all', async () => {
    const { page, errors, context } = await openConsole(env.browser, env.server, { width: 1440, height: 900, init: voicePageInit });
    await waitLive(page, env.server);

    // Talk, then Collect: the running voice session is told at once.
    await page.keyboard.press('t');
    await waitFor(async () => (await page.locator('#micState').getAttribute('data-state')) === 'granted', { timeout: 15000, what: 'micState granted' });
    const modeResp = page.waitForResponse((r) => /\/api\/voice\/sessions\/[^/]+$/.test(new URL(r.url()).pathname) && r.request().method() === 'PUT');
    await page.locator('#voiceModeControl [data-value="collect"]').click();
    assert.equal((await (await modeResp).json()).mode, 'collect');
    assert.equal(await page.locator('#voiceModeControl').getAttribute('data-mode'), 'collect');
    const active = (await api(env.server, 'GET', '/api/voice')).body.active;
    assert.equal(active.mode, 'collect');
    const sessionId = active.sessionId;

    // Click a node while talking: "this" in the first phrase is that node.
    const f = await freeze(page);
    const node = f.nodes.find((n) => n.text && n.clickable) ?? f.nodes.find((n) => n.text);
    const anchorResp = page.waitForResponse((r) => r.url().includes('/anchors') && r.request().method() === 'POST');
    await clickNode(page, f, node);
    const anchor = await (await anchorResp).json();
    assert.equal(((await env.fake.speech()).spans ?? []).filter((s) => !s.open).length, 0, 'the click came before the first phrase ended');

    // 1. "Make this button blue" → a draft item on that node, with the words said.
    const first = page.locator('#voiceTranscript [data-unit-id="unit_0001"]');
    await first.waitFor({ timeout: 30000 });
    await waitFor(async () => /→ #\d+/.test(await first.innerText()), { what: 'the first unit names its item' });
    const items1 = await sessionItems(env.server, sessionId);
    const blue = items1.find((i) => i.voice?.unitId === 'unit_0001');
    assert.ok(blue, `an item for unit_0001: ${JSON.stringify(items1.map((i) => [i.sequenceNumber, i.comment, i.voice]))}`);
    assert.equal(blue.comment, 'Make this button blue');
    assert.equal(blue.target.type, 'node');
    assert.equal(blue.target.nodeUid, node.uid);
    assert.equal(blue.voice.excerpt, 'make this button blue');
    assert.deepEqual(blue.voice.anchors, [anchor.anchorId]);
    assert.ok(blue.voice.spanEndMs > blue.voice.spanStartMs && blue.voice.spanStartMs > 0, `a span of speech: ${blue.voice.spanStartMs}-${blue.voice.spanEndMs}`);
    assert.match(await first.innerText(), new RegExp(`→ #${blue.sequenceNumber}\\b`));
    assert.equal(await page.locator(`[data-item-id="${blue.itemId}"]`).count(), 1, 'the item is in the list');

    // 2. One sentence, two changes → two items (screen notes: no click named them).
    await page.locator('#voiceTranscript [data-unit-id="unit_0003"]').waitFor({ timeout: 30000 });
    const items2 = await sessionItems(env.server, sessionId);
    const title = items2.find((i) => i.voice?.unitId === 'unit_0002');
    const subtitle = items2.find((i) => i.voice?.unitId === 'unit_0003');
    assert.deepEqual([title?.comment, subtitle?.comment], ['Make the title bigger', 'Make the subtitle grey']);
    assert.deepEqual([title.target.type, subtitle.target.type], ['screen', 'screen']);
    assert.equal(subtitle.sequenceNumber, title.sequenceNumber + 1);

    // Collect: past the 4 s silence checkpoint (5 s after the last unit was stored,
    // which came after the speech stopped) every unit is still a draft.
    const quietUntil = Date.parse(subtitle.createdAt) + 5000;
    await new Promise((r) => setTimeout(r, Math.max(0, quietUntil - Date.now()) + 50));
    assert.deepEqual((await unitRows(page)).map((r) => r.state), ['draft', 'draft', 'draft'], 'Collect hands nothing off by itself');
    assert.ok((await sessionItems(env.server, sessionId)).every((i) => i.delivery === 'draft'));

    // Save to MCP hands the three off; the agent's wait gets them.
    const agent = new McpClient(env.server.mcpUrl, env.server.mcpToken);
    await agent.initialize();
    await page.locator('#sendAgentButton').click();
    await waitFor(async () => (await unitRows(page)).every((r) => r.state === 'sent'), { what: 'the units sent' });
    const batch = await nextBatch(agent, sessionId, 'the released batch', (b) => (b.items ?? []).length === 3);
    assert.deepEqual(batch.items.map((i) => i.comment).sort(), ['Make the subtitle grey', 'Make the title bigger', 'Make this button blue']);

    // 3. "Forget that" → withdraw_unit: the item is gone and the agent's wait is told.
    const third = page.locator('#voiceTranscript [data-unit-id="unit_0003"]');
    await waitFor(async () => (await third.getAttribute('data-state')) === 'withdrawn', { timeout: 30000, what: 'unit_0003 withdrawn' });
    await waitFor(async () => (await page.locator(`[data-item-id="${subtitle.itemId}"]`).count()) === 0, { what: 'the withdrawn item leaves the list' });
    const withdrawn = await nextBatch(agent, sessionId, 'the withdrawal', (b) => (b.withdrawals ?? []).some((w) => w.itemId === subtitle.itemId));
    assert.equal(withdrawn.withdrawals.find((w) => w.itemId === subtitle.itemId).sequenceNumber, subtitle.sequenceNumber);

    // 4. The agent asks about #1 while the interviewer still talks: the console shows
    // the question (a row of its own), the interviewer gets it at the pause.
    await agent.call('fixthis_claim_feedback', { sessionId, itemId: blue.itemId });
    await agent.call('fixthis_ask', { sessionId, itemId: blue.itemId, question: QUESTION });
    await page.locator('#voiceTranscript [data-question-unit="unit_0001"]').waitFor({ timeout: 10000 });
    assert.match(await page.locator('#voiceTranscript [data-question-unit="unit_0001"]').innerText(), /Which blue/);
    await waitFor(async () => (await first.getAttribute('data-state')) === 'needs_clarification', { what: 'unit_0001 needs an answer' });
    // A click on the unit row selects its item: the answer box shows.
    await first.locator('button').click();
    await page.locator('#answerBox').waitFor();
    // This console falls a moment behind; the spoken answer wins meanwhile.
    await page.evaluate(() => window.__events.hold());
    assert.ok(!(await sessionItems(env.server, sessionId)).find((i) => i.itemId === blue.itemId).userAnswer, 'held before the spoken answer came');
    await page.screenshot({ path: shotPath('voice-units-1440.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('#voiceTranscript').scrollIntoViewIfNeeded();
    await page.screenshot({ path: shotPath('voice-units-390.png') });
    await page.setViewportSize({ width: 1440, height: 900 });
    const note = await waitFor(
      async () => (await env.fake.received()).events.find((e) => e.type === 'conversation.item.create' && itemText(e).startsWith('[ENDPOINT QUESTION]')),
      { timeout: 20000, what: 'the [ENDPOINT QUESTION] note at the fake' },
    );
    assert.equal(itemText(note), `[ENDPOINT QUESTION] The coding agent asks about unit unit_0001: "${QUESTION}"`);
    assert.equal(note.event.item.role, 'system');
    const answered = await nextBatch(agent, sessionId, 'the spoken answer', (b) => (b.answers ?? []).some((a) => a.itemId === blue.itemId));
    assert.equal(answered.answers.find((a) => a.itemId === blue.itemId).answer, SPOKEN_ANSWER);

    // The typed answer comes second: refused, and the console says which answer won.
    await page.locator('#answerBox').fill('The link blue');
    const refused = page.waitForResponse((r) => r.url().includes(`/api/items/${blue.itemId}/answer`));
    await page.getByRole('button', { name: 'Send answer' }).click();
    assert.equal((await refused).status() >= 400, true, 'the second answer is refused');
    await page.evaluate(() => window.__events.release());
    const msg = page.locator('#error .msg[data-kind="error"]');
    await msg.first().waitFor({ timeout: 10000 });
    assert.match(await msg.first().innerText(), new RegExp(`not sent: the question on #${blue.sequenceNumber} was already answered.*${SPOKEN_ANSWER}`));
    const now = (await sessionItems(env.server, sessionId)).find((i) => i.itemId === blue.itemId);
    assert.equal(now.userAnswer, SPOKEN_ANSWER, 'the first answer stands');

    // 5. After a reload the voice items are in the session, with what was said.
    await page.reload();
    await waitSessionShown(page, env.server);
    const rows = await page.locator('[data-item-id]').evaluateAll((els) => els.map((el) => el.getAttribute('data-item-id')));
    assert.deepEqual(rows.sort(), [blue.itemId, title.itemId].sort());
    assert.match(await page.locator(`[data-item-id="${blue.itemId}"] .target`).innerText(), /spoken/, 'the list marks a spoken item');
    await page.locator(`[data-item-id="${blue.itemId}"]`).click();
    const said = page.locator('#voiceSaid');
    await said.waitFor();
    assert.equal(await said.getAttribute('data-unit-id'), 'unit_0001');
    assert.match(await said.innerText(), /make this button blue/);
    assert.match(await said.locator('.span').innerText(), /^\d+:\d\d\.\d–\d+:\d\d\.\d \(\d+\.\d s\)$/);
    await page.screenshot({ path: shotPath('voice-said-1440.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await said.scrollIntoViewIfNeeded();
    await page.screenshot({ path: shotPath('voice-said-390.png') });

    await page.keyboard.press('Escape');
    assert.deepEqual(errors.filter((e) => !/status of 4\d\d .*\/answer/.test(e)), [], 'no errors but the refused answer');
    await context.close();
  });
});
