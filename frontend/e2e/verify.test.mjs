// The user's side of a verified fix: the agent resolves with a capture taken after its
// fix, the console shows before and after with what changed, and Reopen sends the
// item back with a note that the agent's next wait returns. Agents on the demo phone
// need no permission, and their actions show in the console's activity list.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { api, openConsole, shotPath, suite, waitFor } from './harness.mjs';
import { McpClient } from './mcp.mjs';
import { nodeTarget, sessionWithItems } from './steps.mjs';

suite('verified fixes in the console', { server: { demo: true } }, (env) => {
  it('shows before and after, and Reopen reaches the agent', async () => {
    const { server, browser } = env;
    const { sessionId, items } = await sessionWithItems(server, {
      title: 'Verified fix',
      workspaceId: 'ws-verify-e2e',
      items: (f) => [{ target: nodeTarget(f.nodes.find((n) => n.text === 'Find your next trail'), { snapshot: true }), severity: 'med', comment: 'Make the title friendlier' }],
    });
    const itemId = items[0].itemId;
    assert.equal((await api(server, 'POST', '/api/agent-handoffs', { sessionId, itemIds: [itemId] })).status, 200);

    const { context, page } = await openConsole(browser, server, { sessionId });
    const row = page.locator(`[data-item-id="${itemId}"]`);
    await waitFor(async () => (await row.getAttribute('data-phase')) === 'sent', { what: 'sent row' });

    // The agent: wait, ack, claim, drive the phone, capture, resolve with verification.
    const agent = new McpClient(server.mcpUrl, server.mcpToken);
    await agent.initialize();
    const served = await agent.call('fixthis_wait_for_feedback', { sessionId, timeoutSeconds: 10 });
    await agent.call('fixthis_ack_feedback', { batchId: served.batchId });
    await agent.call('fixthis_claim_feedback', { sessionId, itemId });
    await agent.call('fixthis_swipe', { direction: 'up', durationMs: 100 });
    await agent.call('fixthis_swipe', { direction: 'down', durationMs: 100 });
    const cap = await agent.call('fixthis_capture_screen', {});
    await agent.call('fixthis_resolve_feedback', { sessionId, itemId, status: 'resolved', summary: 'Warmer title', verification: { captureId: cap.captureId } });

    // Activity: the agent's actions, live.
    const activity = page.locator('[data-testid="agentActivity"]');
    await waitFor(async () => /Agent swiped up/.test((await activity.textContent()) ?? ''), { what: 'agent activity' });
    assert.equal(await page.locator('#agentControlToggle').isChecked(), true, 'the demo phone is open to agents');

    await waitFor(async () => (await row.getAttribute('data-phase')) === 'resolved', { what: 'resolved row' });
    await row.click();
    const check = page.locator('[data-testid="fixCheck"]');
    await check.waitFor();
    await page.locator('[data-testid="afterImage"]').waitFor();
    assert.match(await page.locator('[data-testid="fixSummary"]').textContent(), /region|node/);
    await page.screenshot({ path: shotPath('verified-fix-1440.png') });

    // Reopen asks for a note; the agent's next wait carries it.
    const nextWait = agent.call('fixthis_wait_for_feedback', { sessionId, timeoutSeconds: 10 });
    await check.locator('[data-action="reopen"]').click();
    await page.locator('#reopenNote').fill('Still reads too formal');
    await check.locator('[data-action="sendReopen"]').click();
    const got = await nextWait;
    assert.equal(got.kind, 'reopen', JSON.stringify(got));
    assert.equal(got.reopened[0].note, 'Still reads too formal');
    await waitFor(async () => (await row.getAttribute('data-phase')) === 'sent', { what: 'reopened row back to sent' });
    assert.equal(await check.getAttribute('data-verdict'), 'reopened');
    await context.close();
  });
});
