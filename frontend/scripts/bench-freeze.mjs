// Freeze → nodes in the console, for an app without a sidekick (the tree comes from
// uiautomator, as for every app): Chromium opens the console on a simulated Pixel 7a
// with the default latency model (uiautomator ≈ 800 ms) running a copy of the demo
// app with "sidekick": false; the screen stands still 2 s, then A is pressed. Timed in
// the page, one clock: the keydown to the freeze's JSON (frame, screen and nodes)
// having arrived, and to the frozen badge showing; then S goes back to live. Prints the
// median and p90 against the 300 ms budget, and the phone's uiautomator runs (its
// logcat) over all freezes. Called by scripts/bench.sh; BENCH_FREEZES (default 10).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { BIN, api, launchBrowser, openConsole, prerequisites, repoRoot, startServer, waitFor } from '../e2e/harness.mjs';
import { waitLive } from '../e2e/steps.mjs';

const N = Number(process.env.BENCH_FREEZES || 10);
const BUDGET_MS = 300;
const STILL_MS = 2000;
const missing = prerequisites();
if (missing.length) {
  console.log(`  (freeze → nodes in the console: missing ${missing.join(', ')})`);
  process.exit(0);
}

const dir = mkdtempSync(join(os.tmpdir(), 'fixthis-bench-freeze-'));
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
let server;
let sim;
let browser;
try {
  const scenario = join(dir, 'nosidekick');
  cpSync(join(repoRoot, 'sim', 'scenario', 'demo'), scenario, { recursive: true });
  const spec = join(scenario, 'scenario.json');
  writeFileSync(spec, readFileSync(spec, 'utf8').replace(/"sidekick": *true/, '"sidekick": false'));
  server = await startServer({ demo: false });
  sim = spawn(BIN, ['sim', '--connect', '--json', '--scenario', scenario], { env: server.env, stdio: ['ignore', 'pipe', 'ignore'] });
  const serial = await new Promise((res, rej) => {
    let buf = '';
    sim.stdout.on('data', (d) => {
      buf += d;
      if (buf.includes('\n')) res(JSON.parse(buf.slice(0, buf.indexOf('\n'))).serial);
    });
    sim.on('exit', (code) => rej(new Error(`fixthis sim exited with ${code}`)));
  });
  const dumps = () => {
    const out = spawnSync('adb', ['-s', serial, 'logcat', '-d'], { env: server.env, encoding: 'utf8', maxBuffer: 64 << 20 }).stdout || '';
    return new Set(out.split('\n').filter((l) => l.includes('com.android.commands.uiautomator.Launcher')));
  };
  await api(server, 'POST', '/api/device/select', { serial });
  browser = await launchBrowser();
  const { page, context } = await openConsole(browser, server, {
    init: () => {
      window.__freeze = { t0: 0, badge: 0 };
      document.addEventListener('keydown', (e) => {
        if (e.key === 'a') window.__freeze = { t0: e.timeStamp, badge: 0 };
      }, true);
      new MutationObserver(() => {
        const f = window.__freeze;
        if (f.t0 && !f.badge && document.querySelector('#previewFrameStatus')?.textContent === 'Frozen for annotation') f.badge = performance.now();
      }).observe(document, { subtree: true, childList: true, characterData: true });
    },
  });
  await waitLive(page, server);
  const before = dumps();
  const toNodes = [];
  const toBadge = [];
  let last;
  for (let i = 0; i < N; i++) {
    await page.waitForTimeout(STILL_MS);
    const resp = page.waitForResponse((r) => r.url().includes('/api/preview/freeze') && r.request().method() === 'POST');
    await page.keyboard.press('a');
    last = await (await resp).json();
    await waitFor(() => page.evaluate(() => window.__freeze.badge > 0), { what: 'frozen badge' });
    const t = await page.evaluate(() => {
      const e = performance.getEntriesByType('resource').filter((r) => r.name.includes('/api/preview/freeze')).at(-1);
      return { nodes: e.responseEnd - window.__freeze.t0, badge: window.__freeze.badge - window.__freeze.t0 };
    });
    toNodes.push(t.nodes);
    toBadge.push(t.badge);
    await page.keyboard.press('s');
    await waitLive(page, server);
  }
  const after = dumps();
  const made = [...after].filter((l) => !before.has(l)).length;
  await context.close();
  const la = os.loadavg().map((x) => x.toFixed(1)).join(' ');
  const p50 = quantile(toNodes, 0.5);
  const row = (label, xs) => console.log(`  ${label.padEnd(58)} ${quantile(xs, 0.5).toFixed(0).padStart(7)} ${quantile(xs, 0.9).toFixed(0).padStart(7)}`);
  console.log(`  (load average ${la}; ${N} freezes, each after ${STILL_MS / 1000} s still; tree: ${last.treeSource}, ${last.nodes.length} nodes)`);
  row('A pressed → freeze with its nodes received', toNodes);
  row('A pressed → frozen badge shown', toBadge);
  console.log(`  ${'budget ≤ 300 ms p50'.padEnd(58)} ${p50 <= BUDGET_MS ? 'ok' : 'OVER'}`);
  console.log(`  uiautomator dumps on the phone over the ${N} freezes of one still screen: ${made}`);
} finally {
  await browser?.close();
  sim?.kill('SIGINT');
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
}
