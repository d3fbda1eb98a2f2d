// The console in a real browser while an agent works through a separate stdio sidecar:
// the rows change phase live (SSE), within 2 s, without a reload.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { resultsDir, startServe, stop, tempProject, removeTemp, seedSession, stdioClient, call } from './helpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic'];
const LIVE_BUDGET_MS = 2000;

let dir;
let serve;
let browser;

before(async () => {
  dir = tempProject();
  serve = await startServe(dir, { demo: true });
});

after(async () => {
  await browser?.close();
  await stop(serve?.child);
  if (dir) removeTemp(dir);
});

test('console rows follow an agent claiming and resolving over stdio, live', async (t) => {
  if (!existsSync(CHROMIUM)) {
    t.skip(`${CHROMIUM} is missing (the Makefile installs Debian's chromium for the browser tests)`);
    return;
  }
  const page0 = await fetch(serve.info.url);
  if (page0.status === 404) {
    t.skip('this fixthis build embeds no console assets (frontend/dist is empty): build the console first');
    return;
  }
  const { api } = serve;
  const { sessionId, itemIds } = await seedSession(api, 'browser live check');
  await api.handoff(sessionId, itemIds);
  const [itemA, itemB] = itemIds;

  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  let navigations = 0;
  page.on('framenavigated', (f) => { if (f === page.mainFrame()) navigations++; });
  await page.goto(serve.info.consoleUrl);
  const row = (id) => page.locator(`button.row[data-item-id="${id}"]`);
  await row(itemA).and(page.locator('[data-phase="sent"]')).waitFor({ timeout: 10000 });
  await row(itemB).and(page.locator('[data-phase="sent"]')).waitFor({ timeout: 5000 });
  const loadedNavigations = navigations;

  const agent = await stdioClient(dir, 'browser-check-agent');
  t.after(() => agent.close());

  // phaseWithin: the tool call, then the row's data-phase must change within the budget.
  async function phaseWithin(id, phase, action) {
    const t0 = performance.now();
    await action();
    await row(id).and(page.locator(`[data-phase="${phase}"]`)).waitFor({ timeout: LIVE_BUDGET_MS });
    const ms = performance.now() - t0;
    t.diagnostic(`row ${id.slice(0, 8)} → ${phase} in ${ms.toFixed(0)} ms after the agent's call started`);
    return ms;
  }

  await phaseWithin(itemA, 'in_progress', () => call(agent.client, 'fixthis_claim_feedback', { sessionId, itemId: itemA, agentNote: 'on it' }));
  await phaseWithin(itemB, 'in_progress', () => call(agent.client, 'fixthis_claim_feedback', { sessionId, itemId: itemB }));
  await phaseWithin(itemA, 'resolved', () => call(agent.client, 'fixthis_resolve_feedback',
    { sessionId, itemId: itemA, status: 'resolved', summary: 'Title set to 24sp in main.xml:12' }));
  await phaseWithin(itemB, 'wont_fix', () => call(agent.client, 'fixthis_resolve_feedback',
    { sessionId, itemId: itemB, status: 'wont_fix', summary: 'Already 48dp tall' }));
  await assert.doesNotReject(row(itemA).getByText('Title set to 24sp in main.xml:12').waitFor({ timeout: LIVE_BUDGET_MS }),
    'the resolved row shows the agent summary');

  assert.equal(navigations, loadedNavigations, 'the page was not reloaded');
  mkdirSync(resultsDir, { recursive: true });
  const shot = path.join(resultsDir, 'console-agent-resolved.png');
  await page.screenshot({ path: shot });
  t.diagnostic(`screenshot: ${shot}`);
  assert.deepEqual(pageErrors, [], 'no uncaught errors in the console page');
});
