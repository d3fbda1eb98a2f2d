// Check sizes on a saved item: the console runs the check on the demo phone, shows one
// cell per size (the tablet's wide, since its window is expanded), and the phone reads
// `wm size` / `wm density` as before afterwards.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { it } from 'node:test';
import { api, openConsole, shotPath, suite, waitFor } from './harness.mjs';
import { nodeTarget, selectedSerial, sessionWithItems } from './steps.mjs';

suite('check sizes', { server: { demo: true } }, (env) => {
  function wmSize(serial) {
    const r = spawnSync('adb', ['-P', String(env.server.adbPort), '-s', serial, 'shell', 'wm size; wm density'], { encoding: 'utf8', timeout: 15000 });
    assert.equal(r.status, 0, `wm size: ${r.stderr}`);
    return r.stdout;
  }

  it('checks an item on the New trail button on three sizes and puts the phone back', async () => {
    const { server, browser } = env;
    const serial = await selectedSerial(server);
    const before = wmSize(serial);
    const { sessionId, items } = await sessionWithItems(server, {
      title: 'sizes',
      items: (f) => [{ target: nodeTarget(f.nodes.find((n) => n.testTag === 'add_trail_fab'), { snapshot: true }), severity: 'med', comment: 'The button covers the last card' }],
    });
    const itemId = items[0].itemId;

    const { context, page, errors } = await openConsole(browser, server, { sessionId, width: 1440, height: 900 });
    await page.locator(`[data-item-id="${itemId}"]`).click();
    const section = page.locator('#sizeCheck');
    await section.waitFor();
    assert.equal(await section.getAttribute('data-state'), 'empty');
    assert.match(await section.locator('[data-role="empty"]').innerText(), /Not checked on other sizes yet/);

    const button = section.locator('#checkSizesButton');
    await waitFor(async () => !(await button.isDisabled()), { timeout: 15000, what: 'Check sizes enabled with the phone selected' });
    // The keyboard reaches the control and starts it.
    await button.focus();
    await page.keyboard.press('Enter');
    await section.locator('[data-role="progress"]').waitFor();
    assert.equal(await section.getAttribute('aria-busy'), 'true');
    await waitFor(async () => (await section.getAttribute('data-state')) === 'checked', { timeout: 40000, what: 'the check finished' });

    const cells = section.locator('.grid > li');
    assert.equal(await cells.count(), 3);
    assert.deepEqual(await cells.evaluateAll((els) => els.map((el) => el.getAttribute('data-size'))), ['phone', 'foldable', 'tablet']);
    assert.deepEqual(await cells.locator('[data-role="dp"]').allInnerTexts(), ['411 × 891 dp', '673 × 841 dp', '1280 × 800 dp']);
    assert.deepEqual(await cells.evaluateAll((els) => els.map((el) => el.getAttribute('data-found'))), ['true', 'true', 'true']);
    // Each cell shows the element cropped out of that size's screen once it loaded.
    await waitFor(async () => (await cells.locator('img[data-role="crop"]').count()) === 3, { timeout: 10000, what: 'three crops' });
    const widths = await cells.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().width));
    assert.ok(widths[2] > widths[0] * 1.5, `the tablet's cell is the wide one: ${widths}`);
    assert.equal(await cells.nth(2).getAttribute('data-class'), 'expanded');
    assert.match(await section.locator('[data-role="summary"]').innerText(), /^Found on 3 of 3 sizes\.$/);

    // A press on a cell shows that size's whole screen, and again the crop.
    const tabletPic = cells.nth(2).locator('button.pic');
    await tabletPic.focus();
    await page.keyboard.press('Enter');
    assert.equal(await tabletPic.getAttribute('aria-pressed'), 'true');
    await cells.nth(2).locator('img[data-role="whole"]').waitFor();
    const whole = await cells.nth(2).locator('img[data-role="whole"]').evaluate((img) => ({ w: img.naturalWidth, h: img.naturalHeight }));
    assert.ok(whole.w > whole.h, `the tablet's screen is landscape: ${JSON.stringify(whole)}`);

    assert.equal(wmSize(serial), before, 'wm size / wm density read as before');
    // The check is stored on the item: the prompt names every size.
    const prompt = await api(server, 'POST', `/api/sessions/${sessionId}/handoff-preview`, { itemIds: [itemId], markCopied: false });
    assert.match(prompt.body.markdown, /\n {2}sizes: phone 411x891dp found[^;\n]*; foldable 673x841dp found[^;\n]*; tablet 1280x800dp found/);

    for (const [width, height, shot] of [
      [1440, 900, 'sizes-1440x900.png'],
      [1366, 768, 'sizes-1366x768.png'],
      [390, 844, 'sizes-390.png'],
    ]) {
      await page.setViewportSize({ width, height });
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: shotPath(shot) });
    }
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('shows the refusal when the phone shows another app', async () => {
    const { server, browser } = env;
    const serial = await selectedSerial(server);
    const { sessionId, items } = await sessionWithItems(server, {
      title: 'sizes-refused',
      items: (f) => [{ target: nodeTarget(f.nodes.find((n) => n.testTag === 'add_trail_fab'), { snapshot: true }), severity: 'low', comment: 'Check me' }],
    });
    const before = wmSize(serial);
    spawnSync('adb', ['-P', String(server.adbPort), '-s', serial, 'shell', 'input', 'keyevent', 'KEYCODE_HOME'], { timeout: 15000 });
    const { context, page } = await openConsole(browser, server, { sessionId, ignore: /status of 409/ });
    await page.locator(`[data-item-id="${items[0].itemId}"]`).click();
    const section = page.locator('#sizeCheck');
    await waitFor(async () => !(await section.locator('#checkSizesButton').isDisabled()), { timeout: 15000, what: 'Check sizes enabled' });
    await section.locator('#checkSizesButton').click();
    const refusal = section.locator('[data-role="refusal"]');
    await refusal.waitFor({ timeout: 15000 });
    assert.match(await refusal.innerText(), /but the item was written on "com\.fixthis\.demo"/);
    assert.equal(await section.getAttribute('data-state'), 'empty');
    assert.equal(wmSize(serial), before);
    spawnSync('adb', ['-P', String(server.adbPort), '-s', serial, 'shell', 'am', 'start', '-n', 'com.fixthis.demo/.MainActivity'], { timeout: 15000 });
    await context.close();
  });
});
