// The Network section end to end on the demo device: its app logs four calls as a debug
// build with OkHttp's HttpLoggingInterceptor does (a 200, a 1,240 ms image, a 500 and a
// timeout). Save to MCP under Auto reads them; the saved item lists the 500 and the
// timeout first, the slow image next, and nothing secret the log carried; Capture with
// bodies adds what the 500 sent and answered, redacted.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { api, openConsole, shotPath, suite, waitFor } from './harness.mjs';
import { nodeTarget, sessionWithItems } from './steps.mjs';

suite('network section', {}, (env) => {
  it('lists failed and slow calls first after Save to MCP under Auto', async () => {
    const { server, browser } = env;
    // The demo app's slowest call ends 1,620 ms after its process starts; the network
    // window reaches back a minute from the freeze.
    await new Promise((r) => setTimeout(r, 2000));
    const { sessionId, items } = await sessionWithItems(server, {
      title: 'network',
      items: (f) => [{ target: nodeTarget(f.nodes.find((n) => n.text && n.bounds.top > 300) ?? f.nodes[1]), severity: 'high', comment: 'The favourite does not stick' }],
    });
    const itemId = items[0].itemId;
    assert.equal((await api(server, 'GET', `/api/sessions/${sessionId}`)).body.session.runtimeEvidencePolicy, 'auto');

    for (const [width, height, shot] of [
      [1440, 900, 'network-1440x900.png'],
      [1366, 768, 'network-1366x768.png'],
    ]) {
      const { context, page, errors } = await openConsole(browser, server, { sessionId, width, height });
      if (shot === 'network-1440x900.png') {
        await page.locator('#sendAgentButton:not([disabled])').click();
        await page.locator('#error .msg[data-kind="success"]').waitFor();
      }
      await page.locator(`[data-item-id="${itemId}"]`).click();
      const section = page.locator('#networkCalls');
      await section.locator('#networkCallList').waitFor();
      assert.equal(await section.getAttribute('data-state'), 'calls');
      const rows = section.locator('#networkCallList > li');
      const outcomes = await rows.locator('[data-role="outcome"]').allInnerTexts();
      assert.deepEqual(outcomes.slice(0, 2), ['500', 'Timeout'], `outcomes ${outcomes}`);
      assert.deepEqual(await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-severity'))), ['failed', 'failed', 'slow', 'ok']);
      assert.equal(await rows.nth(0).locator('[data-role="method"]').innerText(), 'POST');
      assert.equal(await rows.nth(0).locator('[data-role="url"]').innerText(), 'api.trailhead.test/v1/favourites');
      assert.equal(await rows.nth(2).locator('[data-role="duration"]').innerText(), '1,240 ms');
      assert.equal(await rows.nth(0).locator('[data-role="source"]').innerText(), 'OkHttp');
      assert.match(await section.locator('[data-role="counts"]').innerText(), /^4 calls · 2 failed · 1 slow$/);

      // Each row is a button: Enter opens the full call, Enter again closes it.
      const timeout = rows.nth(1).locator('button.call');
      await timeout.focus();
      await page.keyboard.press('Enter');
      assert.equal(await timeout.getAttribute('aria-expanded'), 'true');
      const detail = await rows.nth(1).locator('[data-role="detail"]').innerText();
      assert.match(detail, /GET https:\/\/api\.trailhead\.test\/v1\/weather\?\[REDACTED\]/);
      assert.match(detail, /Error: java\.net\.SocketTimeoutException: timeout/);
      const text = await section.innerText();
      for (const secret of ['AIzaSy', 'eyJhbGci', 'lat=46']) assert.ok(!text.includes(secret), `${secret} shown`);
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: shotPath(shot) });
      await page.keyboard.press('Enter');
      assert.equal(await timeout.getAttribute('aria-expanded'), 'false');
      assert.deepEqual(errors, []);
      await context.close();
    }

    // Capture with bodies: the demo's interceptor logs at BODY level, so the 500 now
    // shows what the app sent and what the server answered, the session token redacted.
    const { context, page, errors } = await openConsole(browser, server, { sessionId, width: 1366, height: 768 });
    await page.locator(`[data-item-id="${itemId}"]`).click();
    const section = page.locator('#networkCalls');
    await section.locator('#networkCallList').waitFor();
    await section.locator('#captureBodiesButton:not([disabled])').click();
    const first = section.locator('#networkCallList > li').nth(0);
    await waitFor(async () => {
      if ((await first.locator('button.call').getAttribute('aria-expanded')) !== 'true') await first.locator('button.call').click();
      return (await first.locator('[data-role="body"]').count()) === 2;
    }, { what: 'the 500 with its bodies' });
    const bodies = await first.locator('[data-role="body"]').allInnerTexts();
    assert.match(bodies[0], /^Request body:\s*\{"trailId":42,"favourite":true\}$/);
    assert.match(bodies[1], /^Response body:\s*\{"error":"database is locked","retryAfterMs":500,"sessionToken":"\[REDACTED\]"\}$/);
    assert.ok(!(await section.innerText()).includes('st_9f2c41d87ab3e605'), 'the session token is shown');
    assert.match(await section.innerText(), /bodies kept as asked/);
    await first.scrollIntoViewIfNeeded();
    await page.screenshot({ path: shotPath('network-bodies-1366x768.png') });
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('says when diagnostics are Off and nothing was read', async () => {
    const { server, browser } = env;
    const { sessionId, items } = await sessionWithItems(server, {
      title: 'network-off',
      items: (f) => [{ target: nodeTarget(f.nodes[1]), severity: 'low', comment: 'Off' }],
    });
    await api(server, 'PUT', `/api/sessions/${sessionId}`, { runtimeEvidencePolicy: 'off' });
    const { context, page, errors } = await openConsole(browser, server, { sessionId });
    await page.locator(`[data-item-id="${items[0].itemId}"]`).click();
    const section = page.locator('#networkCalls');
    await waitFor(async () => (await section.getAttribute('data-state')) === 'off', { what: 'the Off state' });
    assert.match(await section.innerText(), /Diagnostics are Off for this session/);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
