// Event-stream reliability: with /api/events unreachable the console falls back to
// polling and says the draft is safe; once the stream is back, polling stops.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { openConsole, shotPath, suite, waitFor } from './harness.mjs';

const diag = (page) => page.evaluate(() => window.FixThisConsoleDebug.consoleEventsDiagnostics());

suite('event stream fallback', { server: { demo: true } }, (env) => {
  it('polls only while SSE is down and resyncs when it returns', async () => {
    const { server, browser } = env;
    const { context, page } = await openConsole(browser, server, { beforeLoad: (p) => p.route('**/api/events**', (route) => route.abort('connectionrefused')) });

    // Down: fallback polling runs and the copy says what is safe.
    await waitFor(async () => {
      const d = await diag(page);
      return !d.connected && d.pollsPreview >= 2 && d.pollsSessions >= 1;
    }, { timeout: 10000, what: 'fallback polling' });
    const status = await page.locator('#error').innerText();
    assert.match(status, /Connection paused — draft preserved/);
    assert.ok((await diag(page)).errors.includes('eventsource_error'));
    await page.screenshot({ path: shotPath('sse-down-1440.png') });

    // Back: the stream connects again and polling stops.
    await page.unroute('**/api/events**');
    await waitFor(async () => (await diag(page)).connected, { timeout: 20000, what: 'reconnected' });
    await page.waitForTimeout(500);
    const settled = await diag(page);
    await page.waitForTimeout(3500);
    const later = await diag(page);
    assert.equal(later.connected, true);
    assert.equal(later.pollsPreview, settled.pollsPreview, 'no preview polls while healthy');
    assert.equal(later.pollsSessions, settled.pollsSessions, 'no session polls while healthy');
    assert.equal(later.fetchPreview, settled.fetchPreview);
    assert.equal(later.fetchSessions, settled.fetchSessions);
    assert.equal(await page.locator('#previewFrameStatus').innerText(), 'Live preview');
    await context.close();
  });
});
