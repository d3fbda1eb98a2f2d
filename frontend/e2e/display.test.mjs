// The phone's display settings from the console: one click each, the live view shows
// the change, a saved item names its conditions, and the phone's own settings come back
// on Restore, on SIGTERM and, after a kill -9, on the next start.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { api, openConsole, shotPath, startServer, startSim, suite, waitFor } from './harness.mjs';
import { SCREEN, selectedSerial, sessionWithItems, waitLive, waitSessionShown } from './steps.mjs';

/** Mean luminance of the live screen as the page paints it (image or video canvas). */
async function screenLuminance(page) {
  return (await screenSample(page)).luminance;
}

/** The live screen painted small: its mean luminance and a coarse signature of its pixels. */
function screenSample(page) {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return { luminance: -1, signature: '' };
    const w = el.naturalWidth || el.width;
    const h = el.naturalHeight || el.height;
    if (!w || !h) return { luminance: -1, signature: '' };
    const c = document.createElement('canvas');
    c.width = 120;
    c.height = Math.round((120 * h) / w);
    const g = c.getContext('2d');
    g.drawImage(el, 0, 0, c.width, c.height);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let sum = 0;
    let signature = '';
    for (let i = 0; i < d.length; i += 4) {
      const l = 0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2];
      sum += l;
      if ((i / 4) % 97 === 0) signature += (l >> 5).toString(8);
    }
    return { luminance: sum / (d.length / 4), signature };
  }, SCREEN);
}

/**
 * Waits until the live screen's luminance passes test. A timeout says what the page
 * painted, with what element and badge, and the server's last lines, so a failure in
 * CI can be read.
 */
async function waitLuminance(page, server, test, what) {
  let seen = [];
  try {
    await waitFor(async () => {
      const l = await screenLuminance(page);
      seen = [...seen.slice(-4), Math.round(l)];
      return test(l);
    }, { timeout: 10000, what });
  } catch (err) {
    const painted = await page
      .evaluate((sel) => ({ element: document.querySelector(sel)?.tagName, badge: document.querySelector('#previewFrameStatus')?.textContent }), SCREEN)
      .catch((e) => ({ error: String(e) }));
    const log = server.stderr().split('\n').slice(-15).join('\n');
    throw new Error(`${err.message}\nlast luminances: ${seen.join(', ')}; ${JSON.stringify(painted)}\nserver log tail:\n${log}`);
  }
}

suite('display settings', { server: { demo: true } }, (env) => {
  it('switches the dark theme, font and language with one click each and restores them', async () => {
    const { context, page, errors } = await openConsole(env.browser, env.server, { width: 1440, height: 900 });
    try {
      await waitLive(page, env.server);
      const panel = page.locator('#displaySettings');
      await panel.waitFor();
      // 900 px high: the panel starts folded to its head line, and opens with one click.
      assert.equal(await panel.getAttribute('data-open'), 'false');
      assert.equal(await panel.locator('[data-action="toggleNight"]').count(), 0);
      await panel.locator('[data-action="toggleDisplay"]').click();
      await panel.locator('[data-action="toggleNight"]').waitFor();
      // The light reference is taken from a settled picture, not from a first paint.
      let before = null;
      const light = await waitFor(async () => {
        const now = await screenSample(page);
        const settled = now.luminance > 0 && before?.signature === now.signature;
        before = now;
        return settled ? now.luminance : null;
      }, { interval: 300, what: 'a painted, settled live screen' });

      await panel.locator('[data-action="toggleNight"]').click();
      await waitFor(async () => (await panel.getAttribute('data-conditions')) === 'night', { what: 'night in the panel' });
      await waitLuminance(page, env.server, (l) => l < light * 0.6, `the live view turning dark (light was ${Math.round(light)})`);

      const dark = (await screenSample(page)).signature;
      await panel.locator('[data-font-scale="1.3"]').click();
      await panel.locator('[data-locale="ar"]').click();
      await waitFor(async () => (await panel.getAttribute('data-conditions')) === 'night, fontScale=1.3, locale=ar', { what: 'three conditions' });
      // The live view repaints with the larger, mirrored layout.
      const ar = await api(env.server, 'POST', '/api/preview/freeze', {});
      const chip = (name) => ar.body.nodes.find((n) => n.testTag === name).bounds;
      assert.ok(chip('filter_all').left > chip('filter_saved').left, 'right to left, All is right of Saved');
      await api(env.server, 'POST', '/api/preview/resume');
      await waitFor(async () => (await screenSample(page)).signature !== dark, { timeout: 10000, what: 'the live view repainted' });
      let last = '';
      await waitFor(async () => {
        const sig = (await screenSample(page)).signature;
        const still = sig === last;
        last = sig;
        return still;
      }, { interval: 400, what: 'the live view settled' });
      await page.screenshot({ path: shotPath('display-settings-1440.png') });

      // An item saved now names its conditions in the Inspector.
      const { sessionId } = await sessionWithItems(env.server, {
        title: 'Dark',
        items: () => [{ target: { type: 'screen' }, severity: 'med', comment: 'Title is cut off in Arabic' }],
      });
      await page.reload();
      await page.evaluate((id) => localStorage.setItem('fixthis.activeSessionId', id), sessionId);
      await page.reload();
      await waitSessionShown(page, env.server);
      const cond = page.locator('[data-testid="itemConditions"]').first();
      await cond.waitFor();
      assert.equal(await cond.innerText(), 'Dark · Font 1.3× · ar');

      await page.setViewportSize({ width: 390, height: 844 });
      await page.locator('#displaySettings').scrollIntoViewIfNeeded();
      await page.screenshot({ path: shotPath('display-settings-390.png'), fullPage: true });
      await page.setViewportSize({ width: 1440, height: 900 });

      // A font scale out of range is refused with the range.
      const bad = await api(env.server, 'PUT', '/api/display', { fontScale: 2.5 });
      assert.equal(bad.status, 400);
      assert.match(bad.body.message, /want 0\.85 to 2/);

      // A change made elsewhere (another tab, an agent's tool) reaches this panel by its event.
      const elsewhere = await api(env.server, 'PUT', '/api/display', { fontScale: 1.15 });
      assert.equal(elsewhere.status, 200, JSON.stringify(elsewhere.body));
      await waitFor(async () => (await panel.getAttribute('data-conditions')) === 'night, fontScale=1.15, locale=ar', { what: 'the change made elsewhere shown' });

      await page.locator('#displaySettings [data-action="restoreDisplay"]').click();
      await waitFor(async () => (await page.locator('#displaySettings').getAttribute('data-conditions')) === '', { what: 'the defaults back' });
      await waitLuminance(page, env.server, (l) => Math.abs(l - light) < light * 0.1, `the live view light again (light was ${Math.round(light)})`);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});

/** What `cmd uimode night` says on the simulated phone. */
function night(server, serial) {
  const r = spawnSync('adb', ['-P', String(server.adbPort), '-s', serial, 'shell', 'cmd', 'uimode', 'night'], { encoding: 'utf8', timeout: 10000 });
  return r.stdout.trim();
}

suite('display settings after quitting', { server: false, browser: false }, (env) => {
  const project = mkdtempSync(join(tmpdir(), 'fixthis-e2e-display-'));
  const sims = [];
  after(() => {
    for (const s of sims) s.child.kill('SIGINT');
    rmSync(project, { recursive: true, force: true });
  });

  it('restores on SIGTERM, and after a kill -9 on the next start', async () => {
    // The first server owns the adb server; the phone outlives every FixThis run.
    const first = (env.server = await startServer({ demo: false, project }));
    const sim = await startSim(first);
    sims.push(sim);
    const serial = await selectedSerial(first);
    assert.equal(serial, sim.serial);
    let r = await api(first, 'PUT', '/api/display', { night: true });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(night(first, serial), 'Night mode: yes');
    const saved = join(project, '.fixthis', 'display-originals.json');
    assert.equal(statSync(saved).mode & 0o777, 0o600);

    // SIGTERM: the app restores before it exits.
    first.child.kill('SIGTERM');
    await new Promise((res) => first.child.once('exit', res));
    assert.equal(night(first, serial), 'Night mode: no');

    // kill -9: nothing runs, the phone stays dark until the next start.
    const second = await startServer({ demo: false, project, adbPort: first.adbPort });
    await selectedSerial(second);
    r = await api(second, 'PUT', '/api/display', { night: true, fontScale: 1.5 });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    second.child.kill('SIGKILL');
    await new Promise((res) => second.child.once('exit', res));
    assert.equal(night(first, serial), 'Night mode: yes');

    const third = await startServer({ demo: false, project, adbPort: first.adbPort });
    try {
      await waitFor(async () => night(first, serial) === 'Night mode: no', { timeout: 20000, what: 'the next start restoring night mode' });
      const st = await api(third, 'GET', `/api/display?serial=${encodeURIComponent(serial)}`);
      assert.equal(st.body.state.fontScale, 1);
      assert.equal(st.body.state.changed, false);
    } finally {
      await third.stop();
    }
  });
});
