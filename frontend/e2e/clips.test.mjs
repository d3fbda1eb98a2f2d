// Screen clips in the console, against `fixthis serve --demo`: Clip last 5 s while the
// demo device scrolls attaches a clip to a new note on the whole screen, Chromium plays
// it in the Inspector before and after the save, a long press records until released,
// and the API refuses a length outside 1–30 s.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, it } from 'node:test';
import { api, openConsole, suite, waitFor } from './harness.mjs';
import { selectedSerial, waitLive } from './steps.mjs';

const stats = (page) => page.evaluate(() => window.FixThisConsoleDebug.previewStats());

/** readyState of the clip player in the editor (2 = it has the current frame's data). */
const playerReady = (page) => page.locator('video[data-clip-player]').evaluate((v) => v.readyState);

suite('screen clips', { server: { demo: true } }, (env) => {
  let serial;
  let page;
  let context;
  let errors;
  let scrolling = null;

  /** Keeps the demo list scrolling until stopped, one `input swipe` after another. */
  const startScrolling = () => {
    let stop = false;
    const run = (i) => {
      if (stop) return;
      const [y1, y2] = i % 8 < 4 ? ['1500', '1300'] : ['1300', '1500'];
      const p = spawn('adb', ['-P', String(env.server.adbPort), '-s', serial, 'shell', 'input', 'swipe', '540', y1, '540', y2, '250']);
      p.on('exit', () => run(i + 1));
    };
    run(0);
    return () => (stop = true);
  };

  before(async () => {
    serial = await selectedSerial(env.server);
    ({ page, context, errors } = await openConsole(env.browser, env.server));
    await waitLive(page, env.server);
    await waitFor(async () => (await stats(page)).transport === 'h264', { timeout: 20000, what: 'the live video' });
    scrolling = startScrolling();
  });

  after(() => {
    scrolling?.();
    return context?.close();
  });

  it('clips the last 5 s onto a screen note and plays it before and after the save', async () => {
    // Let the video carry a few seconds of scrolling first.
    const first = (await stats(page)).framesPainted;
    await waitFor(async () => (await stats(page)).framesPainted >= first + 20, { timeout: 20000, what: '20 pictures painted' });
    const cut = page.waitForResponse((r) => r.url().includes('/api/preview/clip') && r.request().method() === 'POST');
    await page.locator('#recordClipButton').click();
    const res = await (await cut).json();
    assert.ok(res.clipId && res.frames > 0 && res.width > 0, JSON.stringify(res));
    assert.ok(res.durationMs > 1000 && res.durationMs <= 5000, `durationMs ${res.durationMs}`);
    await page.locator('#inspectorFooter[data-editor-state="pendingTarget"]').waitFor();
    await waitFor(async () => (await playerReady(page)) >= 2, { timeout: 15000, what: 'the pending clip playable (readyState ≥ 2)' });

    await page.locator('#annotationComment').fill('the list stutters when I fling it');
    await page.keyboard.press('Enter');
    await waitFor(async () => (await page.locator('[data-draft-item]').count()) === 1, { what: 'the draft row' });
    assert.match(await page.locator('[data-draft-item]').innerText(), /clip \d\.\d s/);
    await page.locator('.frame').focus();
    await page.keyboard.press('s');
    await waitFor(async () => (await page.locator('[data-item-id]').count()) === 1, { timeout: 15000, what: 'the saved row' });

    const sessionId = await page.evaluate(() => localStorage.getItem('fixthis.activeSessionId'));
    const { body } = await api(env.server, 'GET', `/api/sessions/${sessionId}`);
    const item = body.session.items[0];
    assert.equal(item.clip?.clipId, res.clipId, JSON.stringify(item));
    assert.match(item.clip.path, /^\.fixthis\/artifacts\/[0-9a-f]{2}\/[0-9a-f]{64}\.mp4$/);
    assert.ok(item.clip.frameStripPath, 'the saved clip has a frame strip');

    await page.locator(`[data-item-id="${item.itemId}"]`).click();
    await waitFor(async () => (await playerReady(page)) >= 2, { timeout: 15000, what: 'the saved clip playable in the Inspector' });
    const duration = await page.locator('video[data-clip-player]').evaluate((v) => v.duration);
    assert.ok(Math.abs(duration * 1000 - res.durationMs) < res.durationMs * 0.1, `<video> duration ${duration}s, clip ${res.durationMs} ms`);
  });

  it('records while the button is held', async () => {
    await page.getByRole('button', { name: 'Back to live preview' }).click();
    await waitLive(page, env.server);
    const btn = page.locator('#recordClipButton');
    const box = await btn.boundingBox();
    const started = page.waitForResponse((r) => r.url().includes('/api/preview/clip/record'));
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await started;
    await waitFor(async () => (await btn.getAttribute('aria-pressed')) === 'true', { what: 'the button recording' });
    const held = Date.now();
    await waitFor(async () => Date.now() - held > 2500, { timeout: 5000, what: 'holding 2.5 s' });
    const cut = page.waitForResponse((r) => r.url().endsWith('/api/preview/clip') && r.request().method() === 'POST');
    await page.mouse.up();
    const res = await (await cut).json();
    assert.ok(res.durationMs >= 2500 && res.durationMs < 8000, `a 2.5 s hold gave ${res.durationMs} ms`);
    await waitFor(async () => (await playerReady(page)) >= 2, { timeout: 15000, what: 'the recorded clip playable' });
  });

  it('refuses a length outside 1–30 s', async () => {
    const { body: s } = await api(env.server, 'POST', '/api/sessions', { title: 'bad clips' });
    for (const seconds of [0, 31]) {
      const r = await api(env.server, 'POST', '/api/preview/clip', { seconds, sessionId: s.sessionId });
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.match(r.body.message, /seconds must be 1–30/);
    }
    assert.deepEqual(errors, []);
  });
});
