// Starts a real `fixthis serve --json` (with a private adb server port and a temp
// project dir) and a headless Debian Chromium through playwright-core. Never downloads
// a browser: /usr/bin/chromium is required.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '..', '..');
export const resultsDir = resolve(repoRoot, 'test-results');
export const BIN = process.env.FIXTHIS_BIN || join(repoRoot, 'build', 'bin', 'fixthis');
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** A free loopback port (never the adb defaults 5037 / 5555-5585). */
export function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => (port === 5037 || (port >= 5555 && port <= 5585) ? freePort().then(res, rej) : res(port)));
    });
  });
}

export function prerequisites() {
  const missing = [];
  if (!existsSync(BIN)) missing.push(`${BIN} (run make build)`);
  if (!existsSync(CHROMIUM)) missing.push(`${CHROMIUM} (apt-get install chromium)`);
  return missing;
}

/** The Android project the demo device's app is built from (source candidates). */
export const TRAILHEAD = join(repoRoot, 'examples', 'trailhead');

/**
 * Starts the server and resolves with its JSON line plus a stop() that ends it, its
 * private adb server and the temp project dir. `sources` is a directory copied into the
 * temp project dir first (e.g. TRAILHEAD), so the source index has something to match.
 */
export async function startServer({ demo = true, extraArgs = [], sources = '', project = '' } = {}) {
  // `project` reuses a project dir (a restart); the caller removes it.
  const projectDir = project || mkdtempSync(join(tmpdir(), 'fixthis-e2e-'));
  if (sources) cpSync(sources, projectDir, { recursive: true, filter: (src) => !/[\\/](\.fixthis|build|\.gradle)$/.test(src) });
  const adbPort = await freePort();
  const env = { ...process.env, ANDROID_ADB_SERVER_PORT: String(adbPort) };
  // A private adb server for this run; the user's (and other tests') stay untouched.
  spawnSync('adb', ['-P', String(adbPort), 'start-server'], { stdio: 'ignore', timeout: 15000 });
  const args = ['serve', '--json', '--addr', '127.0.0.1:0', '--project-dir', projectDir, demo ? '--demo' : '--no-demo', ...extraArgs];
  const child = spawn(BIN, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const info = await new Promise((res, rej) => {
    let buf = '';
    const timer = setTimeout(() => rej(new Error(`fixthis serve printed no JSON line in 20 s; stderr:\n${stderr}`)), 20000);
    child.stdout.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        try {
          res(JSON.parse(buf.slice(0, nl)));
        } catch (err) {
          rej(new Error(`fixthis serve printed a line that is not JSON: ${buf.slice(0, nl)} (${err.message})`));
        }
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`fixthis serve exited with ${code} before listening; stderr:\n${stderr}`));
    });
  });
  async function stop() {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => {
        const t = setTimeout(() => {
          child.kill('SIGKILL');
          r();
        }, 5000);
        child.on('exit', () => {
          clearTimeout(t);
          r();
        });
      });
    }
    spawnSync('adb', ['-P', String(adbPort), 'kill-server'], { stdio: 'ignore', timeout: 5000 });
    if (!project) rmSync(projectDir, { recursive: true, force: true });
  }
  return { ...info, projectDir, adbPort, env, stop, stderr: () => stderr };
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** A page that records console errors and page errors for the no-errors check. */
export async function openConsole(browser, server, { width = 1440, height = 900, colorScheme = 'light' } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, colorScheme });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.consoleUrl);
  return { context, page, errors };
}

export function shotPath(name) {
  mkdirSync(resultsDir, { recursive: true });
  return join(resultsDir, name);
}

export async function api(server, method, path, body) {
  const res = await fetch(new URL(path, server.url), {
    method,
    headers: { 'X-FixThis-Console-Token': server.token, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

export async function waitFor(fn, { timeout = 10000, interval = 100, what = 'condition' } = {}) {
  const end = Date.now() + timeout;
  let last;
  while (Date.now() < end) {
    try {
      last = await fn();
      if (last) return last;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, interval));
  }
  throw new Error(`timed out after ${timeout} ms waiting for ${what} (last: ${last})`);
}
