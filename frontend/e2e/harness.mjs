// Starts a real `fixthis serve --json` (with a private adb server port and a temp
// project dir) and a headless Debian Chromium through playwright-core. Never downloads
// a browser: /usr/bin/chromium is required.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe } from 'node:test';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '..', '..');
export const resultsDir = resolve(repoRoot, 'test-results');
export const BIN = process.env.FIXTHIS_BIN || join(repoRoot, 'build', 'bin', 'fixthis');
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

// Everything this file's tests started: the fixthis processes (servers and simulated
// phones) and the private adb servers. A test that kills a server itself, or fails
// before its own cleanup, still leaves nothing running: when the test process exits,
// whatever is left is killed, then every adb server port it used is shut down
// (`adb kill-server` starts no server where none runs).
const children = new Set();
const adbPorts = new Set();

/** track registers a child so it is killed when the test process exits. */
export function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

function killLeftovers() {
  for (const c of children) {
    if (c.exitCode === null && c.signalCode === null) {
      try {
        c.kill('SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }
  // The ports stay listed: this runs once after the tests and again at exit, and a
  // phone that quit in between (its `adb disconnect`) may have started a server again.
  for (const port of adbPorts) spawnSync('adb', ['-P', String(port), 'kill-server'], { stdio: 'ignore', timeout: 5000 });
}
// Once this file's tests are done, passed or failed: a child still running keeps the
// test process alive through its pipes, so waiting for the exit hook alone would hang.
after(killLeftovers);
process.on('exit', killLeftovers);
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    killLeftovers();
    process.exit(130);
  });
}

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
export async function startServer({ demo = true, extraArgs = [], sources = '', project = '', adbPort: sharedAdb = 0 } = {}) {
  // `project` reuses a project dir (a restart); the caller removes it. `adbPort` reuses
  // another server's adb server (a restart that keeps a simulated phone registered);
  // that server's stop ends it.
  const projectDir = project || mkdtempSync(join(tmpdir(), 'fixthis-e2e-'));
  if (sources) cpSync(sources, projectDir, { recursive: true, filter: (src) => !/[\\/](\.fixthis|build|\.gradle)$/.test(src) });
  const adbPort = sharedAdb || (await freePort());
  const env = { ...process.env, ANDROID_ADB_SERVER_PORT: String(adbPort) };
  // A private adb server for this run; the user's (and other tests') stay untouched.
  if (!sharedAdb) {
    adbPorts.add(adbPort);
    spawnSync('adb', ['-P', String(adbPort), 'start-server'], { stdio: 'ignore', timeout: 15000 });
  }
  const args = ['serve', '--json', '--addr', '127.0.0.1:0', '--project-dir', projectDir, demo ? '--demo' : '--no-demo', ...extraArgs];
  const child = track(spawn(BIN, args, { env, stdio: ['ignore', 'pipe', 'pipe'] }));
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
    // The port stays listed: a simulated phone that quits later (its `adb disconnect`)
    // may start a server on it again, which the exit hook then ends.
    if (!sharedAdb) spawnSync('adb', ['-P', String(adbPort), 'kill-server'], { stdio: 'ignore', timeout: 5000 });
    if (!project) rmSync(projectDir, { recursive: true, force: true });
  }
  return { ...info, projectDir, adbPort, env, stop, stderr: () => stderr, child };
}

/**
 * Starts `fixthis sim --connect --json` on the server's private adb server (with
 * `outputs`, the directory of its `--outputs`) and resolves with its JSON line (the
 * serial) plus the child process, once it printed that line.
 */
export function startSim(server, { outputs = '' } = {}) {
  const args = ['sim', '--connect', '--json', '--latency-scale', '0', ...(outputs ? ['--outputs', outputs] : [])];
  const child = track(spawn(BIN, args, { env: server.env, stdio: ['ignore', 'pipe', 'pipe'] }));
  return new Promise((res, rej) => {
    let buf = '';
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => rej(new Error(`fixthis sim printed nothing in 20 s: ${stderr}`)), 20000);
    child.stdout.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        res({ ...JSON.parse(buf.slice(0, nl)), child });
      }
    });
    child.on('exit', (code) => rej(new Error(`fixthis sim exited with ${code}: ${stderr}`)));
  });
}

/** Debian's Chromium, quiet (no updates, sync or QUIC); `extraArgs` add switches (a fake microphone). */
export async function launchBrowser(extraArgs = []) {
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
      ...extraArgs,
    ],
  });
}

/**
 * The suite every end-to-end file declares: skipped, with the reason, when the binary
 * or Chromium is missing; before its first test it starts `fixthis serve` (with
 * `server`, startServer's options; false starts none) and Chromium (unless `browser`
 * is false), after its last it stops both and keeps the server's log in
 * test-results/serve-NAME.log. `body(env)` declares the tests, which read env.server
 * and env.browser; a test that starts a server of its own sets env.server, so it is
 * stopped too.
 */
export function suite(name, { server = {}, browser = true } = {}, body) {
  const missing = prerequisites();
  describe(name, { skip: missing.length ? `missing ${missing.join(', ')}` : false }, () => {
    const env = { server: null, browser: null };
    before(async () => {
      if (server) env.server = await startServer(server);
      if (browser) env.browser = await launchBrowser();
    });
    after(async () => {
      await env.browser?.close();
      await env.server?.stop();
      if (env.server) writeFileSync(shotPath(`serve-${name.replace(/[^a-z0-9]+/gi, '-')}.log`), env.server.stderr());
    });
    body(env);
  });
}

/**
 * The console in a new browser context, recording page errors and console errors
 * (except those `ignore` matches) for the no-errors check. `sessionId` makes it open on
 * that session, as a browser that last showed it would; `init` runs in the page before
 * the console's own scripts; `query` goes before the token fragment; `beforeLoad(page)`
 * runs before the console loads (to route requests).
 */
export async function openConsole(browser, server, { width = 1440, height = 900, colorScheme = 'light', sessionId = '', init = null, query = '', ignore = null, beforeLoad = null } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, colorScheme });
  if (sessionId) await context.addInitScript((id) => localStorage.setItem('fixthis.activeSessionId', id), sessionId);
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => {
    if (m.type() !== 'error' || ignore?.test(m.text())) return;
    // A failed request's message does not name the request; its location does (the
    // query cut off: EventSource URLs carry the token).
    const at = m.location()?.url?.split('?')[0];
    // A live video stream that could not start (on a loaded machine the first picture
    // can miss its 5 s) is answered 502, and the console shows JPEG frames and asks
    // again: a state it handles, not an error. The video suites check the stream.
    if (at?.endsWith('/api/preview/stream') && /status of 502/.test(m.text())) return;
    errors.push(at ? `${m.text()} (${at})` : m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await beforeLoad?.(page);
  const url = new URL(server.consoleUrl);
  if (query) url.search = query;
  await page.goto(url.href);
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
