// The console shell against a real `fixthis serve`: renders, shows the server version,
// carries every canonical id and label, and looks right at 390, 1024 and 1440 px.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { openConsole, shotPath, suite, waitFor } from './harness.mjs';
import { SCREEN } from './steps.mjs';

suite('console shell', {}, (env) => {
  it('renders, shows the server version and keeps the token out of the page', async () => {
    const { server, browser } = env;
    const { page, errors, context } = await openConsole(browser, server);
    const health = await (await fetch(new URL('/api/health', server.url), { headers: { 'X-FixThis-Console-Token': server.token } })).json();
    await page.locator('#serverVersion').waitFor();
    const shown = await page.locator('#serverVersion').innerText();
    assert.equal(shown.replace(/^v/, ''), String(health.version).replace(/^v/, ''));
    assert.ok(!page.url().includes(server.token), 'token must be removed from the address bar');
    // Images are where a token would leak (an <img src> with ?consoleToken=): wait for
    // the first live frame before looking.
    await page.locator(SCREEN).waitFor({ timeout: 20000 });
    const html = await page.content();
    assert.ok(!html.includes(server.token), 'token must never be rendered');
    await waitFor(() => page.evaluate(() => window.FixThisConsoleDebug?.consoleEventsDiagnostics().connected), { what: 'SSE connected' });
    // A reload keeps working without the fragment (token kept in sessionStorage).
    await page.reload();
    await waitFor(() => page.evaluate(() => window.FixThisConsoleDebug?.consoleEventsDiagnostics().connected), { what: 'SSE connected after reload' });
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('carries each canonical id and label', async () => {
    const { server, browser } = env;
    const { page, errors, context } = await openConsole(browser, server, { width: 1440 });
    await page.locator('#workflowProgress').waitFor();
    const text = async (sel) => (await page.locator(sel).innerText()).trim();
    assert.match(await text('#copyPromptButton'), /Copy Prompt/);
    assert.match(await text('#sendAgentButton'), /Save to MCP/);
    assert.match(await text('#selectToolButton'), /^Select/);
    assert.match(await text('#annotateToolButton'), /Annotate/);
    assert.match(await text('#refreshDevicesButton'), /Refresh devices/);
    assert.match(await text('#promptReadiness'), /Prompt readiness/i);
    assert.equal(await page.locator('#workflowProgress').getAttribute('aria-label'), 'FixThis feedback workflow');
    const steps = await page.locator('#workflowProgress [data-workflow-step]').evaluateAll((els) => els.map((e) => [e.dataset.workflowStep, e.dataset.state]));
    assert.deepEqual(steps.map((s) => s[0]), ['connect', 'preview', 'annotate', 'handoff']);
    for (const [, state] of steps) assert.ok(['complete', 'active', 'upcoming'].includes(state));
    const policy = await page.locator('#runtimeEvidencePolicy button').allInnerTexts();
    assert.deepEqual(policy, ['Auto', 'Manual', 'Off']);
    const badge = await text('#previewFrameStatus');
    assert.ok(['Live preview', 'Frozen for annotation', 'Saved screen', 'Stale frame', 'No screenshot', 'Interaction blocked'].includes(badge), badge);
    assert.equal(await page.locator('#error.global-status').count(), 1);
    assert.ok(['status', 'alert'].includes(await page.locator('#error').getAttribute('role')));
    assert.equal(await page.locator('#inspectorFooter[data-editor-state]').count(), 1);
    if (await page.locator('#disconnectDeviceButton').count()) {
      assert.ok(await page.locator('#disconnectDeviceButton').getAttribute('aria-label'));
    }
    await page.setViewportSize({ width: 900, height: 900 });
    assert.match(await text('#historyToggleButton'), /History/);
    assert.deepEqual(errors, []);
    await context.close();
  });

  for (const [width, height] of [
    [390, 844],
    [1024, 768],
    [1440, 900],
  ]) {
    for (const scheme of width === 1440 ? ['light', 'dark'] : ['light']) {
      it(`looks right at ${width} px (${scheme})`, async () => {
        const { server, browser } = env;
        const { page, errors, context } = await openConsole(browser, server, { width, height, colorScheme: scheme });
        await page.locator('#workflowProgress').waitFor();
        await waitFor(() => page.evaluate(() => window.FixThisConsoleDebug?.consoleEventsDiagnostics().connected), { what: 'SSE connected' });
        await page.waitForTimeout(1200); // let the first frame arrive
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px at ${width}px`);
        await page.screenshot({ path: shotPath(`console-${width}-${scheme}.png`), fullPage: width < 1024 });
        assert.deepEqual(errors, []);
        await context.close();
      });
    }
  }
});
