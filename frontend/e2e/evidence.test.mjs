// Runtime diagnostics end to end: a real `fixthis serve` and a separate simulated phone
// (`fixthis sim --connect --outputs DIR`) on a private adb server, the console in
// Chromium. Auto collects on Save to MCP (the app crashed, its process is gone), Manual
// skips it and keeps Capture diagnostics, Off disables it; a collector stuck past its
// timeout makes the capture partial, and what is stored on disk is redacted.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { api, openConsole, repoRoot, shotPath, startSim, suite, waitFor } from './harness.mjs';
import { nodeTarget, sessionWithItems } from './steps.mjs';

const PKG = 'com.fixthis.demo';

function adb(server, serial, ...args) {
  const r = spawnSync('adb', ['-P', String(server.adbPort), '-s', serial, ...args], { encoding: 'utf8', timeout: 15000 });
  assert.equal(r.status, 0, `adb ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** A session with one saved draft annotation on the phone's current screen. */
async function savedDraft(server, serial, title) {
  const { sessionId, items } = await sessionWithItems(server, {
    title,
    serial,
    items: (f) => [{ target: nodeTarget(f.nodes.find((n) => n.text && n.bounds.top > 300) ?? f.nodes[1]), severity: 'med', comment: `Check ${title}` }],
  });
  return { sessionId, itemId: items[0].itemId };
}

/** The console on a session; a 409 the console reports (and handles) is no error here. */
const openOn = (browser, server, sessionId) => openConsole(browser, server, { sessionId, ignore: /status of 409/ });

suite('runtime diagnostics', { server: { demo: false } }, (env) => {
  let phone;
  let outputs;

  before(async () => {
    const { server } = env;
    outputs = mkdtempSync(join(tmpdir(), 'fixthis-outputs-'));
    phone = await startSim(server, { outputs });
    await waitFor(async () => {
      const r = await api(server, 'GET', '/api/devices');
      if (r.body.selectedSerial === phone.serial) return true;
      if (r.body.devices?.some((d) => d.serial === phone.serial && d.state === 'device')) await api(server, 'POST', '/api/device/select', { serial: phone.serial });
      return false;
    }, { timeout: 20000, what: 'the simulated phone selected' });
  });

  after(() => {
    phone?.child.kill('SIGINT');
    rmSync(outputs, { recursive: true, force: true });
  });

  it('Auto collects on Save to MCP: the crash, and a process that is gone', async () => {
    const { server, browser } = env;
    const { sessionId, itemId } = await savedDraft(server, phone.serial, 'auto');
    adb(server, phone.serial, 'shell', 'am', 'crash', PKG);
    const { context, page, errors } = await openOn(browser, server, sessionId);
    await page.locator('#sendAgentButton:not([disabled])').waitFor();
    const resp = page.waitForResponse((r) => r.url().includes('/api/agent-handoffs'));
    await page.locator('#sendAgentButton').click();
    const body = await (await resp).json();
    assert.equal(body.runtimeEvidence.decision.status, 'partial', JSON.stringify(body.runtimeEvidence));
    const status = page.locator('#error .msg[data-kind="success"] .text');
    await waitFor(async () => /Saved to MCP: 1 annotation\..*Diagnostics partial: collected log, network \(frames: process not running, memory: process not running\)\./.test(await status.innerText()), { what: 'success status naming what Auto collected' });
    assert.match(body.prompt, /\n {4}- logcat -> \.fixthis\/runtime-evidence\/[^\n]+\/logcat\.txt\n {6}summary: crash: android\.app\.RemoteServiceException\$CrashedByAdbException: shell-induced crash;/);
    assert.match(body.prompt, /\nruntimeEvidenceAttempt:\n {2}attempted=true\n {2}status=partial\n {2}warning=frames-process-not-running\n {2}warning=memory-process-not-running\n$/);

    await page.locator(`[data-item-id="${itemId}"]`).click();
    const section = page.locator('#runtimeEvidence');
    await section.locator('.attempt[data-status="partial"]').waitFor();
    assert.equal(await page.locator('#collectRuntimeEvidenceButton').innerText(), 'Capture again');
    assert.match(await section.locator('li[data-kind="logcat"]').innerText(), /shell-induced crash/);
    assert.match(await section.locator('li[data-kind="memory"]').innerText(), /process is not running/);
    assert.match(await section.locator('[data-role="artifactDir"]').innerText(), new RegExp(`^\\.fixthis/runtime-evidence/${sessionId}/rc-[0-9a-f]+/$`));
    assert.match(await section.locator('.muted').first().innerText(), /Auto \(Save to MCP\) · \d+ s after the freeze/);
    await page.screenshot({ path: shotPath('evidence-auto.png') });
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('Manual skips Save to MCP and captures on demand; Off disables the button', async () => {
    const { server, browser } = env;
    adb(server, phone.serial, 'shell', 'am', 'start', '-n', `${PKG}/.MainActivity`);
    const { sessionId, itemId } = await savedDraft(server, phone.serial, 'manual');
    const { context, page, errors } = await openOn(browser, server, sessionId);
    await page.locator('#runtimeEvidencePolicy button[data-value="manual"]').click();
    await waitFor(async () => (await page.locator('#runtimeEvidencePolicy').getAttribute('data-policy')) === 'manual', { what: 'Manual policy' });
    await waitFor(async () => (await api(server, 'GET', `/api/sessions/${sessionId}`)).body.session.runtimeEvidencePolicy === 'manual', { what: 'policy stored' });
    await page.locator('#sendAgentButton:not([disabled])').click();
    const status = page.locator('#error .msg[data-kind="success"] .text');
    await waitFor(async () => (await status.innerText()).includes('Diagnostics: Manual, nothing collected automatically.'), { what: 'Manual status' });

    await page.locator(`[data-item-id="${itemId}"]`).click();
    const button = page.locator('#collectRuntimeEvidenceButton');
    await page.locator('#runtimeEvidence [data-reason="none"]').waitFor();
    assert.equal(await button.innerText(), 'Capture diagnostics');
    await button.click();
    const section = page.locator('#runtimeEvidence');
    await section.locator('.attempt[data-status="complete"]').waitFor();
    assert.match(await section.locator('li[data-kind="frames"]').innerText(), /\d+ frames, \d+ janky \([\d.]+%\); p50 7ms p90 11ms p95 14ms p99 27ms/);
    assert.match(await section.locator('li[data-kind="memory"]').innerText(), /TOTAL PSS \d+ KB \(Java heap \d+ KB, native heap 21820 KB\)/);
    assert.equal(await button.innerText(), 'Capture again');

    await page.locator('#runtimeEvidencePolicy button[data-value="off"]').click();
    await waitFor(async () => await button.isDisabled(), { what: 'button disabled under Off' });
    await section.locator('[data-reason="off"]').waitFor();
    // The page shows Off as soon as it is clicked; the refusal below needs it stored.
    await waitFor(async () => (await api(server, 'GET', `/api/sessions/${sessionId}`)).body.session.runtimeEvidencePolicy === 'off', { what: 'Off stored' });
    const refused = await api(server, 'POST', `/api/items/${itemId}/runtime-evidence/collect`);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error, 'runtime_evidence_off');
    await page.screenshot({ path: shotPath('evidence-off.png') });
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('a collector that times out makes the capture partial; the stored log is redacted', async () => {
    const { server, browser } = env;
    const { sessionId, itemId } = await savedDraft(server, phone.serial, 'slow');
    await api(server, 'PUT', `/api/sessions/${sessionId}`, { runtimeEvidencePolicy: 'manual' });
    copyFileSync(join(repoRoot, 'app', 'evidence', 'testdata', 'logcat_crash.txt'), join(outputs, 'logcat.txt'));
    writeFileSync(join(outputs, 'dumpsys_meminfo.delay'), '10s');
    try {
      const { context, page, errors } = await openOn(browser, server, sessionId);
      await page.locator(`[data-item-id="${itemId}"]`).click();
      const started = Date.now();
      await page.locator('#collectRuntimeEvidenceButton').click();
      const section = page.locator('#runtimeEvidence');
      await section.locator('.attempt[data-status="partial"]').waitFor({ timeout: 8000 });
      assert.ok(Date.now() - started < 3500, `capture took ${Date.now() - started} ms`);
      assert.match(await section.locator('.warnings').innerText(), /memory: timeout/);
      assert.match(await section.locator('li[data-kind="logcat"]').innerText(), /crash: java\.lang\.IllegalStateException: Trail 42 has no start point at com\.fixthis\.demo\.ui\.format\.TrailFormatKt\.formatDistance/);
      const dir = (await section.locator('[data-role="artifactDir"]').innerText()).replace(/\/$/, '');
      const file = join(server.projectDir, dir, 'logcat.txt');
      assert.equal(statSync(file).mode & 0o777, 0o600);
      const stored = readFileSync(file, 'utf8');
      for (const secret of ['ana.lopez@example.com', 'session=9f8e7d6c', 'near=47.61']) assert.ok(!stored.includes(secret), `${secret} stored`);
      assert.match(stored, /signed in as \[REDACTED\]/);
      assert.ok(!(await section.innerText()).includes('ana.lopez'), 'the console shows no raw output');
      assert.deepEqual(errors, []);
      await context.close();
    } finally {
      rmSync(join(outputs, 'logcat.txt'), { force: true });
      rmSync(join(outputs, 'dumpsys_meminfo.delay'), { force: true });
    }
  });
});
