// Keyboard-only annotation and "Where this lives in code", against `fixthis serve --demo`
// with the demo app's sources (examples/trailhead) in the project dir.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { TRAILHEAD, openConsole, shotPath, suite, waitFor } from './harness.mjs';
import { freeze, waitLive } from './steps.mjs';

const TITLE = 'Find your next trail';

suite('keyboard annotation and source candidates', { server: { demo: true, sources: TRAILHEAD } }, (env) => {
  it('picks a node with the keyboard only, then shows where it lives in code', async () => {
    const { server, browser } = env;
    const { page, errors, context } = await openConsole(browser, server);
    await waitLive(page, server);
    const f = await freeze(page);
    assert.ok(f.nodes.some((n) => n.text === TITLE), `the demo list screen shows "${TITLE}"`);

    // Freezing puts focus on the frame; Tab walks the nodes in reading order.
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('frame')), true, 'the frozen frame has focus');
    await page.keyboard.press('Tab');
    await page.locator('#keyCursorHint').waitFor();
    assert.match(await page.locator('#frameAnnouncer').innerText(), /1 of \d+/);
    let found = false;
    for (let i = 0; i < 30 && !found; i++) {
      if ((await page.locator('#keyCursorHint .key-label').innerText()).includes(TITLE)) found = true;
      else await page.keyboard.press('Tab');
    }
    assert.ok(found, `Tab reaches "${TITLE}"`);
    assert.match(await page.locator('#frameAnnouncer').innerText(), new RegExp(TITLE));
    assert.equal(await page.locator('svg.overlay rect.keyfocus').count(), 1, 'a visible focus outline');
    await page.screenshot({ path: shotPath('keyboard-cursor-1440.png') });

    // Shift-Tab goes back one, Tab returns; Escape drops the cursor.
    await page.keyboard.press('Shift+Tab');
    assert.ok(!(await page.locator('#keyCursorHint .key-label').innerText()).includes(TITLE));
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('svg.overlay rect.keyfocus').count(), 0, 'Escape drops the cursor');
    await page.keyboard.press('ArrowUp'); // the walk resumes where it was
    await page.keyboard.press('ArrowDown');
    assert.match(await page.locator('#keyCursorHint .key-label').innerText(), new RegExp(TITLE));

    // Enter picks it, exactly like a click: the comment box takes focus.
    await page.keyboard.press('Enter');
    await page.locator('#inspectorFooter[data-editor-state="pendingTarget"]').waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'annotationComment');
    assert.match(await page.locator('.crumbs').innerText(), new RegExp(TITLE));
    await page.keyboard.type('Make the headline larger');
    await page.keyboard.press('Enter');
    await waitFor(async () => (await page.locator('[data-draft-item]').count()) === 1, { what: 'draft row' });
    await waitFor(() => page.evaluate(() => document.activeElement?.classList.contains('frame')), { what: 'focus back on the frame' });

    // S saves it (back to live); the saved row shows its source candidates.
    await page.keyboard.press('s');
    await waitFor(async () => (await page.locator('[data-item-id]').count()) === 1, { what: 'saved row' });
    await page.locator('[data-item-id]').click();
    const first = page.locator('#sourceCandidates li').first();
    await first.waitFor({ timeout: 20000 });
    const files = await page.locator('#sourceCandidates li').evaluateAll((els) => els.map((e) => e.getAttribute('data-file')));
    assert.ok(files.length <= 3, 'at most three candidates');
    assert.ok(files.some((f) => f.endsWith('TrailListScreen.kt')), `a candidate in TrailListScreen.kt (got ${files.join(', ')})`);
    assert.match(await first.innerText(), /inside fun \w+/);
    assert.match(await first.locator('.conf').innerText(), /^(high|medium|low)$/i);
    await page.screenshot({ path: shotPath('inspector-sources-1440.png') });
    assert.deepEqual(errors, []);
    await context.close();
  });
});
