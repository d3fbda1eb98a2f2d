// The user's app from the console: the chip names the installed build, a notice says
// when another app has the screen (and Bring it back fixes that), and Run app builds
// with the project's (stub) Gradle wrapper, installs on the demo phone and brings the
// new build to the front while the progress bar shows the steps.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { before, it } from 'node:test';
import { TRAILHEAD, api, openConsole, shotPath, suite, waitFor } from './harness.mjs';
import { makeStubProject } from './stubproject.mjs';

suite('run the app from the console', { server: { demo: true, sources: TRAILHEAD } }, (env) => {
  let serial;

  function adbShell(...args) {
    const r = spawnSync('adb', ['-P', String(env.server.adbPort), '-s', serial, 'shell', ...args], { encoding: 'utf8', timeout: 15000 });
    assert.equal(r.status, 0, `adb shell ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  }

  before(async () => {
    // Slow enough that the progress bar can be seen: ~3 s of "Gradle".
    makeStubProject(env.server.projectDir, { versionName: '2.5.0', versionCode: 250, delay: 0.08 });
    serial = await waitFor(async () => {
      const r = await api(env.server, 'GET', '/api/devices');
      return r.body?.devices?.find((d) => d.state === 'device')?.serial;
    }, { timeout: 20000, what: 'the demo device online' });
  });

  it('shows the app, says when it is not in front, brings it back, and runs a new build', async (t) => {
    const { server, browser } = env;
    const { page, context, errors } = await openConsole(browser, server);
    const chip = page.locator('#appChip');
    await chip.waitFor({ timeout: 15000 });
    await waitFor(async () => (await page.locator('#appChipVersion').textContent())?.trim() === '2.4.1', { what: 'the installed versionName on the chip' });
    assert.equal((await page.locator('#appChipName').textContent()).trim(), 'Trailhead');
    assert.equal(await chip.getAttribute('data-stale'), 'false', 'sources copied just before the demo phone booted are not newer than its install');
    await page.locator('.topbar').screenshot({ path: shotPath('app-chip-1440.png') });

    // Another app takes the screen: the notice follows by an event, no reload, no
    // polling. The focus is read about once a second, so it usually comes within 2 s;
    // the figure is printed, not asserted, since a loaded machine stretches it.
    const before = await page.evaluate(() => window.FixThisConsoleDebug.consoleEventsDiagnostics().eventsByType['target-app-updated'] ?? 0);
    adbShell('input', 'keyevent', 'HOME');
    const pressed = Date.now();
    await page.locator('#appNotInFront').waitFor({ timeout: 15000 });
    t.diagnostic(`the not-in-front notice came ${Date.now() - pressed} ms after HOME`);
    assert.match(await page.locator('#appNotInFront').textContent(), /Trailhead is not in front/);
    assert.match(await page.locator('#appNotInFront').textContent(), /com\.google\.android\.apps\.nexuslauncher/);
    const afterEvents = await page.evaluate(() => window.FixThisConsoleDebug.consoleEventsDiagnostics().eventsByType['target-app-updated'] ?? 0);
    assert.ok(afterEvents > before, 'the notice came from a target-app-updated event');
    await page.screenshot({ path: shotPath('app-not-in-front-1440.png') });

    const narrow = await openConsole(browser, server, { width: 390, height: 844 });
    await narrow.page.locator('#appNotInFront').waitFor({ timeout: 10000 });
    await narrow.page.screenshot({ path: shotPath('app-not-in-front-390.png'), fullPage: false });
    await narrow.context.close();

    await page.locator('#bringTargetAppBackButton').click();
    await page.locator('#appNotInFront').waitFor({ state: 'detached', timeout: 10000 });
    assert.equal(await chip.getAttribute('data-foreground'), 'true');

    // Run app: progress while "Gradle" runs, then the new build in front.
    adbShell('input', 'keyevent', 'HOME');
    await page.locator('#appNotInFront').waitFor({ timeout: 5000 });
    await page.locator('#runTargetAppButton').click();
    const progress = page.locator('#appRunProgress');
    await progress.waitFor({ timeout: 5000 });
    await waitFor(async () => /Building · \d+ tasks · :app:/.test((await page.locator('#appRunStatus').textContent({ timeout: 1000 })) ?? ''), {
      timeout: 10000,
      what: 'Gradle task progress',
    });
    await page.screenshot({ path: shotPath('target-app-run-progress-1440.png'), clip: { x: 0, y: 0, width: 1440, height: 96 } });
    await progress.waitFor({ state: 'detached', timeout: 30000 });
    await waitFor(async () => (await page.locator('#appChipVersion').textContent())?.trim() === '2.5.0', { what: 'the new versionName on the chip' });
    await waitFor(async () => (await chip.getAttribute('data-foreground')) === 'true', { what: 'the app in front' });
    assert.equal(await page.locator('#appNotInFront').count(), 0);
    assert.match(adbShell('dumpsys', 'window', 'displays'), /mCurrentFocus=Window\{\S+ u0 com\.fixthis\.demo\//);
    assert.match(await page.locator('#error').textContent(), /Trailhead is installed and in front/);

    // An edit after the install marks the chip.
    const file = join(server.projectDir, 'app', 'src', 'main', 'java', 'com', 'fixthis', 'demo', 'MainActivity.kt');
    const later = new Date(Date.now() + 2 * 3600 * 1000);
    utimesSync(file, later, later);
    await page.locator('#appStaleMark').waitFor({ timeout: 10000 });
    assert.match(await page.locator('#appStaleMark').textContent(), /Installed 2 h before your last edit/);
    await page.locator('.topbar').screenshot({ path: shotPath('app-chip-stale-1440.png') });
    await page.setViewportSize({ width: 1680, height: 900 });
    await page.locator('.topbar').screenshot({ path: shotPath('app-chip-stale-1680.png') });
    const narrowChip = await openConsole(browser, server, { width: 390, height: 844 });
    await narrowChip.page.locator('#appStaleMark').waitFor({ timeout: 10000 });
    await narrowChip.page.locator('.topbar').screenshot({ path: shotPath('app-chip-390.png') });
    await narrowChip.context.close();

    assert.deepEqual(errors, []);
    await context.close();
  });
});
