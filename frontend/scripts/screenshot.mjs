// Takes docs/console.png for the README from the running console: the demo device on
// its list screen, Annotate mode with two saved annotations (a node and an area), and
// the inspector showing where the first one lives in the demo app's sources. Needs the
// built binary (FIXTHIS_BIN or build/bin/fixthis) and /usr/bin/chromium, like the e2e
// suite. --size takes the window in CSS pixels (1440x900 by default), to look at the
// console as a laptop (1366x768) or a phone browser (390x844) shows it.
//   npm run screenshot [-- --dark] [-- --out path.png] [-- --size 1366x768]
import { join } from 'node:path';
import { TRAILHEAD, api, launchBrowser, openConsole, prerequisites, repoRoot, startServer, waitFor } from '../e2e/harness.mjs';
import { freeze, dragArea, waitLive } from '../e2e/steps.mjs';

const args = process.argv.slice(2);
const dark = args.includes('--dark');
const outAt = args.indexOf('--out');
const out = outAt >= 0 ? args[outAt + 1] : join(repoRoot, 'docs', 'console.png');
const sizeAt = args.indexOf('--size');
const size = /^(\d{3,4})x(\d{3,4})$/.exec(sizeAt >= 0 ? (args[sizeAt + 1] ?? '') : '1440x900');
if (!size) {
  console.error('screenshot: --size takes WIDTHxHEIGHT, e.g. 1366x768');
  process.exit(2);
}
const [width, height] = [Number(size[1]), Number(size[2])];

const missing = prerequisites();
if (missing.length) {
  console.error(`screenshot: missing ${missing.join(', ')}`);
  process.exit(1);
}

const server = await startServer({ demo: true, sources: TRAILHEAD });
const browser = await launchBrowser();
try {
  await api(server, 'POST', '/api/sessions', { title: 'Trail list polish' });
  const { page, context, errors } = await openConsole(browser, server, { width, height, colorScheme: dark ? 'dark' : 'light' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await waitLive(page);
  const f = await freeze(page);

  // 1. a node: the screen title.
  const title = f.nodes.find((n) => n.text === 'Find your next trail');
  if (!title) throw new Error('the demo list screen has no "Find your next trail" text');
  await page.keyboard.press('Tab');
  for (let i = 0; i < 40 && !(await page.locator('#keyCursorHint').innerText()).includes('Find your next trail'); i++) await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Headline feels cramped: more space above it and a bolder weight.');
  await page.keyboard.press('Enter');

  // 2. an area: the second card's stats row.
  const card = f.nodes.find((n) => n.testTag === 'trail_card_1');
  if (!card) throw new Error('the demo list screen has no trail_card_1');
  const b = card.bounds;
  await page.locator('.frame').scrollIntoViewIfNeeded(); // a narrow window stacks the inspector below
  await dragArea(page, f, { x: b.left + 8, y: b.top + 8 }, { x: b.right - 8, y: b.bottom - 8 });
  await page.locator('#inspectorFooter[data-editor-state="pendingTarget"]').waitFor();
  await page.keyboard.type('Cards look flat; add the elevation from the design.');
  await page.locator('#inspectorFooter [data-action="addAnnotation"]').click();

  // Copy Prompt saves both (the frame stays frozen); select the first saved one.
  await page.locator('#copyPromptButton').click();
  await waitFor(async () => (await page.locator('[data-item-id]').count()) === 2, { what: 'two saved rows' });
  if (await page.locator('#clipboardFallbackDialog').count()) await page.keyboard.press('Escape');
  await page.locator('[data-item-id]').first().click();
  await page.locator('#sourceCandidates li').first().waitFor({ timeout: 20000 });
  await page.mouse.move(1, height - 1);
  // The messages of the steps above ("Prompt copied", …) are not part of the picture.
  await waitFor(async () => {
    const close = page.locator('#error [aria-label="Dismiss message"]');
    if ((await close.count()) > 0) await close.first().click();
    return (await page.locator('#error').getAttribute('data-count')) === '0' && (await close.count()) === 0;
  }, { timeout: 12000, what: 'the messages dismissed' });
  await page.mouse.move(1, height - 1);
  await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
  await page.waitForTimeout(800); // a dismissed message fades out
  await page.screenshot({ path: out });
  if (errors.length) throw new Error(`console errors: ${errors.join('; ')}`);
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await server.stop();
}
