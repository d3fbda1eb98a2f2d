// `fixthis_capture_screen` as an agent sees it, against the adb CLI pair, interleaved in
// one run (scripts/bench.sh, section (i)). The agent's `fixthis mcp` sidecar is already
// running, as it is in a real session, so each sample is one tool call through the
// official SDK over stdio: request sent → result with the screenshot parsed. The adb
// pair is `adb exec-out screencap -p` then `adb exec-out uiautomator dump /dev/tty`,
// each a whole process, as most tools run them.
// Usage: node bench/capture.mjs SERIAL RUNS PROJECT_DIR (FIXTHIS_BIN, and the adb
// server's port in ANDROID_ADB_SERVER_PORT). Prints the same rows as bench.sh.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [serial, runsArg, projectDir] = process.argv.slice(2);
if (!serial || !projectDir) {
  console.error('usage: node bench/capture.mjs SERIAL RUNS PROJECT_DIR');
  process.exit(2);
}
const runs = Number(runsArg) || 10;
const bin = process.env.FIXTHIS_BIN;
if (!bin) {
  console.error('bench/capture.mjs: set FIXTHIS_BIN');
  process.exit(2);
}

const transport = new StdioClientTransport({
  command: bin,
  args: ['mcp', '--project-dir', projectDir, '--serial', serial],
  env: { ...process.env },
  stderr: 'ignore',
});
const client = new Client({ name: 'fixthis-bench', version: '1.0.0' });
await client.connect(transport);

async function toolCall() {
  const t0 = performance.now();
  const res = await client.callTool({ name: 'fixthis_capture_screen', arguments: { serial } });
  const ms = performance.now() - t0;
  const img = res.content.find((c) => c.type === 'image');
  if (res.isError || !img || !res.structuredContent?.captureId) {
    throw new Error(`fixthis_capture_screen returned no capture: ${JSON.stringify(res).slice(0, 400)}`);
  }
  return { ms, mime: img.mimeType, bytes: Buffer.from(img.data, 'base64').length };
}

function adbPair() {
  const t0 = performance.now();
  const png = spawnSync('adb', ['-s', serial, 'exec-out', 'screencap', '-p'], { maxBuffer: 64 << 20 });
  const xml = spawnSync('adb', ['-s', serial, 'exec-out', 'uiautomator', 'dump', '/dev/tty'], { maxBuffer: 64 << 20 });
  const ms = performance.now() - t0;
  if (png.status !== 0 || png.stdout.length === 0) throw new Error(`adb screencap -p failed: ${png.stderr}`);
  if (xml.status !== 0 || !xml.stdout.includes('<hierarchy')) throw new Error(`uiautomator dump failed: ${xml.stderr}`);
  // Written like a tool would keep them; not timed twice.
  writeFileSync(path.join(projectDir, 'f.png'), png.stdout);
  return ms;
}

const median = (xs) => quantile(xs, 0.5);
function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

try {
  await toolCall(); // warm-up: the sidecar reaches the adb server and the sidekick
  adbPair();
  const mcp = [];
  const adb = [];
  let last;
  for (let i = 0; i < runs; i++) {
    last = await toolCall();
    mcp.push(last.ms);
    adb.push(adbPair());
  }
  const row = (label, xs) => console.log(`  ${label.padEnd(50)} ${median(xs).toFixed(1).padStart(8)} ${quantile(xs, 0.9).toFixed(1).padStart(8)}`);
  row(`fixthis_capture_screen (MCP stdio, ${last.mime} ${Math.round(last.bytes / 1024)} KB)`, mcp);
  row('adb screencap -p + uiautomator dump', adb);
  const ratio = median(adb) / median(mcp);
  console.log(`  ${'adb pair ÷ MCP tool call (median)'.padEnd(50)} ${ratio.toFixed(1).padStart(7)}×`);
  if (ratio < 3) console.log('  !! fixthis_capture_screen is under the 3× budget');
} finally {
  await client.close();
}
