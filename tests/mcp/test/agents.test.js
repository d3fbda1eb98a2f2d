// Several agents on one project, driven by the official SDK: two `fixthis mcp`
// sidecars (separate processes) and the app's /mcp endpoint. A served batch goes to
// one agent, a claim is exclusive, the developer's decision is final, and closing a
// session ends a parked wait at once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServe, stop, tempProject, removeTemp, seedSession, stdioClient, httpClient, call, toolError } from './helpers.js';

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

test('agents share a project without stepping on each other or the developer', async () => {
  const { api, info } = serve;
  const a = await stdioClient(dir, 'agent-a');
  const b = await stdioClient(dir, 'agent-b');
  const c = await httpClient(info, 'agent-c');
  try {
    const { sessionId, itemIds } = await seedSession(api, 'three agents');
    const [first, second] = itemIds;
    const sent = await api.handoff(sessionId, itemIds);

    const batch = await call(a.client, 'fixthis_wait_for_feedback', { sessionId, timeoutSeconds: 5 });
    assert.equal(batch.batchId, sent.batchId);
    for (const [name, other] of [['b', b], ['c', c]]) {
      const res = await call(other.client, 'fixthis_wait_for_feedback', { timeoutSeconds: 1 });
      assert.equal(res.status, 'timeout', `agent ${name} must not be served agent a's unacknowledged batch`);
    }

    await call(a.client, 'fixthis_ack_feedback', { batchId: batch.batchId });
    await call(a.client, 'fixthis_claim_feedback', { sessionId, itemId: first });
    await call(a.client, 'fixthis_claim_feedback', { sessionId, itemId: first }); // idempotent
    const taken = await toolError(b.client, 'fixthis_claim_feedback', { sessionId, itemId: first });
    assert.match(taken, /^ITEM_CLAIMED: .*since /);

    await api.call('POST', `/api/items/${second}/resolve`, { sessionId, status: 'wont_fix' });
    const closed = await toolError(a.client, 'fixthis_resolve_feedback', { sessionId, itemId: second, status: 'resolved', summary: 'done anyway' });
    assert.match(closed, /^ITEM_CLOSED_BY_USER: /);
    const item = (await api.getSession(sessionId)).items.find((i) => i.itemId === second);
    assert.equal(item.status, 'wont_fix', 'the developer’s decision stands');
    assert.ok(item.resolvedAt, 'a won’t-fix item carries resolvedAt');

    // The withdrawal of the won't-fix item goes to the next waiting agent.
    const withdrawal = await call(b.client, 'fixthis_wait_for_feedback', { sessionId, timeoutSeconds: 5 });
    assert.equal(withdrawal.kind, 'withdrawal');
    await call(b.client, 'fixthis_ack_feedback', { batchId: withdrawal.batchId });

    // Agent a's process ends: its claim is free for another agent as soon as the
    // process has noticed (well inside a second), not after a timeout.
    await a.close();
    let claimed;
    for (const t0 = performance.now(); !claimed && performance.now() - t0 < 2000; ) {
      claimed = await call(b.client, 'fixthis_claim_feedback', { sessionId, itemId: first }).catch(() => null);
      if (!claimed) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(claimed?.item.phase, 'in_progress', 'agent b takes over the claim of the agent that left');

    // Closing the session wakes a parked wait within a second.
    const waiting = call(c.client, 'fixthis_wait_for_feedback', { sessionId, timeoutSeconds: 30 });
    await new Promise((r) => setTimeout(r, 300));
    const t0 = performance.now();
    await api.call('POST', `/api/sessions/${sessionId}/close`);
    const ended = await waiting;
    const ms = performance.now() - t0;
    assert.equal(ended.status, 'session_ended');
    assert.ok(ms < 1000, `session_ended after ${ms.toFixed(0)} ms`);
  } finally {
    await b.close();
    await c.close();
    await a.close().catch(() => undefined);
  }
});

test('schema errors read as sentences', async () => {
  const c = await httpClient(serve.info, 'agent-schema');
  try {
    const msg = await toolError(c.client, 'fixthis_wait_for_feedback', { timeoutSeconds: 'soon' });
    assert.equal(msg, 'INVALID_INPUT: timeoutSeconds must be a number, not a string.');
  } finally {
    await c.close();
  }
});
