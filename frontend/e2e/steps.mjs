// Steps shared by the end-to-end suites: in the console (freeze, wait for live, map
// device coordinates to the page, wait for a session to show) and through the API
// (freeze, save annotations, a session with saved items).
import { api, waitFor } from './harness.mjs';

/** The live screen: the video canvas or the JPEG image, whichever shows. */
export const SCREEN = '.frame .screen:not(.hidden)';

/** Presses A and returns the Freeze payload the console received. */
export async function freeze(page) {
  const resp = page.waitForResponse((r) => r.url().includes('/api/preview/freeze') && r.request().method() === 'POST');
  await page.keyboard.press('a');
  const f = await (await resp).json();
  await waitFor(async () => (await page.locator('#previewFrameStatus').innerText()) === 'Frozen for annotation', { what: 'frozen badge' });
  await page.locator('.frame img').waitFor();
  return f;
}

/** Page coordinates of a device point on the frame. */
export async function toPage(page, f, x, y) {
  const box = await page.locator('.frame').boundingBox();
  return { x: box.x + (x / f.screen.width) * box.width, y: box.y + (y / f.screen.height) * box.height };
}

export async function clickNode(page, f, n) {
  const p = await toPage(page, f, (n.bounds.left + n.bounds.right) / 2, (n.bounds.top + n.bounds.bottom) / 2);
  await page.mouse.click(p.x, p.y);
}

export async function waitLive(page, server) {
  try {
    await waitFor(async () => (await page.locator('#previewFrameStatus').innerText()) === 'Live preview', { timeout: 20000, what: 'Live preview badge' });
  } catch (err) {
    // Say what the console and the server saw, so a failure in CI can be read.
    const seen = await page
      .evaluate(() => ({
        badge: document.querySelector('#previewFrameStatus')?.textContent,
        stage: document.querySelector('.stage')?.textContent?.replace(/\s+/g, ' ').slice(0, 300),
        events: window.FixThisConsoleDebug?.consoleEventsDiagnostics?.(),
      }))
      .catch((e) => ({ error: String(e) }));
    const log = server?.stderr?.().split('\n').slice(-15).join('\n') ?? '';
    throw new Error(`${err.message}\nconsole: ${JSON.stringify(seen)}\nserver log tail:\n${log}`);
  }
}

/** Drags a visual area between two device points. */
export async function dragArea(page, f, from, to) {
  const a = await toPage(page, f, from.x, from.y);
  const b = await toPage(page, f, to.x, to.y);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(b.x, b.y, { steps: 6 });
  await page.mouse.up();
}

/** The selected device's serial, once the server has selected one (the demo device). */
export async function selectedSerial(server) {
  const devices = await waitFor(async () => {
    const r = await api(server, 'GET', '/api/devices');
    return r.body.selectedSerial ? r.body : null;
  }, { timeout: 20000, what: 'a device selected' });
  return devices.selectedSerial;
}

/**
 * Freezes a device through the API, for tests that need a frame id: `serial`, or the
 * selected (demo) device once there is one.
 */
export async function freezeViaApi(server, sessionId, serial = '') {
  if (!serial) serial = await selectedSerial(server);
  const fr = await api(server, 'POST', '/api/preview/freeze', { serial, sessionId });
  if (fr.status !== 200) throw new Error(`freeze: ${fr.status} ${JSON.stringify(fr.body)}`);
  return fr.body;
}

/** The target of an annotation on a node of a frozen frame; `snapshot` adds what it showed. */
export function nodeTarget(node, { snapshot = false } = {}) {
  const t = { type: 'node', nodeUid: node.uid, bounds: node.bounds };
  if (snapshot) t.snapshot = { class: node.class, text: node.text, testTag: node.testTag };
  return t;
}

/**
 * Saves annotations on a frozen frame through the API, as the console's save does:
 * `items` are { target, severity, comment }, numbered d1, d2, … as draft keys. Returns
 * the response for the caller to judge.
 */
export function saveViaApi(server, frozen, { sessionId, workspaceId, items }) {
  return api(server, 'POST', '/api/items/batch', {
    sessionId,
    frozenId: frozen.frozenId,
    workspaceId,
    frozenFingerprint: frozen.screen?.fingerprint,
    items: items.map((it, i) => ({ draftItemId: `d${i + 1}`, ...it })),
  });
}

/**
 * A new session with annotations saved through the API on a frame frozen for it, the
 * live preview resumed after: `items(frozen)` gives the annotations for that frame.
 * Resolves with the session id, the frozen frame and the saved items.
 */
export async function sessionWithItems(server, { title, serial = '', workspaceId = `ws-${title}`, items }) {
  const created = await api(server, 'POST', '/api/sessions', { title });
  if (created.status !== 200) throw new Error(`create session: ${created.status} ${JSON.stringify(created.body)}`);
  const { sessionId } = created.body;
  const frozen = await freezeViaApi(server, sessionId, serial);
  const saved = await saveViaApi(server, frozen, { sessionId, workspaceId, items: items(frozen) });
  if (saved.status !== 200) throw new Error(`save: ${saved.status} ${JSON.stringify(saved.body)}`);
  await api(server, 'POST', '/api/preview/resume');
  return { sessionId, frozen, items: saved.body.items };
}

/**
 * Waits until the page shows its active session as the server has it: the session is
 * picked and each of its items has a row. Counting rows before that counts a list
 * still loading.
 */
export async function waitSessionShown(page, server) {
  return waitFor(async () => {
    const id = await page.evaluate(() => localStorage.getItem('fixthis.activeSessionId'));
    if (!id) return null;
    const items = (await api(server, 'GET', `/api/sessions/${id}`)).body?.session?.items ?? [];
    const rows = await page.locator('[data-item-id]').evaluateAll((els) => els.map((el) => el.getAttribute('data-item-id')));
    return rows.length === items.length && items.every((i) => rows.includes(i.itemId)) ? { sessionId: id, rows: rows.length } : null;
  }, { timeout: 15000, what: 'the active session shown with all its rows' });
}

/** Presses S on the frozen frame (save and back to live) and returns the active session's first saved item. */
export async function saveAndReadFirstItem(page, server) {
  await page.locator('.frame').focus();
  await page.keyboard.press('s');
  await waitFor(async () => (await page.locator('[data-item-id]').count()) === 1, { timeout: 15000, what: 'the saved row' });
  const sessionId = await page.evaluate(() => localStorage.getItem('fixthis.activeSessionId'));
  const { body } = await api(server, 'GET', `/api/sessions/${sessionId}`);
  return body.session.items[0];
}
