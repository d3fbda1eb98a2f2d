// The console's conflict dialogs against a real `fixthis serve --demo`: a save with a
// stale ETag (412, another tab saved first) and switching sessions with a dirty draft.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { api, openConsole, shotPath, suite, waitFor } from './harness.mjs';
import { SCREEN, clickNode, freeze, waitLive } from './steps.mjs';

/** The demo list screen's node for a text: the text itself, or (as the sidekick's
 * merged tree reports a card) the clickable card that took the text in. */
function nodeWithText(f, text) {
  const n = f.nodes.find((x) => x.text === text) ?? f.nodes.find((x) => x.clickable && (x.text ?? '').startsWith(text));
  assert.ok(n, `the demo screen shows "${text}"`);
  return n;
}

async function annotateNode(page, f, text, comment) {
  await clickNode(page, f, nodeWithText(f, text));
  await page.locator('#inspectorFooter[data-editor-state="pendingTarget"]').waitFor();
  await page.keyboard.type(comment);
  await page.keyboard.press('Enter');
}

suite('conflict dialogs', { server: { demo: true } }, (env) => {
  it('asks which version wins when another tab saved first (412), and Keep mine overwrites', async () => {
    const { server, browser } = env;
    const created = await api(server, 'POST', '/api/sessions', { title: 'Two tabs' });
    const sessionId = created.body.sessionId;
    const { page: a, errors, context } = await openConsole(browser, server);
    await waitLive(a, server);
    await waitFor(() => a.evaluate((id) => localStorage.getItem('fixthis.activeSessionId') === id, sessionId), { what: 'tab A on the new session' });

    // Tab B works with its live stream down (the case where it cannot learn of A's save):
    // /api/events fails, and once B has loaded the session its refreshes are held back.
    const b = await context.newPage();
    let hold = false;
    const held = [];
    await b.route('**/api/events**', (r) => r.abort());
    await b.route(`**/api/sessions/${sessionId}`, (r) => (hold && r.request().method() === 'GET' ? held.push(r) : r.continue()));
    await b.goto(server.consoleUrl);
    await waitFor(async () => (await b.locator('#previewFrameStatus').innerText()) !== 'Connecting…' && (await b.locator(SCREEN).count()) > 0, { timeout: 20000, what: 'tab B shows a frame' });
    await waitFor(() => b.evaluate((id) => localStorage.getItem('fixthis.activeSessionId') === id, sessionId), { what: 'tab B on the same session' });
    const fb = await freeze(b);
    await annotateNode(b, fb, 'Blue Lake Trail', 'Mine: rename this trail');
    await waitFor(async () => (await b.locator('[data-draft-item]').count()) === 1, { what: 'B draft row' });
    hold = true;

    // Tab A saves first.
    const fa = await freeze(a);
    await annotateNode(a, fa, 'Eagle Ridge Loop', 'Theirs: make this bolder');
    const savedA = a.waitForResponse((r) => r.url().includes('/api/items/batch'));
    await a.keyboard.press('s');
    assert.equal((await savedA).status(), 200);

    // Tab B saves with the ETag it had: 412 and the dialog.
    const staleB = b.waitForResponse((r) => r.url().includes('/api/items/batch'));
    await b.locator('#sendAgentButton').click();
    const resp = await staleB;
    assert.equal(resp.status(), 412, 'a stale If-Match is refused');
    assert.ok(resp.request().headers()['if-match'], 'tab B sent an If-Match');
    const dialog = b.locator('#staleDraftDialog');
    await dialog.waitFor();
    assert.deepEqual(await dialog.locator('.actions button').allInnerTexts(), ['Cancel', "Use server's version", 'Keep mine (overwrite)']);
    await b.screenshot({ path: shotPath('conflict-stale-1440.png') });

    const overwrite = b.waitForRequest((r) => r.url().includes('/api/items/batch'));
    await dialog.locator('[data-action="keepMine"]').click();
    assert.equal((await overwrite).headers()['if-match'], '*', 'Keep mine overwrites with If-Match: *');
    await waitFor(async () => (await b.locator('[data-draft-item]').count()) === 0, { what: 'B draft saved' });
    const sess = await api(server, 'GET', `/api/sessions/${sessionId}`);
    const comments = sess.body.session.items.map((i) => i.comment).sort();
    assert.ok(comments.includes('Mine: rename this trail') && comments.includes('Theirs: make this bolder'), `both saves kept: ${comments}`);
    await waitFor(async () => (await b.locator('#staleDraftDialog').count()) === 0, { what: 'dialog closed' });

    hold = false;
    for (const r of held) await r.continue().catch(() => undefined);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('asks before switching sessions with a dirty draft; Cancel stays, Keep for later switches', async () => {
    const { server, browser } = env;
    const { page, errors, context } = await openConsole(browser, server);
    await waitLive(page, server);
    const before = await waitFor(() => page.evaluate(() => localStorage.getItem('fixthis.activeSessionId')), { what: 'active session' });
    const other = await api(server, 'POST', '/api/sessions', { title: 'Checkout polish' });
    assert.equal(other.status, 200);
    await page.locator(`#historyPane [data-session-id="${other.body.sessionId}"]`).waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('fixthis.activeSessionId')), before, 'a new session elsewhere does not switch this tab');
    const f = await freeze(page);
    await annotateNode(page, f, 'Sunset Canyon', 'Pending when switching');
    await waitFor(async () => (await page.locator('[data-draft-item]').count()) === 1, { what: 'draft row' });

    const row = page.locator(`#historyPane [data-session-id="${other.body.sessionId}"]`);
    await row.click();
    const dialog = page.locator('#dirtySwitchDialog');
    await dialog.waitFor();
    assert.deepEqual(await dialog.locator('.actions button').allInnerTexts(), ['Cancel', 'Discard them', 'Keep for later']);
    assert.match(await dialog.innerText(), /1 pending annotation/);
    await page.screenshot({ path: shotPath('conflict-dirty-switch-1440.png') });

    await dialog.locator('[data-action="cancel"]').click();
    await waitFor(async () => (await dialog.count()) === 0, { what: 'dialog closed' });
    assert.equal(await page.evaluate(() => localStorage.getItem('fixthis.activeSessionId')), before, 'Cancel stays on the session');
    assert.equal(await page.locator('[data-draft-item]').count(), 1, 'Cancel keeps the draft');

    await row.click();
    await dialog.locator('[data-action="keep"]').click();
    await waitFor(() => page.evaluate((id) => localStorage.getItem('fixthis.activeSessionId') === id, other.body.sessionId), { what: 'switched' });
    assert.equal(await page.locator('[data-draft-item]').count(), 0);

    // Back on the first session, the kept draft is offered for recovery.
    await page.locator(`#historyPane [data-session-id="${before}"]`).click();
    await page.locator('#draftRecoveryBanner').waitFor({ timeout: 10000 });
    await page.locator('#draftRecoveryBanner [data-action="discard"]').click();
    assert.deepEqual(errors, []);
    await context.close();
  });
});
