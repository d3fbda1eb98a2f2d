// A whole agent loop driven by the official TypeScript SDK, once over stdio (a
// `fixthis mcp` sidecar) and once over Streamable HTTP (the /mcp route of `fixthis
// serve`). The developer's side of the loop goes through the console API of the same
// serve process: create, save, Save to MCP, answer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  TOOL_NAMES, startServe, stop, tempProject, removeTemp, seedSession, stdioClient, httpClient,
  call, toolError, itemPhase, sleep,
} from './helpers.js';

let dir;
let serve;

before(async () => {
  dir = tempProject();
  serve = await startServe(dir, { demo: true });
});

after(async () => {
  await stop(serve?.child);
  if (dir) removeTemp(dir);
});

async function checkToolList(client) {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), [...TOOL_NAMES].sort(), 'tools/list names');
  for (const t of tools) {
    for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']) {
      assert.equal(typeof t.annotations?.[hint], 'boolean', `${t.name}: annotations.${hint} must be set explicitly, got ${JSON.stringify(t.annotations)}`);
    }
    assert.equal(t.inputSchema?.type, 'object', `${t.name}: inputSchema`);
    assert.ok(t.description, `${t.name}: description`);
  }
  return tools;
}

// runLoop is list → wait → ack → claim → ask → answer via API → wait → ack → resolve.
async function runLoop(client, label) {
  const { api } = serve;
  await checkToolList(client);

  const { sessionId, itemIds } = await seedSession(api, `loop over ${label}`);
  const [itemA, itemB] = itemIds;
  const sent = await api.handoff(sessionId, itemIds);
  assert.ok(sent.batchId, 'Save to MCP returns a batchId');
  assert.ok(sent.prompt.length > 0, 'Save to MCP returns the prompt');

  const sessions = await call(client, 'fixthis_list_feedback_sessions');
  const summary = sessions.sessions.find((s) => s.sessionId === sessionId);
  assert.ok(summary, `${label}: list_feedback_sessions shows the new session`);
  assert.equal(summary.phaseCounts.sent, 2, `${label}: both items are sent`);

  const batch = await call(client, 'fixthis_wait_for_feedback', { sessionId, timeoutSeconds: 10 });
  assert.equal(batch.status, 'batch', `${label}: wait returns the released batch`);
  assert.equal(batch.kind, 'release');
  assert.equal(batch.batchId, sent.batchId, 'the served batch is the one Save to MCP queued');
  assert.deepEqual(batch.items.map((i) => i.itemId).sort(), [...itemIds].sort());
  assert.ok(batch.prompt.includes('The title should be larger'), 'the batch carries the prompt');

  // Not yet acknowledged: the same batch is served again.
  const again = await call(client, 'fixthis_wait_for_feedback', { sessionId, timeoutSeconds: 5 });
  assert.equal(again.batchId, batch.batchId, 'an unacknowledged batch is served again');
  assert.ok(again.serveCount >= 2, `serveCount counts re-serves, got ${again.serveCount}`);

  const ack = await call(client, 'fixthis_ack_feedback', { batchId: batch.batchId });
  assert.equal(ack.batchId, batch.batchId);
  assert.equal(ack.alreadyAcked, false);
  const ack2 = await call(client, 'fixthis_ack_feedback', { batchId: batch.batchId });
  assert.equal(ack2.alreadyAcked, true, 'acknowledging twice is harmless');

  const read = await client.callTool({ name: 'fixthis_read_feedback', arguments: { sessionId, itemId: itemA } });
  assert.ok(!read.isError, `read_feedback: ${JSON.stringify(read.content)}`);
  assert.ok(read.content.some((c) => c.type === 'text'), 'read_feedback has text content');

  const claimed = await call(client, 'fixthis_claim_feedback', { sessionId, itemId: itemA, agentNote: 'making the title 24sp' });
  assert.equal(claimed.item.phase, 'in_progress');
  let sess = await api.getSession(sessionId);
  assert.equal(itemPhase(sess, itemA), 'in_progress', `${label}: the console API shows the claim`);
  assert.equal(sess.items.find((i) => i.itemId === itemA).agentNote, 'making the title 24sp');

  await call(client, 'fixthis_claim_feedback', { sessionId, itemId: itemB });
  const asked = await call(client, 'fixthis_ask', { sessionId, itemId: itemB, question: 'Which button: Save or Cancel?' });
  assert.equal(asked.item.phase, 'needs_clarification');
  sess = await api.getSession(sessionId);
  assert.equal(itemPhase(sess, itemB), 'needs_clarification');
  assert.equal(sess.items.find((i) => i.itemId === itemB).agentQuestion, 'Which button: Save or Cancel?');

  // The developer answers while the agent's next wait is parked: the answer wakes it.
  const waiting = call(client, 'fixthis_wait_for_feedback', { sessionId, timeoutSeconds: 15 });
  await sleep(300);
  await api.answer(sessionId, itemB, 'The Save button');
  const answered = await waiting;
  assert.equal(answered.status, 'batch');
  assert.equal(answered.kind, 'answer', `${label}: the answer comes back through wait`);
  assert.deepEqual(answered.answers.map((a) => [a.itemId, a.answer]), [[itemB, 'The Save button']]);
  await call(client, 'fixthis_ack_feedback', { batchId: answered.batchId });

  const resolved = await call(client, 'fixthis_resolve_feedback', { sessionId, itemId: itemA, status: 'resolved', summary: 'Title is 24sp in res/layout/main.xml:12' });
  assert.equal(resolved.item.phase, 'resolved');
  await call(client, 'fixthis_resolve_feedback', { sessionId, itemId: itemB, status: 'wont_fix', summary: 'The Save button already meets 48dp' });
  sess = await api.getSession(sessionId);
  assert.equal(itemPhase(sess, itemA), 'resolved', `${label}: the console API shows resolved`);
  assert.equal(sess.items.find((i) => i.itemId === itemA).agentSummary, 'Title is 24sp in res/layout/main.xml:12');
  assert.equal(itemPhase(sess, itemB), 'wont_fix');

  // A terminal item cannot be claimed again.
  const refused = await toolError(client, 'fixthis_claim_feedback', { sessionId, itemId: itemA });
  assert.match(refused, /ITEM_ALREADY_RESOLVED/);

  // Nothing left: a short wait times out.
  const empty = await call(client, 'fixthis_wait_for_feedback', { sessionId, timeoutSeconds: 1 });
  assert.equal(empty.status, 'timeout');
  return sessionId;
}

async function checkWaitTaken(client, label) {
  const { sessionId } = await serve.api.createSession(`wait-taken ${label}`);
  const first = call(client, 'fixthis_wait_for_feedback', { sessionId, timeoutSeconds: 3 });
  await sleep(300);
  const msg = await toolError(client, 'fixthis_wait_for_feedback', { sessionId, timeoutSeconds: 1 });
  assert.match(msg, /wait-taken/, `${label}: a second parked wait on the same session`);
  const t0 = performance.now();
  const res = await first;
  assert.equal(res.status, 'timeout');
  assert.ok(performance.now() - t0 < 4000);
}

// checkCancel: the SDK cancels a parked wait (notifications/cancelled); the server must
// end it at once, so a new wait on the same session is not refused as wait-taken.
async function checkCancel(client, label) {
  const { sessionId } = await serve.api.createSession(`cancel ${label}`);
  const ac = new AbortController();
  const parked = client.callTool({ name: 'fixthis_wait_for_feedback', arguments: { sessionId, timeoutSeconds: 30 } }, undefined, { signal: ac.signal });
  await sleep(300);
  ac.abort('test cancels the wait');
  await assert.rejects(parked, /abort|cancel/i);
  let res;
  for (let i = 0; i < 10; i++) {
    await sleep(100);
    const r = await client.callTool({ name: 'fixthis_wait_for_feedback', arguments: { sessionId, timeoutSeconds: 1 } });
    if (!r.isError) { res = r.structuredContent; break; }
    assert.match(r.content[0].text, /wait-taken/);
  }
  assert.equal(res?.status, 'timeout', `${label}: after a cancelled wait a new wait parks within 1 s`);
}

test('agent loop over stdio (StdioClientTransport → fixthis mcp)', async (t) => {
  const c = await stdioClient(dir);
  t.after(() => c.close());
  const v = c.client.getServerVersion();
  assert.equal(v.name, 'fixthis');
  await runLoop(c.client, 'stdio');
  await checkWaitTaken(c.client, 'stdio');
  await checkCancel(c.client, 'stdio');
});

test('agent loop over Streamable HTTP (bearer token → /mcp of fixthis serve)', async (t) => {
  const c = await httpClient(serve.info);
  t.after(() => c.close());
  assert.ok(c.transport.sessionId, 'the server assigns an Mcp-Session-Id (stateful)');
  await runLoop(c.client, 'http');
  await checkWaitTaken(c.client, 'http');
  await checkCancel(c.client, 'http');
});

test('wait on an empty queue returns {"status":"timeout"} after timeoutSeconds', async (t) => {
  const c = await httpClient(serve.info);
  t.after(() => c.close());
  const { sessionId } = await serve.api.createSession('empty');
  const t0 = performance.now();
  const res = await call(c.client, 'fixthis_wait_for_feedback', { sessionId, timeoutSeconds: 1 });
  const ms = performance.now() - t0;
  assert.equal(res.status, 'timeout');
  assert.ok(ms >= 900 && ms < 3000, `timeout after ~1 s, took ${ms.toFixed(0)} ms`);
});

test('/mcp refuses a missing token, the console token and a foreign Origin', async () => {
  const { info } = serve;
  const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
  const base = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  const post = (headers) => fetch(info.mcpUrl, { method: 'POST', headers: { ...base, ...headers }, body: init });

  const none = await post({});
  assert.equal(none.status, 401, 'no token → 401');
  assert.match(none.headers.get('www-authenticate') ?? '', /^Bearer/, 'the 401 carries WWW-Authenticate: Bearer');

  const wrong = await post({ Authorization: 'Bearer not-the-token' });
  assert.equal(wrong.status, 401, 'wrong token → 401');

  const consoleBearer = await post({ Authorization: `Bearer ${info.token}` });
  assert.equal(consoleBearer.status, 403, 'console token as bearer → 403');
  const consoleHeader = await post({ 'X-FixThis-Console-Token': info.token, Authorization: `Bearer ${info.mcpToken}` });
  assert.equal(consoleHeader.status, 403, 'console token header on /mcp → 403');

  const foreign = await post({ Authorization: `Bearer ${info.mcpToken}`, Origin: 'https://evil.example.com' });
  assert.equal(foreign.status, 403, 'foreign Origin → 403');

  const ok = await post({ Authorization: `Bearer ${info.mcpToken}`, Origin: new URL(info.url).origin });
  assert.equal(ok.status, 200, 'loopback Origin with the MCP token → 200');
  await ok.body?.cancel();

  // And the other way round: the MCP token opens nothing on /api.
  const api = await fetch(new URL('/api/sessions', info.url), { headers: { 'X-FixThis-Console-Token': info.mcpToken } });
  assert.ok(api.status === 401 || api.status === 403, `MCP token on /api → ${api.status}`);
});
