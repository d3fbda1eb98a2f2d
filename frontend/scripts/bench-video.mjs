// The live preview as the console paints it, H.264 video against JPEG frames, over a
// simulated USB 2 cable and Wi-Fi (`fixthis sim --link`), while the demo list scrolls.
// For each link and transport: a fresh `fixthis serve --preview T` and simulated phone
// on a private adb server, Chromium on the console, `benchclient drive` scrolling for
// BENCH_VIDEO_SECONDS (6), then window.FixThisConsoleDebug.previewStats().
// Called by scripts/bench.sh with BENCHCLIENT set; needs the built binary and Chromium.
import { spawn } from 'node:child_process';
import { BIN, api, launchBrowser, openConsole, prerequisites, startServer, waitFor } from '../e2e/harness.mjs';

const SECONDS = Number(process.env.BENCH_VIDEO_SECONDS || 6);
const BC = process.env.BENCHCLIENT;
const missing = prerequisites();
if (missing.length || !BC) {
  console.error(`bench-video: missing ${[...missing, ...(BC ? [] : ['BENCHCLIENT'])].join(', ')}`);
  process.exit(1);
}

/** A simulated phone behind link, registered with the adb server on adbPort. */
function startSim(adbPort, link) {
  const env = { ...process.env, ANDROID_ADB_SERVER_PORT: String(adbPort) };
  const child = spawn(BIN, ['sim', '--connect', '--json', '--link', link], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error('fixthis sim printed nothing in 20 s')), 20000);
    child.stdout.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      const { serial } = JSON.parse(buf.slice(0, nl));
      resolve({
        serial,
        stop: () =>
          new Promise((r) => {
            child.on('exit', r);
            child.kill('SIGINT');
          }),
      });
    });
    child.on('exit', (code) => reject(new Error(`fixthis sim exited with ${code}`)));
  });
}

function drive(adbPort, serial) {
  return new Promise((resolve, reject) => {
    const child = spawn(BC, ['drive', '-serial', serial, '-adb-port', String(adbPort), '-seconds', String(SECONDS)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`benchclient drive exited with ${code}`))));
  });
}

const stats = (page) => page.evaluate(() => window.FixThisConsoleDebug.previewStats());

async function measure(browser, link, transport) {
  const server = await startServer({ demo: false, extraArgs: ['--preview', transport] });
  let sim;
  try {
    sim = await startSim(server.adbPort, link);
    await waitFor(async () => (await api(server, 'GET', '/api/devices')).body.devices.some((d) => d.serial === sim.serial && d.screen), { timeout: 20000, what: 'the sim listed' });
    await api(server, 'POST', '/api/device/select', { serial: sim.serial });
    const { page, context } = await openConsole(browser, server);
    await waitFor(async () => {
      const s = await stats(page);
      return s.transport === transport && s.framesPainted > 0;
    }, { timeout: 60000, what: `first ${transport} frame painted over ${link}` });
    const before = await stats(page);
    const t0 = Date.now();
    const swipes = await drive(server.adbPort, sim.serial);
    const after = await stats(page);
    const secs = (Date.now() - t0) / 1000;
    await context.close();
    return { link, transport, fps: (after.framesPainted - before.framesPainted) / secs, p50: after.latencyMsP50, decoder: after.decoder, swipes };
  } finally {
    await sim?.stop();
    await server.stop();
  }
}

const browser = await launchBrowser();
const rows = [];
try {
  for (const link of ['usb2', 'wifi']) {
    for (const transport of ['h264', 'jpeg']) rows.push(await measure(browser, link, transport));
  }
} finally {
  await browser.close();
}
const pad = (s, n) => String(s).padEnd(n);
const num = (v, d = 0) => (v === null || v === undefined ? '-' : Number(v).toFixed(d)).padStart(8);
console.log(`  ${pad('link', 6)} ${pad('transport', 10)} ${'fps'.padStart(8)} ${'p50 (ms)'.padStart(8)}   decoder`);
for (const r of rows) console.log(`  ${pad(r.link, 6)} ${pad(r.transport, 10)} ${num(r.fps, 1)} ${num(r.p50)}   ${r.decoder}; driver: ${r.swipes}`);
for (const link of ['usb2', 'wifi']) {
  const v = rows.find((r) => r.link === link && r.transport === 'h264');
  const j = rows.find((r) => r.link === link && r.transport === 'jpeg');
  console.log(`  ${link}: video paints ${(v.fps / Math.max(j.fps, 0.01)).toFixed(1)}× the frames of the raw path`);
}
