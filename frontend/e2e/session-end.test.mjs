// Closing a session from the console: a confirmation first, then the session is
// closed and an agent waiting on it is told within a second (session_ended).
// Save to MCP on one saved annotation releases that annotation only.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { api, openConsole, shotPath, suite, waitFor } from './harness.mjs';
import { McpClient } from './mcp.mjs';
import { clickNode, freeze, sessionWithItems, waitLive } from './steps.mjs';

suite('close session', { server: { demo: true } }, (env) => {
  it('asks first, closes, and ends the waiting agent', async () => {
    const { server, browser } = env;
    const created = await api(server, 'POST', '/api/sessions', { title: 'Close me' });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const sessionId = created.body.sessionId;

    const { context, page, errors } = await openConsole(browser, server, { sessionId });

    const agent = new McpClient(server.mcpUrl, server.mcpToken);
    await agent.initialize();
    const waiting = agent.call('fixthis_wait_for_feedback', { sessionId, timeoutSeconds: 30 });
    await waitFor(async () => /listening/.test((await page.locator('#agentPresence').getAttribute('data-presence')) ?? ''), { timeout: 5000, what: 'agent listening' });

    const button = page.locator('[data-action="close-session"]');
    await button.click();
    const dialog = page.locator('#closeSessionDialog');
    await dialog.waitFor();
    // Cancel keeps the session open.
    await dialog.locator('[data-action="cancel"]').click();
    await waitFor(async () => (await dialog.count()) === 0, { what: 'dialog closed' });
    assert.equal((await api(server, 'GET', `/api/sessions/${sessionId}`)).body.session.status, 'open');

    await button.click();
    await page.screenshot({ path: shotPath('close-session-confirm-1440.png') });
    // Timed from the close request leaving the console to the agent's wait ending: the
    // click's own dispatch is the browser's time, not the app's.
    const ended = waiting.then((out) => ({ out, at: Date.now() }));
    let sentAt = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith(`/api/sessions/${sessionId}/close`)) sentAt = Date.now();
    });
    await page.locator('#closeSessionDialog [data-action="confirm"]').click();
    const { out, at } = await ended;
    assert.ok(sentAt > 0, 'Close session sent POST /api/sessions/ID/close');
    const took = at - sentAt;
    assert.equal(out.status, 'session_ended', JSON.stringify(out));
    assert.ok(took < 1500, `the wait ended ${took} ms after Close session`);
    assert.equal((await api(server, 'GET', `/api/sessions/${sessionId}`)).body.session.status, 'closed');
    await waitFor(async () => (await button.count()) === 0, { what: 'Close session hidden once closed' });
    const again = await agent.call('fixthis_wait_for_feedback', { sessionId, timeoutSeconds: 10 });
    assert.equal(again.status, 'session_ended');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('Save to MCP on one annotation sends that one only', async () => {
    const { server, browser } = env;
    const { sessionId, items: [first, second] } = await sessionWithItems(server, {
      title: 'One at a time',
      workspaceId: 'ws-one',
      items: () => [
        { target: { type: 'screen' }, severity: 'high', comment: 'First: send me' },
        { target: { type: 'screen' }, severity: 'low', comment: 'Second: keep me a draft' },
      ],
    });

    const { context, page } = await openConsole(browser, server, { sessionId });
    const row = page.locator(`[data-item-id="${first.itemId}"]`);
    await row.waitFor();
    await row.click();
    await page.locator('#inspectorFooter [data-action="sendOne"]').click();
    await waitFor(async () => (await row.getAttribute('data-phase')) === 'sent', { what: 'the one item sent' });
    const sess = (await api(server, 'GET', `/api/sessions/${sessionId}`)).body.session;
    const phase = Object.fromEntries(sess.items.map((i) => [i.itemId, i.phase]));
    assert.equal(phase[first.itemId], 'sent');
    assert.equal(phase[second.itemId], 'draft', 'the other saved draft was not sent');

    // The pickup mode sits next to Save to MCP and is stored on the session. The
    // console shows it once the server has answered, which can be after the server
    // already returns it to others: wait for the console, then ask the server.
    await page.locator('#agentPickup [data-value="instant"]').click();
    await waitFor(async () => (await page.locator('#agentPickup').getAttribute('data-pickup')) === 'instant', { what: 'instant pickup shown' });
    assert.equal((await api(server, 'GET', `/api/sessions/${sessionId}`)).body.session.agentPickup, 'instant', 'instant pickup stored');

    // Under instant pickup a finished annotation reaches the agent at once, alone.
    await page.getByRole('button', { name: 'Back to live preview' }).click();
    await waitLive(page, server);
    const f = await freeze(page);
    const node = f.nodes.find((n) => n.text && n.bounds.top > 300 && n.bounds.bottom - n.bounds.top > 20);
    await clickNode(page, f, node);
    await page.locator('#inspectorFooter[data-editor-state="pendingTarget"]').waitFor();
    await page.keyboard.type('Instant: make this bolder');
    await page.keyboard.press('Enter');
    const agent = new McpClient(server.mcpUrl, server.mcpToken);
    await agent.initialize();
    // The first batch is the one Save to MCP sent above; the next is the instant one.
    const earlier = await agent.call('fixthis_wait_for_feedback', { sessionId, timeoutSeconds: 10 });
    assert.deepEqual(earlier.items.map((i) => i.comment), ['First: send me']);
    await agent.call('fixthis_ack_feedback', { batchId: earlier.batchId });
    const got = await agent.call('fixthis_wait_for_feedback', { sessionId, timeoutSeconds: 10 });
    assert.equal(got.status, 'batch', JSON.stringify(got));
    assert.deepEqual(got.items.map((i) => i.comment), ['Instant: make this bolder']);
    await context.close();
  });

  it('offers Reload console when the app refuses the page (403)', async () => {
    const { server, browser } = env;
    const { context, page } = await openConsole(browser, server);
    await page.locator('#workflowProgress').waitFor();
    // The app refuses the next change, as it does for a foreign origin or token.
    await page.route('**/api/sessions', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ error: 'forbidden_origin', message: 'FORBIDDEN: refused' }) })
        : route.continue(),
    );
    await page.getByRole('button', { name: '+ New' }).click();
    const reload = page.locator('[data-action="reload-console"]');
    await reload.waitFor({ timeout: 5000 });
    await page.screenshot({ path: shotPath('reload-console-403-1440.png') });
    await page.unroute('**/api/sessions');
    const navigated = page.waitForEvent('load');
    await reload.click();
    await navigated;
    await page.locator('#workflowProgress').waitFor();
    await context.close();
  });
});
