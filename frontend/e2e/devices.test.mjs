// Devices and the live preview against real simulated phones on a private adb server:
// the picker follows sims coming and going, Select-mode clicks tap the device, and
// Annotate freezes the frame.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, it } from 'node:test';
import { api, openConsole, shotPath, startSim, suite, waitFor } from './harness.mjs';
import { SCREEN, freezeViaApi, waitLive } from './steps.mjs';

/** The device rows the picker shows: serial → state. */
async function pickerRows(page) {
  return page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll('[role="listbox"] [role="option"]')].map((el) => [
        el.querySelector('.mono')?.textContent ?? '',
        el.querySelector('.status-dot')?.getAttribute('data-state') ?? '',
      ]),
    ),
  );
}

suite('devices and live preview', { server: { demo: false } }, (env) => {
  const sims = [];
  after(() => {
    for (const s of sims) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  });

  it('lists two simulated phones and notices within 2 s when one dies', async () => {
    const { server, browser } = env;
    const { page, context, errors } = await openConsole(browser, server);
    sims.push(await startSim(server), await startSim(server));
    await page.locator('.chip-main').click();
    await waitFor(async () => {
      const rows = await pickerRows(page);
      return sims.every((s) => rows[s.serial] === 'device');
    }, { timeout: 10000, what: 'both sims listed online' });
    await page.screenshot({ path: shotPath('devices-two-sims.png') });

    const victim = sims[1];
    const killedAt = Date.now();
    victim.child.kill('SIGKILL');
    // adb keeps a dead network device listed as offline; either way it is no longer usable.
    await waitFor(async () => (await pickerRows(page))[victim.serial] !== 'device', { timeout: 2000, interval: 50, what: 'killed sim no longer online' });
    const took = Date.now() - killedAt;
    console.log(`# killed sim left the online list after ${took} ms`);
    const rows = await pickerRows(page);
    assert.equal(rows[sims[0].serial], 'device', 'the other sim stays online');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('says a selected phone is gone, offers the other, and brings it back after the adb server dies', async () => {
    const { server, browser } = env;
    const { page, context, errors } = await openConsole(browser, server);
    // The video stream of a dying phone is refused (409/502), and so is a read of its
    // display settings already on its way when it died (409); no other request may fail.
    const refused = [];
    const dying = (r) => r.url().includes('/api/preview/stream') || (r.status() === 409 && r.url().includes('/api/display?'));
    page.on('response', (r) => r.status() >= 400 && !dying(r) && refused.push(`${r.status()} ${r.url()}`));
    const doomed = await startSim(server);
    sims.push(doomed);
    await waitFor(async () => (await api(server, 'GET', '/api/devices')).body.devices.some((d) => d.serial === doomed.serial && d.state === 'device'), { what: 'third sim online' });
    await api(server, 'POST', '/api/device/select', { serial: doomed.serial });
    doomed.child.kill('SIGKILL');
    const notice = page.locator('#error .msg', { hasText: `${doomed.serial}) is gone` });
    await notice.waitFor({ timeout: 10000 });
    await page.screenshot({ path: shotPath('devices-selected-gone.png') });
    const use = notice.locator('[data-action="use-offered-device"]');
    assert.match(await use.innerText(), /^Use /);
    await use.click();
    await waitFor(async () => (await api(server, 'GET', '/api/devices')).body.selectedSerial === sims[0].serial, { what: 'the offered phone selected' });
    await notice.waitFor({ state: 'detached', timeout: 5000 });

    // The adb server dies: FixThis starts it again and connects the network phone it had.
    spawnSync('adb', ['-P', String(server.adbPort), 'kill-server'], { stdio: 'ignore', timeout: 5000 });
    await waitFor(async () => {
      const l = (await api(server, 'GET', '/api/devices')).body;
      return l.adbServerUp && l.selectedSerial === sims[0].serial && l.devices.some((d) => d.serial === sims[0].serial && d.state === 'device');
    }, { timeout: 30000, interval: 200, what: 'the network phone back after the adb server restart' });
    await page.locator('.chip-main').click();
    await waitFor(async () => (await pickerRows(page))[sims[0].serial] === 'device', { timeout: 5000, what: 'the phone back in the picker' });
    assert.deepEqual(refused, []);
    assert.deepEqual(errors.filter((e) => !/^Failed to load resource/.test(e)), []);
    await context.close();
  });

  it('taps the device in Select mode and freezes on Annotate', async () => {
    const { server, browser } = env;
    const { page, context, errors } = await openConsole(browser, server);
    await api(server, 'POST', '/api/device/select', { serial: sims[0].serial });
    await waitLive(page, server);
    await page.locator(SCREEN).waitFor();
    const painted = () => page.evaluate(() => window.FixThisConsoleDebug.previewStats().framesPainted);
    const before = await painted();

    // Where is a trail card? Ask the device once, then go back to live.
    const f = await freezeViaApi(server, undefined, sims[0].serial);
    await api(server, 'POST', '/api/preview/resume');
    const card = f.nodes.find((n) => /^trail_card_\d+$/.test(n.testTag || ''));
    assert.ok(card, 'the demo list shows trail cards');
    const box = await page.locator('.frame').boundingBox();
    const cx = (card.bounds.left + card.bounds.right) / 2;
    const cy = (card.bounds.top + card.bounds.bottom) / 2;
    const tap = page.waitForRequest((r) => r.url().includes('/api/preview/tap'));
    await page.mouse.click(box.x + (cx / f.screen.width) * box.width, box.y + (cy / f.screen.height) * box.height);
    const body = JSON.parse((await tap).postData());
    assert.ok(Math.abs(body.x - cx) < 12 && Math.abs(body.y - cy) < 12, `tap at device (${body.x},${body.y}), expected near (${cx},${cy})`);
    await waitFor(async () => (await painted()) > before, { timeout: 5000, what: 'a new preview frame after the tap' });
    await page.screenshot({ path: shotPath('devices-after-tap.png') });

    await page.keyboard.press('a');
    await waitFor(async () => (await page.locator('#previewFrameStatus').innerText()) === 'Frozen for annotation', { timeout: 15000, what: 'frozen badge' });
    assert.deepEqual(errors, []);
    await context.close();
  });
});
