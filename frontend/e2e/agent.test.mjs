// The agent side seen from the console: an MCP client claims, asks, and resolves while
// the console is open; the rows change phase within 2 s without a reload, and the
// user's answer goes back through the API.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { api, openConsole, shotPath, suite, waitFor } from './harness.mjs';
import { McpClient } from './mcp.mjs';
import { nodeTarget, sessionWithItems } from './steps.mjs';

suite('agent loop in the console', { server: { demo: true } }, (env) => {
  it('shows claim, question, answer and resolution live', async (t) => {
    const { server, browser } = env;
    assert.ok(server.mcpUrl && server.mcpToken, 'fixthis serve --json prints mcpUrl and mcpToken');
    // Set up a handed-off item through the console API, as the console would.
    const { sessionId, items } = await sessionWithItems(server, {
      title: 'Agent loop',
      workspaceId: 'ws-agent-e2e',
      items: (f) => [{ target: nodeTarget(f.nodes.find((n) => n.text && n.bounds.top > 300)), severity: 'high', comment: 'Rename this label' }],
    });
    const itemId = items[0].itemId;
    assert.equal((await api(server, 'POST', '/api/agent-handoffs', { sessionId, itemIds: [itemId] })).status, 200);

    const { context, page, errors } = await openConsole(browser, server, { sessionId });
    const row = page.locator(`[data-item-id="${itemId}"]`);
    await waitFor(async () => (await row.getAttribute('data-phase')) === 'sent', { what: 'sent row' });

    const agent = new McpClient(server.mcpUrl, server.mcpToken);
    await agent.initialize();

    // A parked wait shows the agent as listening.
    const waiting = agent.call('fixthis_wait_for_feedback', { sessionId, timeoutSeconds: 3 }).catch((e) => e);
    await waitFor(async () => /listening|working/.test(await page.locator('#agentPresence').getAttribute('data-presence')), { timeout: 4000, what: 'agent presence' });
    const served = await waiting;
    if (served?.batchId) await agent.call('fixthis_ack_feedback', { batchId: served.batchId });

    const phaseWithin = async (phase) => {
      const t0 = Date.now();
      await waitFor(async () => (await row.getAttribute('data-phase')) === phase, { timeout: 2000, interval: 50, what: `phase ${phase}` });
      return Date.now() - t0;
    };

    await agent.call('fixthis_claim_feedback', { sessionId, itemId, agentNote: 'Looking at the label' });
    t.diagnostic(`claim visible after ${await phaseWithin('in_progress')} ms`);

    await agent.call('fixthis_ask', { sessionId, itemId, question: 'Which wording do you prefer?' });
    t.diagnostic(`question visible after ${await phaseWithin('needs_clarification')} ms`);
    await row.click();
    await page.locator('#answerBox').fill('Use “Trails near you”');
    await page.getByRole('button', { name: 'Send answer' }).click();
    await waitFor(async () => (await page.locator('.agent').allInnerTexts()).some((x) => x.includes('Trails near you')), { what: 'answer shown' });

    await agent.call('fixthis_resolve_feedback', { sessionId, itemId, status: 'resolved', summary: 'Renamed the label in TrailList.kt' });
    t.diagnostic(`resolution visible after ${await phaseWithin('resolved')} ms`);
    await waitFor(async () => (await page.locator('#inspectorFooter').innerText()).length >= 0 && (await page.locator('.editor').innerText()).includes('Renamed the label'), { what: 'summary in inspector' });
    await page.screenshot({ path: shotPath('agent-resolved-1440.png') });
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('shows copyable agent configs in "Connect an agent"', async () => {
    const { server, browser } = env;
    const { context, page } = await openConsole(browser, server);
    await page.locator('#connectAgentButton').click();
    const panel = page.locator('#connectAgentPanel');
    await panel.waitFor();
    await waitFor(async () => (await panel.locator('textarea').count()) > 0, { what: 'config text' });
    const text = await panel.locator('textarea').inputValue();
    assert.match(text, /fixthis|mcp/i);
    assert.ok(!text.includes(server.token), 'the console token never appears in agent configs');
    await page.screenshot({ path: shotPath('connect-agent-1440.png') });
    await page.keyboard.press('Escape');
    await waitFor(async () => (await page.locator('#connectAgentPanel').count()) === 0, { what: 'panel closed' });
    await context.close();
  });
});
