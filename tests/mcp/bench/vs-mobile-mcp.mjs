// fixthis_capture_screen against mobile-mcp 1.0.4's screenshot + element list, side by
// side on one simulated phone running the demo app without its sidekick, the screen
// still (scripts/bench.sh, section (i)). FixThis runs as a user has it: `fixthis serve`
// with the phone selected and a console watching (so the tree is kept warm), and the
// agent's `fixthis mcp` sidecar forwarding to it. mobile-mcp runs as its README has it,
// a stdio server, telemetry off. Both are driven with the official SDK client over
// stdio; each sample is request sent → result parsed, interleaved, RUNS each.
// Then it counts the phone's uiautomator dumps (logcat's AndroidRuntime lines, as on a
// real phone) while FixThis captures a still screen again and again, across screen
// changes. Usage: node bench/vs-mobile-mcp.mjs SERIAL RUNS WORKDIR (FIXTHIS_BIN, and
// the adb server's port in ANDROID_ADB_SERVER_PORT).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [serial, runsArg, work] = process.argv.slice(2);
const bin = process.env.FIXTHIS_BIN;
if (!serial || !work || !bin) {
  console.error('usage: FIXTHIS_BIN=… node bench/vs-mobile-mcp.mjs SERIAL RUNS WORKDIR');
  process.exit(2);
}
const runs = Number(runsArg) || 10;
const BUDGET = 4;
const here = path.dirname(fileURLToPath(import.meta.url));
const mobileMCP = path.join(here, '..', 'node_modules', '@mobilenext', 'mobile-mcp', 'lib', 'index.js');
const project = path.join(work, 'vs-project');
mkdirSync(project, { recursive: true });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const row = (label, xs) => console.log(`  ${label.padEnd(58)} ${quantile(xs, 0.5).toFixed(0).padStart(7)} ${quantile(xs, 0.9).toFixed(0).padStart(7)}`);

// ---- the phone's dumps, counted from its logcat -----------------------------------
const seenDumps = new Set();
function dumpsSoFar() {
  const out = spawnSync('adb', ['-s', serial, 'logcat', '-d', '-v', 'threadtime', '-s', 'AndroidRuntime'], { encoding: 'utf8' }).stdout || '';
  for (const line of out.split('\n')) {
    if (line.includes('Calling main entry com.android.commands.uiautomator.Launcher')) seenDumps.add(line.trim());
  }
  return seenDumps.size;
}

// ---- FixThis as a user runs it -----------------------------------------------------
async function startServe() {
  const child = spawn(bin, ['serve', '--json', '--no-demo', '--addr', '127.0.0.1:0', '--project-dir', project], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  // Its log stays in WORKDIR/serve.log (FIXTHIS_LOG=debug shows each warm dump).
  child.stderr.pipe(createWriteStream(path.join(work, 'serve.log')));
  child.stderr.on('data', (d) => (err = (err + d).slice(-4000)));
  const info = await new Promise((res, rej) => {
    let buf = '';
    const t = setTimeout(() => rej(new Error(`fixthis serve printed nothing in 20 s: ${err}`)), 20000);
    child.stdout.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(t);
        res(JSON.parse(buf.slice(0, nl)));
      }
    });
    child.on('exit', (code) => rej(new Error(`fixthis serve exited with ${code}: ${err}`)));
  });
  return { ...info, child };
}

async function api(serve, method, p, body) {
  const r = await fetch(new URL(p, serve.url), { method, headers: { 'X-FixThis-Console-Token': serve.token, 'Content-Type': 'application/json' }, body: body && JSON.stringify(body) });
  if (!r.ok) throw new Error(`${method} ${p}: ${r.status} ${await r.text()}`);
  return r.json();
}

// A console watching: the event stream keeps the live preview (and the warm tree) on.
async function watch(serve) {
  const ac = new AbortController();
  const u = new URL('/api/events', serve.url);
  u.searchParams.set('consoleToken', serve.token);
  const r = await fetch(u, { headers: { Accept: 'text/event-stream' }, signal: ac.signal });
  if (!r.ok) throw new Error(`GET /api/events: ${r.status}`);
  (async () => {
    try {
      for await (const _ of r.body); // read and drop, as a console would render
    } catch {}
  })();
  return () => ac.abort();
}

async function client(command, args, env) {
  const c = new Client({ name: 'fixthis-bench', version: '1.0.0' });
  await c.connect(new StdioClientTransport({ command, args, env: { ...process.env, ...env }, stderr: 'ignore' }));
  return c;
}

async function timed(fn) {
  const t0 = performance.now();
  const out = await fn();
  return { ms: performance.now() - t0, out };
}

function imageOf(res, who) {
  const img = res.content?.find((c) => c.type === 'image');
  if (res.isError || !img) throw new Error(`${who} returned no image: ${JSON.stringify(res).slice(0, 300)}`);
  return { mime: img.mimeType, bytes: Buffer.from(img.data, 'base64').length };
}

// Nodes FixThis lists for the agent: one line each in the tree summary.
const fixthisNodes = (res) => (res.structuredContent?.tree || '').split('\n').filter((l) => l.includes('uid=')).length;
// Elements mobile-mcp lists: one line each in its default text format.
const mobileElements = (res) => (res.content?.find((c) => c.type === 'text')?.text || '').split('\n').filter((l) => l.trim()).length;

const serve = await startServe();
const stopWatch = await watch(serve);
let fx;
let mm;
try {
  // The phone selected in the app, as the user leaves it.
  await api(serve, 'POST', '/api/device/select', { serial });
  fx = await client(bin, ['mcp', '--project-dir', project, '--serial', serial], {});
  // mobilecli (which mobile-mcp runs) makes no network calls for these tools; a dead
  // proxy makes sure of it. MOBILEMCP_DISABLE_TELEMETRY is mobile-mcp's own switch.
  mm = await client(process.execPath, [mobileMCP], {
    MOBILEMCP_DISABLE_TELEMETRY: '1', HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9', NO_PROXY: '',
    HOME: path.join(work, 'mobile-mcp-home'),
  });
  mkdirSync(path.join(work, 'mobile-mcp-home'), { recursive: true });

  const capture = async () => {
    const { ms, out } = await timed(() => fx.callTool({ name: 'fixthis_capture_screen', arguments: {} }));
    if (!out.structuredContent?.captureId) throw new Error(`fixthis_capture_screen returned no capture: ${JSON.stringify(out).slice(0, 300)}`);
    return { ms, img: imageOf(out, 'fixthis_capture_screen'), nodes: fixthisNodes(out) };
  };
  const mobile = async () => {
    const shot = await timed(() => mm.callTool({ name: 'mobile_take_screenshot', arguments: { device: serial } }));
    const list = await timed(() => mm.callTool({ name: 'mobile_list_elements_on_screen', arguments: { device: serial } }));
    if (list.out.isError) throw new Error(`mobile_list_elements_on_screen failed: ${JSON.stringify(list.out).slice(0, 300)}`);
    return { ms: shot.ms + list.ms, shotMs: shot.ms, listMs: list.ms, img: imageOf(shot.out, 'mobile_take_screenshot'), nodes: mobileElements(list.out) };
  };

  // Warm-up, not counted: an agent lists the devices first, and each side's first
  // call sets itself up (FixThis's sidecar finds the app; mobilecli stages its files).
  const devices = await mm.callTool({ name: 'mobile_list_available_devices', arguments: {} });
  if (!JSON.stringify(devices).includes(serial)) throw new Error(`mobile-mcp does not list ${serial}: ${JSON.stringify(devices).slice(0, 300)}`);
  await capture();
  await mobile();
  await sleep(2000); // the screen still for 2 s: the app's tree is warm

  const a = [];
  const b = [];
  const d0 = dumpsSoFar();
  for (let i = 0; i < runs; i++) {
    a.push(await capture());
    b.push(await mobile());
  }
  const dumpsInRuns = dumpsSoFar() - d0;
  const la = os.loadavg().map((x) => x.toFixed(1)).join(' ');
  const fa = a.at(-1);
  const fb = b.at(-1);
  console.log(`  (load average ${la}; ${runs} interleaved runs each)`);
  row('fixthis_capture_screen, through the running app', a.map((r) => r.ms));
  row('mobile-mcp 1.0.4: mobile_take_screenshot + list_elements', b.map((r) => r.ms));
  row('  … of which mobile_take_screenshot', b.map((r) => r.shotMs));
  row('  … of which mobile_list_elements_on_screen', b.map((r) => r.listMs));
  const ratio = quantile(b.map((r) => r.ms), 0.5) / quantile(a.map((r) => r.ms), 0.5);
  console.log(`  ${'mobile-mcp ÷ fixthis (median)'.padEnd(58)} ${ratio.toFixed(1).padStart(6)}×   budget ≥ ${BUDGET}× ${ratio >= BUDGET ? 'ok' : 'MISSED'}`);
  const kb = (img) => `${img.mime} ${Math.round(img.bytes / 1024)} KB`;
  console.log(`  both answer with an image and the screen's elements: fixthis ${kb(fa.img)} + ${fa.nodes} nodes, mobile-mcp ${kb(fb.img)} + ${fb.nodes} elements`);
  console.log(`  uiautomator dumps on the phone in these runs: ${dumpsInRuns} (mobile-mcp's element lists: ${runs})`);

  // Dumps per screen change: FixThis alone, the screen moved then still each time.
  const changes = 3;
  const perChange = [];
  for (let c = 0; c < changes; c++) {
    const dy = c % 2 === 0 ? [1800, 900] : [900, 1800];
    spawnSync('adb', ['-s', serial, 'shell', 'input', 'swipe', '540', String(dy[0]), '540', String(dy[1]), '300']);
    const before = dumpsSoFar();
    await sleep(2500);
    for (let i = 0; i < 5; i++) await capture();
    perChange.push(dumpsSoFar() - before);
  }
  console.log(`  uiautomator dumps per screen change, fixthis (5 captures after each of ${changes} scrolls): ${perChange.join(', ')}`);
  if (perChange.some((n) => n > 1)) console.log('  !! more than one dump for one screen change');
} finally {
  await fx?.close().catch(() => {});
  await mm?.close().catch(() => {});
  stopWatch();
  serve.child.kill('SIGINT');
}
