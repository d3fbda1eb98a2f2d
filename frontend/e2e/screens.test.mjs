// Screens real phones show besides one portrait app window, against `fixthis serve
// --demo`: the demo app switches scenario on a broadcast (as `fixthis sim` documents),
// so one console follows the phone into landscape, a dialog, the keyboard and a
// FLAG_SECURE screen, and the prompt says what each one means for the agent.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, it } from 'node:test';
import { api, openConsole, shotPath, suite, waitFor } from './harness.mjs';
import { clickNode, freeze, selectedSerial, toPage, waitLive } from './steps.mjs';

const IME = 'Input method (keyboard), not the app';
const SECURE = 'This screen is protected (FLAG_SECURE): the mirror shows black; the UI tree still works';

suite('landscape, dialogs, the keyboard and protected screens', { server: { demo: true } }, (env) => {
  let serial;
  let page;
  let context;
  let errors;

  const adb = (...args) => {
    const r = spawnSync('adb', ['-P', String(env.server.adbPort), '-s', serial, ...args], { encoding: 'utf8', timeout: 20000 });
    assert.equal(r.status, 0, `adb ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const show = (name) => {
    const out = adb('shell', 'am', 'broadcast', '-a', 'com.fixthis.demo.SHOW_SCENARIO', '--es', 'scenario', name);
    assert.match(out, new RegExp(`result=-1, data="${name}"`), out);
  };
  const frameBox = () => page.locator('.frame').boundingBox();
  /** Writes a comment on the pending target and adds it to this freeze's draft. */
  const comment = async (text) => {
    await page.locator('#inspectorFooter[data-editor-state="pendingTarget"]').waitFor();
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
    await waitFor(async () => (await page.locator('[data-draft-item]').count()) === 1, { what: 'the draft row' });
  };
  /** S saves the drafts and goes back to the live preview. */
  const saveAndGoLive = async (saved) => {
    await page.locator('.frame').focus();
    await page.keyboard.press('s');
    await waitFor(async () => (await page.locator('[data-item-id]').count()) === saved, { timeout: 15000, what: `${saved} saved rows` });
    await waitLive(page, env.server);
  };
  const crumbBounds = async () =>
    (await page.locator('.crumbs .crumb').evaluateAll((els) => els.map((e) => e.getAttribute('title')))).map((t) => {
      const m = /(-?\d+),(-?\d+) – (-?\d+),(-?\d+)$/.exec(t);
      return { left: +m[1], top: +m[2], right: +m[3], bottom: +m[4] };
    });
  const inside = (b, w) => b.left >= w.left && b.top >= w.top && b.right <= w.right && b.bottom <= w.bottom;

  before(async () => {
    serial = await selectedSerial(env.server);
    ({ page, context, errors } = await openConsole(env.browser, env.server));
    await waitLive(page, env.server);
  });

  after(() => context?.close());

  it('turns the stage with the phone, and taps land where clicked', async () => {
    const portrait = await frameBox();
    assert.ok(portrait.height > portrait.width, 'portrait stage to start with');
    show('landscape'); // the phone turns while the console shows it live
    await waitFor(async () => {
      const b = await frameBox();
      return b.width > b.height * 1.5;
    }, { timeout: 10000, what: 'the stage to turn landscape' });
    await page.screenshot({ path: shotPath('screens-landscape-live-1440.png') });

    // A click on the second trail card in the live mirror taps that card on the phone:
    // 914 dp wide, the list-detail layout selects it in the pane beside the list. The
    // list shows one card at this height: a swipe on it brings the second up.
    adb('shell', 'input', 'swipe', '500', '640', '500', '420', '300');
    const dump = await waitFor(() => {
      const d = adb('exec-out', 'uiautomator', 'dump', '/dev/tty');
      return d.includes('text="Blue Lake Trail"') ? d : null;
    }, { what: 'the second card scrolled into view' });
    const m = /text="Blue Lake Trail"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"/.exec(dump);
    assert.ok(m, 'the landscape dump holds the second card');
    const f = { screen: { width: 2400, height: 1080 } };
    const p = await toPage(page, f, (+m[1] + +m[3]) / 2, (+m[2] + +m[4]) / 2);
    await page.mouse.click(p.x, p.y);
    await waitFor(async () => /text="Blue Lake Trail" resource-id="pane_trail_title"/.test(adb('exec-out', 'uiautomator', 'dump', '/dev/tty')), { what: 'the second trail in the detail pane after the tap' });

    const fr = await freeze(page);
    assert.equal(fr.screen.width, 2400);
    assert.equal(fr.screen.height, 1080);
    assert.equal(fr.screen.orientation, 'LANDSCAPE');
    assert.equal(fr.screen.rotation, 1);
    const title = fr.nodes.find((n) => n.testTag === 'pane_trail_title');
    assert.ok(title && title.text === 'Blue Lake Trail', 'the frozen landscape tree, the selected trail in its pane');
    await clickNode(page, fr, title);
    assert.match(await page.locator('.crumbs').innerText(), /Blue Lake Trail/);
    await comment('In landscape the pane title is too close to the photo');
    await page.screenshot({ path: shotPath('screens-landscape-frozen-1440.png') });
    await saveAndGoLive(1);
  });

  it('picks inside a dialog without climbing into the window behind it', async () => {
    show('dialog');
    await waitFor(async () => (await frameBox()).height > (await frameBox()).width, { what: 'portrait again' });
    const fr = await freeze(page);
    const dialog = fr.screen.windows.find((w) => w.type === 'dialog' && w.visible);
    assert.ok(dialog?.focused, `a focused dialog window in ${JSON.stringify(fr.screen.windows)}`);
    assert.ok(fr.nodes.every((n) => inside(n.bounds, dialog.bounds)), 'the tree is the dialog window only');
    const del = fr.nodes.find((n) => n.text === 'Delete');
    await clickNode(page, fr, del);
    const crumbs = await crumbBounds();
    assert.ok(crumbs.length >= 2, 'the breadcrumb has ancestors');
    assert.ok(crumbs.every((b) => inside(b, dialog.bounds)), `every crumb lies in the dialog ${JSON.stringify(crumbs)}`);
    await comment('Make Delete red');
    await page.screenshot({ path: shotPath('screens-dialog-1440.png') });
    await saveAndGoLive(2);
  });

  it('says a pick on the keyboard is the input method', async () => {
    show('keyboard');
    const fr = await freeze(page);
    assert.equal(fr.screen.imeVisible, true);
    const ime = fr.screen.windows.find((w) => w.type === 'ime' && w.visible);
    assert.ok(ime && ime.bounds.bottom === fr.screen.height, 'the keyboard window at the bottom');
    // The dump still has the app's nodes under the keys; the pick is the input method's.
    const under = fr.nodes.find((n) => n.testTag === 'offline_checkbox');
    assert.ok(under.bounds.bottom > ime.bounds.top, 'a node of the app reaches under the keyboard');
    const key = await toPage(page, fr, fr.screen.width / 2, (ime.bounds.top + ime.bounds.bottom) / 2);
    await page.mouse.move(key.x, key.y);
    await page.locator('#windowHint').waitFor();
    assert.match(await page.locator('#windowHint').innerText(), /Input method \(keyboard\)/);
    await page.mouse.click(key.x, key.y);
    await page.locator('#inspectorFooter[data-editor-state="pendingTarget"]').waitFor();
    assert.match(await page.locator('.crumbs').innerText(), new RegExp(IME.replace(/[()]/g, '\\$&')));
    await page.screenshot({ path: shotPath('screens-keyboard-1440.png') });
    await page.keyboard.press('Escape');
    // The part of the checkbox row above the keys picks the app's node.
    const p = await toPage(page, fr, (under.bounds.left + under.bounds.right) / 2, (under.bounds.top + Math.min(under.bounds.bottom, ime.bounds.top)) / 2);
    await page.mouse.click(p.x, p.y);
    await comment('The offline map option hides under the keyboard');
    await saveAndGoLive(3);
  });

  it('explains a protected screen and still picks by the tree', async () => {
    show('secure');
    await page.locator('#secureNotice').waitFor({ timeout: 10000 });
    assert.equal(await page.locator('#secureNotice').innerText(), SECURE);
    await page.screenshot({ path: shotPath('screens-secure-live-1440.png') });
    const fr = await freeze(page);
    assert.equal(fr.screen.secure, true);
    assert.equal(await page.locator('#secureNotice').innerText(), SECURE, 'the notice stays on the frozen frame');
    // The frame is black, the tree is not: Tab walks it and Enter picks.
    await page.keyboard.press('Tab');
    let found = false;
    for (let i = 0; i < 30 && !found; i++) {
      if ((await page.locator('#keyCursorHint .key-label').innerText()).includes('Sign in')) found = true;
      else await page.keyboard.press('Tab');
    }
    assert.ok(found, 'Tab reaches "Sign in"');
    await page.keyboard.press('Enter');
    await comment('Sign in button is too low');
    await page.screenshot({ path: shotPath('screens-secure-frozen-1440.png') });
    await saveAndGoLive(4);
  });

  it('tells the agent about each screen in the prompt', async () => {
    const sessionId = await page.evaluate(() => localStorage.getItem('fixthis.activeSessionId'));
    const r = await api(env.server, 'POST', `/api/sessions/${sessionId}/handoff-preview`, {});
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const md = r.body.markdown;
    assert.match(md, /^orientation: landscape {2}rotation=1$/m);
    assert.match(md, /^window: dialog "com\.fixthis\.demo\/com\.fixthis\.demo\.MainActivity" \(targets are inside this dialog/m);
    assert.match(md, /^keyboard: shown {2}box=\(0,\d+\)-\(1080,2400\)$/m);
    assert.match(md, /^ {2}warning: under-keyboard: /m);
    assert.match(md, /^screenshot: unavailable \(FLAG_SECURE: /m);
    assert.deepEqual(errors.filter((e) => !/404/.test(e)), []);
  });
});
