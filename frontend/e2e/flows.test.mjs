// The annotate → save → hand off workflow, recovery, live sync and the compact drawer,
// against a real `fixthis serve --demo` (the built-in simulated phone).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { api, openConsole, shotPath, suite, waitFor } from './harness.mjs';
import { clickNode, freeze, toPage, waitLive, waitSessionShown } from './steps.mjs';

const diag = (page) => page.evaluate(() => window.FixThisConsoleDebug.consoleEventsDiagnostics());

/** A text node inside a smaller container (a list card), so the breadcrumb has ancestors. */
function textNode(f, skip = 0) {
  const byUid = new Map(f.nodes.map((n) => [n.uid, n]));
  const area = (b) => (b.right - b.left) * (b.bottom - b.top);
  const screen = f.screen.width * f.screen.height;
  const n = f.nodes.filter((n) => {
    const parent = byUid.get(n.parentUid);
    return n.text && parent && area(parent.bounds) < screen / 4 && n.bounds.top > 300;
  })[skip];
  assert.ok(n, 'the demo screen has a text node');
  return n;
}

suite('annotation workflow', { server: { demo: true } }, (env) => {
  it('picks a node, re-scopes with the breadcrumb, drags an area, and hands off', async () => {
    const { server, browser } = env;
    const { page, errors, context } = await openConsole(browser, server);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await waitLive(page, server);
    const f = await freeze(page);
    assert.ok(f.nodes.length > 0, 'freeze returns the UI tree');

    // 1. node pick → pending target, comment focused at once, Enter adds.
    const n = textNode(f);
    await clickNode(page, f, n);
    await page.locator('#inspectorFooter[data-editor-state="pendingTarget"]').waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'annotationComment');
    assert.equal(await page.locator('#inspectorFooter [data-action="cancel"]').innerText(), 'Cancel');
    assert.equal(await page.locator('#inspectorFooter [data-action="addAnnotation"]').innerText(), 'Add annotation');
    await page.keyboard.type('Make this title bolder');
    await page.keyboard.press('Enter');
    await waitFor(async () => (await page.locator('[data-draft-item]').count()) === 1, { what: 'first draft row' });

    // 2. another node, re-scoped to its outermost ancestor crumb.
    const n2 = textNode(f, 1);
    await clickNode(page, f, n2);
    const crumbs = page.locator('.crumbs .crumb');
    assert.ok((await crumbs.count()) >= 2, 'breadcrumb shows ancestors');
    await crumbs.first().hover();
    await crumbs.first().click();
    await page.keyboard.type('Whole card needs more padding');
    await page.locator('#inspectorFooter [data-action="addAnnotation"]').click();

    // 3. a dragged visual area.
    const a = await toPage(page, f, f.screen.width * 0.1, f.screen.height * 0.6);
    const b = await toPage(page, f, f.screen.width * 0.4, f.screen.height * 0.7);
    await page.mouse.move(a.x, a.y);
    await page.mouse.down();
    await page.mouse.move(b.x, b.y, { steps: 6 });
    await page.mouse.up();
    await page.locator('#inspectorFooter[data-editor-state="pendingTarget"]').waitFor();
    await page.keyboard.type('This area looks empty');
    await page.keyboard.press('Enter');
    await waitFor(async () => (await page.locator('[data-draft-item]').count()) === 3, { what: 'three draft rows' });
    assert.equal(await page.locator('.frame button.pin').count(), 3, 'three numbered pins');
    assert.match(await page.locator('#promptReadiness').innerText(), /3 annotations ready/);
    await page.screenshot({ path: shotPath('flow-annotated-1440.png') });

    // Copy Prompt persists and copies.
    const batch = page.waitForRequest((r) => r.url().includes('/api/items/batch'));
    await page.locator('#copyPromptButton').click();
    const sent = JSON.parse((await batch).postData());
    assert.equal(sent.items.length, 3);
    assert.ok(sent.workspaceId && sent.items.every((i) => i.draftItemId), 'client draft keys sent');
    const rescoped = sent.items.find((i) => i.comment.startsWith('Whole card'));
    assert.equal(rescoped.target.type, 'node');
    assert.equal(rescoped.target.nodeUid, n2.parentUid, 'breadcrumb re-scope saves the ancestor');
    await waitFor(async () => (await page.locator('[data-item-id]').count()) === 3, { what: 'three saved rows' });

    const sessionId = await page.evaluate(() => localStorage.getItem('fixthis.activeSessionId'));
    assert.ok(sessionId, 'the saves opened a session');
    const prompt = await waitFor(async () => {
      const dialog = page.locator('#promptFallbackText');
      if (await dialog.count()) return dialog.inputValue();
      const clip = await page.evaluate(() => navigator.clipboard.readText().catch(() => ''));
      return clip.includes('FixThis') ? clip : '';
    }, { what: 'copied prompt' });
    assert.match(prompt, /# FixThis Feedback Handoff/);
    assert.match(prompt, /Make this title bolder/);
    if (await page.locator('#clipboardFallbackDialog').count()) await page.keyboard.press('Escape');

    // Save to MCP → rows become "sent".
    await page.locator('#sendAgentButton').click();
    await waitFor(async () => (await page.locator('[data-item-id][data-phase="sent"]').count()) === 3, { what: 'rows sent' });
    await waitLive(page, server);
    await page.screenshot({ path: shotPath('flow-sent-1440.png') });
    assert.deepEqual(errors.filter((e) => !/404/.test(e)), []);
    await context.close();
  });

  it('offers Recover after a reload with a pending draft', async () => {
    const { server, browser } = env;
    const { page, context } = await openConsole(browser, server);
    await waitLive(page, server);
    const f = await freeze(page);
    await clickNode(page, f, textNode(f));
    await page.locator('#inspectorFooter[data-editor-state="pendingTarget"]').waitFor();
    await page.keyboard.type('Kept across reloads');
    await page.keyboard.press('Enter');
    await waitFor(async () => (await page.locator('[data-draft-item]').count()) === 1, { what: 'draft row' });
    await page.reload();
    const banner = page.locator('#draftRecoveryBanner');
    await banner.waitFor({ timeout: 10000 });
    assert.equal(await page.locator('[data-draft-item]').count(), 0, 'never restored silently');
    assert.deepEqual(await banner.locator('button').allInnerTexts(), ['Recover', 'Recapture', 'Discard']);
    await page.screenshot({ path: shotPath('flow-recovery-1440.png') });
    await banner.locator('[data-action="recover"]').click();
    await waitFor(async () => (await page.locator('[data-draft-item]').count()) === 1, { what: 'recovered row' });
    // The row comes back at once, the frozen frame once its image has loaded (until
    // then the badge says No screenshot).
    await waitFor(async () => (await page.locator('#previewFrameStatus').innerText()) === 'Frozen for annotation', { what: 'the recovered frame frozen' });
    // Leave it clean for the next test: discard the draft.
    await page.locator('[data-draft-item]').click();
    await page.locator('#inspectorFooter [data-action="removeDraft"]').click();
    await page.keyboard.press('s');
    await context.close();
  });

  it('updates a second tab through SSE with zero polling', async () => {
    const { server, browser } = env;
    const { context, page: a } = await openConsole(browser, server);
    await waitLive(a, server);
    const b = await context.newPage();
    await b.goto(server.consoleUrl);
    await waitFor(async () => (await diag(b)).connected, { what: 'tab B connected' });
    // Connected is not loaded: the session's rows come after the snapshot. Counting
    // them earlier counts a list that is still filling.
    const { rows: rowsBefore } = await waitSessionShown(b, server);
    const before = await diag(b);

    const f = await freeze(a);
    await clickNode(a, f, textNode(f));
    await a.locator('#inspectorFooter[data-editor-state="pendingTarget"]').waitFor();
    await a.keyboard.type('Seen from the other tab');
    await a.keyboard.press('Enter');
    const saved = a.waitForResponse((r) => r.url().includes('/api/items/batch'));
    await a.keyboard.press('s'); // back to live: written annotations are saved as drafts
    assert.equal((await saved).status(), 200);
    await waitFor(async () => (await b.locator('[data-item-id]').count()) === rowsBefore + 1, { what: 'row in tab B', timeout: 5000 });
    const after = await diag(b);
    assert.equal(after.connected, true);
    assert.equal(after.pollsPreview, before.pollsPreview, 'no preview polling under healthy SSE');
    assert.equal(after.pollsSessions, before.pollsSessions, 'no session polling under healthy SSE');
    assert.equal(after.fetchSessions, before.fetchSessions, 'no /api/sessions fetches under healthy SSE');
    assert.equal(after.fetchPreview, before.fetchPreview, 'no /api/preview fetches under healthy SSE');
    assert.ok(after.eventsReceived > before.eventsReceived);
    await context.close();
  });

  it('opens history as a drawer in the compact layout without changing the session', async () => {
    const { server, browser } = env;
    const { page, context } = await openConsole(browser, server, { width: 800, height: 900 });
    await page.locator('#historyToggleButton').waitFor();
    assert.equal(await page.locator('#historyPane').count(), 0);
    // The console picks the newest session on load; wait until it has, then compare.
    const active = await waitFor(() => page.evaluate(() => localStorage.getItem('fixthis.activeSessionId')), { what: 'an active session' });
    await page.locator('#historyToggleButton').click();
    await page.locator('#historyPane.drawer').waitFor();
    assert.ok((await page.locator('#historyPane [data-session-id]').count()) >= 1);
    await page.screenshot({ path: shotPath('flow-drawer-800.png') });
    await page.keyboard.press('Escape');
    await waitFor(async () => (await page.locator('#historyPane').count()) === 0, { what: 'drawer closed' });
    assert.equal(await page.evaluate(() => localStorage.getItem('fixthis.activeSessionId')), active);
    await context.close();
  });

  it('asks what to do when the screen changed since the freeze', async () => {
    const { server, browser } = env;
    const { page, context } = await openConsole(browser, server);
    await waitLive(page, server);
    const f = await freeze(page);
    const n = textNode(f);
    await clickNode(page, f, n);
    await page.locator('#inspectorFooter[data-editor-state="pendingTarget"]').waitFor();
    await page.keyboard.type('Stale by now');
    await page.keyboard.press('Enter');
    // Navigate the device behind the frozen frame: a trail card opens its detail screen.
    const clickable = f.nodes.find((x) => /^trail_card_\d+$/.test(x.testTag || ''));
    assert.ok(clickable, 'a trail card on the demo list screen');
    await api(server, 'POST', '/api/preview/tap', { x: (clickable.bounds.left + clickable.bounds.right) / 2, y: (clickable.bounds.top + clickable.bounds.bottom) / 2 });
    await page.waitForTimeout(800);
    const saved = page.waitForResponse((r) => r.url().includes('/api/items/batch'));
    await page.locator('#sendAgentButton').click();
    assert.equal((await saved).status(), 409, 'the server refuses a save for a screen the device has left');
    const dialog = page.locator('#fingerprintMismatchDialog');
    await dialog.waitFor({ timeout: 10000 });
    assert.deepEqual(await dialog.locator('.actions button').allInnerTexts(), ['Cancel', 'Force save', 'Re-capture']);
    await page.screenshot({ path: shotPath('flow-mismatch-1440.png') });
    await dialog.locator('[data-action="cancel"]').click();
    assert.equal(await page.locator('[data-draft-item]').count(), 1, 'cancel keeps the draft');
    await context.close();
  });
});
