// Audit in the console, against `fixthis serve --demo`: freeze the demo's trail list,
// press Audit, see the flaws its source keeps on purpose (examples/trailhead/README.md,
// "Accessibility flaws") drawn on the stage and listed by check with measured and
// required values (at 1440×900 and 1366×768), dismiss the 40 dp avatar, which the next
// audit of the screen leaves out too, then add the 36 dp search button as an item, edit
// its comment and save it: the saved item carries check touch_target. Then, with
// "every freeze" ticked, the next freeze is audited without pressing Audit; and with
// "with font, dark and RTL" the phone is audited under each setting and put back.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { api, openConsole, shotPath, suite, waitFor } from './harness.mjs';
import { freeze, saveAndReadFirstItem, waitLive } from './steps.mjs';

suite('audit', { server: { demo: true } }, (env) => {
  let page;
  let context;

  before(async () => {
    ({ page, context } = await openConsole(env.browser, env.server));
    await waitLive(page, env.server);
  });

  after(() => context?.close());

  it('audits the frozen demo screen and saves a finding as an item with its check', async () => {
    await freeze(page);
    const audited = page.waitForResponse((r) => r.url().includes('/audit') && r.request().method() === 'POST');
    await page.locator('#auditButton').click();
    const res = await (await audited).json();
    assert.ok(res.findings.length > 0, JSON.stringify(res));
    await page.locator('#auditPanel').waitFor();

    // The documented flaws of the trail list, with their measured and required values.
    const panel = await page.locator('#auditPanel').innerText();
    for (const want of ['36×36 dp', '40×40 dp', '76×32 dp', '48×48 dp', 'contrast 2.88:1']) {
      assert.ok(panel.includes(want), `the audit list lacks ${want}:\n${panel}`);
    }
    assert.ok(await page.locator('#auditPanel h3[data-check="touch_target"]').count(), 'no touch target group');
    const drawn = await page.locator('svg.overlay rect[data-finding]').count();
    assert.equal(drawn, res.findings.length, 'each finding is drawn on the stage');
    await page.screenshot({ path: shotPath('audit-1440.png') });
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.screenshot({ path: shotPath('audit-1366.png') });
    const box = await page.locator('#auditAddErrors').boundingBox();
    assert.ok(box && box.x + box.width <= 1366, `Add all errors is off screen: ${JSON.stringify(box)}`);
    await page.setViewportSize({ width: 1440, height: 900 });

    // Dismiss a finding: it leaves the list, and the next audit of this screen.
    const avatar = page.locator('#auditPanel li.finding', { hasText: '40×40 dp' });
    await avatar.locator('[data-action="dismiss"]').click();
    await waitFor(async () => !(await page.locator('#auditPanel').innerText()).includes('40×40 dp'), { what: 'the dismissed finding gone' });
    const { body: again } = await api(env.server, 'POST', `/api/preview/${res.frozenId}/audit`);
    assert.equal(again.dismissed, 1, JSON.stringify(again));
    assert.ok(!again.findings.some((f) => f.measured === '40×40 dp'), 'the dismissed finding came back');

    const search = page.locator('#auditPanel li.finding', { hasText: '36×36 dp' });
    await search.locator('[data-action="add"]').click();
    await waitFor(async () => (await page.locator('[data-draft-item]').count()) === 1, { what: 'the draft row' });
    const comment = page.locator('#draftComment');
    await comment.waitFor();
    const prefilled = await comment.inputValue();
    assert.match(prefilled, /36×36 dp/);
    assert.match(prefilled, /48×48 dp/);
    await comment.fill(`${prefilled} The search icon in the top bar.`);
    const item = await saveAndReadFirstItem(page, env.server);
    assert.equal(item.check, 'touch_target', JSON.stringify(item));
    assert.match(item.comment, /The search icon in the top bar\.$/);
  });

  it('audits every freeze once the option is ticked', async () => {
    await waitLive(page, env.server);
    const auditOf = (frozenId) =>
      page.waitForResponse((r) => r.url().includes(`/api/preview/${frozenId}/audit`) && r.request().method() === 'POST');
    const first = await freeze(page);
    // The options sit behind the button beside Audit, which says when one is on.
    assert.equal(await page.locator('#auditOptions').count(), 0, 'the options are open before asked');
    await page.locator('#auditOptionsButton').click();
    assert.equal(await page.locator('#auditOnFreeze').isChecked(), false, 'auditing every freeze is off by default');
    for (const [width, height] of [[1366, 768], [390, 844]]) {
      await page.setViewportSize({ width, height });
      const box = await page.locator('#auditOptions').boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= width, `the options leave the window at ${width}: ${JSON.stringify(box)}`);
      await page.screenshot({ path: shotPath(`audit-options-${width}.png`) });
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    const now = auditOf(first.frozenId);
    await page.locator('#auditOnFreeze').check(); // the screen on the stage is audited at once
    await now;
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('#auditOptions').count(), 0, 'Escape left the options open');
    // Tab past the last option closes them too; a click on an option's text keeps them open.
    await page.locator('#auditOptionsButton').click();
    await page.locator('#auditOptions label').nth(1).locator('span').first().click();
    assert.equal(await page.locator('#auditOnFreeze').isChecked(), false, 'the label click did not untick');
    await page.locator('#auditOnFreeze').check();
    await page.keyboard.press('Tab');
    assert.equal(await page.locator('#auditOptions').count(), 0, 'Tab out left the options open');
    assert.equal(await page.locator('#auditOptionsButton').getAttribute('aria-label'), 'Audit options: every freeze');

    await page.locator('#selectToolButton').click();
    await waitLive(page, env.server);
    await page.locator('.frame').focus();
    const next = page.waitForResponse((r) => r.url().includes('/audit') && r.request().method() === 'POST');
    const second = await freeze(page);
    const res = await (await next).json();
    assert.equal(res.frozenId, second.frozenId, JSON.stringify(res));
    await page.locator('#auditPanel').waitFor();
    assert.ok((await page.locator('#auditPanel').innerText()).includes('36×36 dp'), 'the freeze was not audited');
  });

  it('audits with font, dark and RTL on the phone and puts its display back', async () => {
    await page.locator('#auditOptionsButton').click();
    await page.locator('#auditDynamic').check();
    await page.locator('.brand').click(); // a click elsewhere closes them
    assert.equal(await page.locator('#auditOptions').count(), 0, 'a click elsewhere left the options open');
    const audited = page.waitForResponse((r) => r.url().includes('/audit?dynamic=true') && r.request().method() === 'POST', { timeout: 30000 });
    await page.locator('#auditButton').click();
    const res = await (await audited).json();
    assert.deepEqual(res.dynamic?.ran, ['fontScale=2', 'night', 'rtl'], JSON.stringify(res.dynamic));
    assert.equal(res.dynamic.restored, true, JSON.stringify(res.dynamic));
    const { body: display } = await api(env.server, 'GET', '/api/display');
    assert.equal(display.state.changed, false, `the display was not put back: ${JSON.stringify(display.state)}`);
    assert.equal(display.conditions, '', JSON.stringify(display));
  });
});
