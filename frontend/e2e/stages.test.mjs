// Phones side by side against two simulated phones on a private adb server: "Show
// another phone" lists the other one, its stage shows live video beside the selected
// phone's, Annotate on it freezes that phone, a note is saved on its screen (which
// names that phone's serial), the stage closes, an agent's capture marks its phone's
// stage, and a phone that leaves ends its stage with a notice. Screenshots at
// 1440×900, 1366×768 (side by side) and 390 px (stacked).
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { api, openConsole, shotPath, startSim, suite, waitFor } from './harness.mjs';
import { McpClient } from './mcp.mjs';
import { clickNode, waitLive } from './steps.mjs';

const side = (serial) => `section.side[data-stage-serial="${serial}"]`;

/** Top-left corners of the main stage and a side stage. */
async function corners(page, serial) {
  const a = await page.locator('section.stage[aria-label="Preview"]').boundingBox();
  const b = await page.locator(side(serial)).boundingBox();
  return { main: a, side: b };
}

suite('phones side by side', { server: { demo: false } }, (env) => {
  const sims = [];
  after(() => {
    for (const s of sims) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  });

  it('adds a second phone live, annotates and saves on it, closes it, and ends a stage whose phone left', async () => {
    const { server, browser } = env;
    sims.push(await startSim(server), await startSim(server));
    const [a, b] = sims.map((s) => s.serial);
    await waitFor(async () => {
      const l = (await api(server, 'GET', '/api/devices')).body;
      return [a, b].every((s) => l.devices.some((d) => d.serial === s && d.state === 'device' && d.screen));
    }, { timeout: 15000, what: 'both sims online' });
    await api(server, 'POST', '/api/device/select', { serial: a });

    const { page, context, errors } = await openConsole(browser, server);
    await waitLive(page, server);
    assert.equal(await page.locator('section.stage[aria-label="Preview"]').getAttribute('data-stage-serial'), a);

    // "Show another phone" offers the other phone only, from the keyboard.
    await page.locator('#addStageButton').focus();
    await page.keyboard.press('Enter');
    await page.locator(`[data-add-serial="${b}"]`).waitFor();
    assert.equal(await page.locator(`[data-add-serial="${a}"]`).count(), 0, 'the selected phone is not offered');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-add-serial')), b, 'the menu takes focus');
    await page.keyboard.press('Enter');
    await page.locator(side(b)).waitFor();
    await waitFor(async () => (await page.locator(`${side(b)} .badge`).innerText()) === 'Live', { timeout: 20000, what: "the second phone's live video" });
    await waitLive(page, server);

    for (const vp of [{ width: 1440, height: 900 }, { width: 1366, height: 768 }]) {
      await page.setViewportSize(vp);
      await page.waitForTimeout(400);
      const c = await corners(page, b);
      assert.ok(c.side.x >= c.main.x + c.main.width - 2 && Math.abs(c.side.y - c.main.y) < 2, `side by side at ${vp.width}: ${JSON.stringify(c)}`);
      await page.screenshot({ path: shotPath(`stages-two-${vp.width}x${vp.height}.png`) });
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(400);
    const stacked = await corners(page, b);
    assert.ok(stacked.side.y >= stacked.main.y + stacked.main.height - 2, `stacked at 390: ${JSON.stringify(stacked)}`);
    await page.locator(side(b)).scrollIntoViewIfNeeded();
    await page.screenshot({ path: shotPath('stages-two-390x844.png'), fullPage: true });
    await page.setViewportSize({ width: 1440, height: 900 });

    // Annotate on the second phone's stage: it becomes the selected one and freezes.
    const freezeReq = page.waitForRequest((r) => r.url().includes('/api/preview/freeze') && r.method() === 'POST');
    const freezeResp = page.waitForResponse((r) => r.url().includes('/api/preview/freeze') && r.request().method() === 'POST');
    await page.locator(`[data-stage-annotate="${b}"]`).click();
    assert.equal(JSON.parse((await freezeReq).postData()).serial, b, 'the freeze names the phone acted on');
    const f = await (await freezeResp).json();
    assert.equal(f.serial, b);
    await waitFor(async () => (await page.locator('#previewFrameStatus').innerText()) === 'Frozen for annotation', { what: 'frozen badge' });
    assert.equal(await page.locator('section.stage[aria-label="Preview"]').getAttribute('data-stage-serial'), b);
    await page.screenshot({ path: shotPath('stages-frozen-second.png') });
    // Frozen beside a side stage at 1366×768 the stage toolbar keeps to two rows, so
    // the phones keep their height (the audit options once wrapped it to four).
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.waitForTimeout(300);
    const rows = await page.locator('.toolbar').first().evaluate((el) => {
      const mids = [...el.children].filter((c) => c.getBoundingClientRect().width > 0).map((c) => {
        const r = c.getBoundingClientRect();
        return r.top + r.height / 2;
      });
      return new Set(mids.map((m) => Math.round(m / 20))).size; // rows are ~36 px apart
    });
    assert.ok(rows <= 2, `the toolbar wraps to ${rows} rows at 1366 beside a side stage`);
    assert.equal(await page.locator('#addStageButton').count(), 0, 'Show another phone is offered with no phone to add');
    await page.screenshot({ path: shotPath('stages-frozen-second-1366x768.png') });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.locator(side(a)).waitFor();
    const card = f.nodes.find((n) => /^trail_card_\d+$/.test(n.testTag || ''));
    assert.ok(card, 'the demo list shows trail cards');
    await clickNode(page, f, card);
    await page.locator('#inspectorFooter[data-editor-state="pendingTarget"]').waitFor();
    await page.keyboard.type('Second phone: this card is cut off');
    await page.keyboard.press('Enter');
    await page.locator('.frame').focus();
    await page.keyboard.press('s');
    await waitFor(async () => (await page.locator('[data-item-id]').count()) === 1, { timeout: 15000, what: 'the saved row' });
    const sessionId = await page.evaluate(() => localStorage.getItem('fixthis.activeSessionId'));
    const saved = (await api(server, 'GET', `/api/sessions/${sessionId}`)).body.session;
    assert.equal(saved.items[0].comment, 'Second phone: this card is cut off');
    assert.equal(saved.screens[0].fingerprint, f.screen.fingerprint, "the item is on the second phone's frozen screen");
    assert.equal(saved.screens[0].serial, b, 'the saved screen names the phone it was frozen on');
    assert.equal(saved.items[0].screenId, saved.screens[0].screenId);
    await page.screenshot({ path: shotPath('stages-saved-on-second.png') });

    // Close the first phone's stage (now a side stage): only it goes.
    await page.locator(`[data-stage-close="${a}"]`).click();
    await page.locator(side(a)).waitFor({ state: 'detached' });
    await waitLive(page, server);

    // Show it again, then unplug it: its stage ends with a notice, nothing else changes.
    await page.locator('#addStageButton').click();
    await page.locator(`[data-add-serial="${a}"]`).click();
    await waitFor(async () => (await page.locator(`${side(a)} .badge`).innerText()) === 'Live', { timeout: 20000, what: "the first phone's stage back" });
    // An agent acting on that phone marks its stage, not the selected one's.
    const agent = new McpClient(server.mcpUrl, server.mcpToken);
    await agent.initialize();
    await agent.call('fixthis_capture_screen', { serial: a });
    await page.locator(`${side(a)} [data-agent-acting="${a}"]`).waitFor({ timeout: 10000 });
    assert.equal(await page.locator(`[data-agent-acting="${b}"]`).count(), 0, 'the selected phone is not marked');
    await page.screenshot({ path: shotPath('stages-agent-acting.png') });
    sims[0].child.kill('SIGKILL');
    await page.locator(side(a)).waitFor({ state: 'detached', timeout: 15000 });
    await page.getByText(`The stage of ${a} closed`).first().waitFor({ timeout: 5000 });
    assert.equal((await page.locator('[data-item-id]').count()), 1, 'the saved item stays');
    await waitLive(page, server);
    await page.screenshot({ path: shotPath('stages-phone-left.png') });
    assert.deepEqual(errors.filter((e) => !/^Failed to load resource/.test(e)), []);
    await context.close();
  });
});
