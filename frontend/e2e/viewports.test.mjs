// Draw, annotate, save and read the Inspector at the window sizes people use: a
// 1440×900 desktop, the common 1366×768 and 1280×800 laptops, and a 390 px wide phone
// browser, against `fixthis serve --demo`. Only this flow runs at every size; the other
// suites keep one size, so CI pays for four sizes once.
//
// At a stage scale that is not whole the click's device point is fractional: the area a
// click on an empty spot makes, and everything saved, must still be whole device
// pixels. At 768 px high the annotation list and the editor stay in view.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { TRAILHEAD, api, openConsole, shotPath, suite, waitFor } from './harness.mjs';
import { dragArea, freeze, toPage, waitLive } from './steps.mjs';

const VIEWPORTS = [
  { name: '1440x900', width: 1440, height: 900 },
  { name: '1366x768', width: 1366, height: 768 },
  { name: '1280x800', width: 1280, height: 800 },
  { name: '390x844', width: 390, height: 844 },
];

const WHOLE = /^\((\d+),(\d+)\)–\((\d+),(\d+)\)$/;

/**
 * A device point no node smaller than a quarter of the screen covers, away from the
 * edges: a click there makes an area, not a node pick.
 */
function emptySpot(f) {
  const { width, height } = f.screen;
  const small = f.nodes.filter((n) => (n.bounds.right - n.bounds.left) * (n.bounds.bottom - n.bounds.top) < (width * height) / 4);
  const inside = (x, y) => small.some((n) => x >= n.bounds.left - 30 && x < n.bounds.right + 30 && y >= n.bounds.top - 30 && y < n.bounds.bottom + 30);
  for (let y = height * 0.15; y < height * 0.95; y += 37) {
    for (let x = width * 0.1; x < width * 0.9; x += 29) if (!inside(x, y)) return { x, y };
  }
  throw new Error('the demo screen has no empty spot');
}

/**
 * Whether the first element selector matches is on the screen and not hidden: the
 * middle of its box is inside the window and what the browser hits there is the
 * element itself (not a panel over it, not clipped away by a scrolled container).
 */
function onScreen(page, selector) {
  return page.locator(selector).first().evaluate((el) => {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const y = r.top + Math.min(r.height / 2, 12);
    if (r.width === 0 || x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
    const hit = document.elementFromPoint(x, y);
    return Boolean(hit && (hit === el || el.contains(hit)));
  });
}

// The demo app's sources make the top bar as full as it gets (the project chip, Run app)
// and the editor as tall (where each item lives in code).
suite('annotation at four window sizes', { server: { demo: true, sources: TRAILHEAD } }, (env) => {
  for (const vp of VIEWPORTS) {
    it(`draws, annotates, saves and reads the Inspector at ${vp.name}`, async () => {
      const { server, browser } = env;
      const { body: created } = await api(server, 'POST', '/api/sessions', { title: `sizes ${vp.name}` });
      const { page, errors, context } = await openConsole(browser, server, { width: vp.width, height: vp.height, sessionId: created.sessionId });
      try {
        await waitLive(page, server);
        const f = await freeze(page);
        const box = await page.locator('.frame').boundingBox();
        const scale = box.width / f.screen.width;

        // 1. A click on an empty spot: a 48-px area in whole device pixels.
        const spot = emptySpot(f);
        const p = await toPage(page, f, spot.x, spot.y);
        await page.mouse.click(p.x + 0.37, p.y + 0.41); // off the pixel grid on purpose
        await page.locator('#inspectorFooter[data-editor-state="pendingTarget"]').waitFor();
        const shown = (await page.locator('.crumbs.plain .mono').innerText()).trim();
        const m = WHOLE.exec(shown);
        assert.ok(m, `the pending area is in whole device pixels at scale ${scale.toFixed(4)}: ${shown}`);
        assert.equal(Number(m[3]) - Number(m[1]), 48, shown);
        await page.keyboard.type(`empty spot at ${vp.name}`);
        await page.keyboard.press('Enter');
        await waitFor(async () => (await page.locator('[data-draft-item]').count()) === 1, { what: 'the first draft row' });

        // 2. A dragged area.
        await dragArea(page, f, { x: f.screen.width * 0.12, y: f.screen.height * 0.55 }, { x: f.screen.width * 0.47, y: f.screen.height * 0.63 });
        await page.locator('#inspectorFooter[data-editor-state="pendingTarget"]').waitFor();
        assert.match((await page.locator('.crumbs.plain .mono').innerText()).trim(), WHOLE);
        await page.keyboard.type(`dragged at ${vp.name}`);
        await page.locator('#inspectorFooter [data-action="addAnnotation"]').click();
        await waitFor(async () => (await page.locator('[data-draft-item]').count()) === 2, { what: 'the second draft row' });

        // 3. Save (S, back to live): both are saved with whole-pixel bounds on the screen.
        await page.locator('.frame').focus();
        await page.keyboard.press('s');
        await waitFor(async () => (await page.locator('[data-item-id]').count()) === 2, { timeout: 15000, what: 'two saved rows' });
        const { body } = await api(server, 'GET', `/api/sessions/${created.sessionId}`);
        assert.equal(body.session.items.length, 2, JSON.stringify(body.session.items.map((i) => i.comment)));
        for (const item of body.session.items) {
          const b = item.target.bounds;
          for (const v of Object.values(b)) assert.ok(Number.isInteger(v), `saved bounds ${JSON.stringify(b)}`);
          assert.ok(b.left >= 0 && b.top >= 0 && b.right <= f.screen.width && b.bottom <= f.screen.height, `on the screen: ${JSON.stringify(b)}`);
        }

        // 4. Read the Inspector: the saved row opens its editor, list and editor in view.
        const first = body.session.items.find((i) => i.comment.startsWith('empty spot'));
        const row = `[data-item-id="${first.itemId}"]`;
        if (vp.width < 1024) await page.locator(row).scrollIntoViewIfNeeded(); // stacked: the page scrolls
        await page.locator(row).click();
        await waitFor(async () => (await page.locator('#savedComment').inputValue()) === first.comment, { what: 'the saved item in the editor' });
        await page.screenshot({ path: shotPath(`sizes-${vp.name}.png`) });
        if (vp.width >= 1024) {
          // Side by side: the editor and every row of the list are on the screen at once.
          assert.ok(await onScreen(page, '#savedComment'), "the editor's comment is in view");
          const boxHeight = await page.locator('#savedComment').evaluate((el) => el.clientHeight);
          assert.ok(boxHeight >= 40, `the comment box keeps its lines (${boxHeight} px high)`);
          for (const item of body.session.items) assert.ok(await onScreen(page, `[data-item-id="${item.itemId}"]`), `row "${item.comment}" is in view`);
          // The device chip shows whole words: its name never cut, its specs whole or away.
          for (const part of ['.chip .model', '.chip .meta']) {
            const el = page.locator(part);
            if (!(await el.count()) || !(await el.isVisible())) continue;
            const cut = await el.evaluate((e) => e.scrollWidth > e.clientWidth + 1);
            assert.equal(cut, false, `${part} is whole: "${await el.innerText()}"`);
          }
        }
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });
  }
});
