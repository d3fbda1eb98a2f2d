// Runtime evidence through MCP with the official SDK: `fixthis serve` and a separate
// simulated phone (`fixthis sim --connect --outputs DIR`) on the test's private adb
// server. Under Auto the batch an agent is served carries the capture Save to MCP made
// (the app crashed; its process is gone); under Manual it says the capture was skipped
// and the agent captures itself; under Off the agent may not. A collector stuck past its
// timeout makes the capture partial, and the artifact on disk is redacted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import {
  startServe, stop, tempProject, removeTemp, httpClient, stdioClient, call, toolError, childEnv, fixthisBin, repoDir, track,
} from './helpers.js';

const PKG = 'com.fixthis.demo';
let dir;
let outputs;
let serve;
let phone;
let sim;
let agent;

function adb(...args) {
  const r = spawnSync('adb', ['-P', childEnv.ANDROID_ADB_SERVER_PORT, '-s', phone.serial, ...args], { encoding: 'utf8', timeout: 15000 });
  assert.equal(r.status, 0, `adb ${args.join(' ')}: ${r.stderr}`);
}

async function waitUntil(fn, what, ms = 20000) {
  const end = Date.now() + ms;
  for (;;) {
    if (await fn()) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// annotated saves one draft on the phone's current screen (a real freeze, so the item
// knows the app's package) and returns its ids.
async function annotated(title, policy) {
  const { api } = serve;
  const { sessionId } = await api.createSession(title);
  if (policy) await api.call('PUT', `/api/sessions/${sessionId}`, { runtimeEvidencePolicy: policy });
  const fr = await api.call('POST', '/api/preview/freeze', { serial: phone.serial, sessionId });
  const node = fr.nodes.find((n) => n.text && n.bounds.top > 300) ?? fr.nodes[1];
  const saved = await api.call('POST', '/api/items/batch', {
    sessionId, frozenId: fr.frozenId, workspaceId: `ws-${title}`, frozenFingerprint: fr.screen.fingerprint,
    items: [{ draftItemId: 'd1', target: { type: 'node', nodeUid: node.uid, bounds: node.bounds }, severity: 'med', comment: `Look at ${title}` }],
  });
  await api.call('POST', '/api/preview/resume');
  return { sessionId, itemId: saved.items[0].itemId };
}

before(async () => {
  dir = tempProject();
  outputs = mkdtempSync(path.join(tmpdir(), 'fixthis-outputs-'));
  serve = await startServe(dir);
  sim = track(spawn(fixthisBin, ['sim', '--json', '--connect', '--latency-scale', '0', '--outputs', outputs], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] }));
  phone = await new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('fixthis sim printed nothing in 20 s')), 20000);
    createInterface({ input: sim.stdout }).once('line', (l) => { clearTimeout(t); resolve(JSON.parse(l)); });
  });
  await waitUntil(async () => {
    const d = await serve.api.call('GET', '/api/devices');
    if (d.selectedSerial === phone.serial) return true;
    if (d.devices?.some((x) => x.serial === phone.serial && x.state === 'device')) await serve.api.call('POST', '/api/device/select', { serial: phone.serial });
    return false;
  }, 'the simulated phone selected');
  agent = await httpClient(serve.info, 'sdk-evidence-test');
});

after(async () => {
  await agent?.close();
  await stop(sim);
  await stop(serve?.child);
  if (dir) removeTemp(dir);
  if (outputs) rmSync(outputs, { recursive: true, force: true });
});

test('Auto: the served batch and read_feedback carry the capture Save to MCP made', async () => {
  const { sessionId, itemId } = await annotated('auto');
  adb('shell', 'am', 'crash', PKG);
  const sent = await serve.api.handoff(sessionId, [itemId]);
  assert.equal(sent.runtimeEvidence.decision.status, 'partial');

  const batch = await call(agent.client, 'fixthis_wait_for_feedback', { sessionId, timeoutSeconds: 10 });
  assert.equal(batch.batchId, sent.batchId);
  assert.match(batch.prompt, /\n {2}runtimeEvidence:\n {4}- logcat -> \.fixthis\/runtime-evidence\/\S+\/logcat\.txt\n {6}summary: crash: android\.app\.RemoteServiceException\$CrashedByAdbException: shell-induced crash;/);
  assert.match(batch.prompt, /verifyBeforeEdit: [a-z,-]*check-logcat\n/);
  assert.ok(batch.prompt.endsWith('\nruntimeEvidenceAttempt:\n  attempted=true\n  status=partial\n  warning=frames-process-not-running\n  warning=memory-process-not-running\n'), batch.prompt.slice(-300));
  await call(agent.client, 'fixthis_ack_feedback', { batchId: batch.batchId });

  const read = await call(agent.client, 'fixthis_read_feedback', { itemId });
  assert.equal(read.runtimeEvidence.length, 1);
  const ev = read.runtimeEvidence[0];
  assert.equal(ev.trigger, 'auto');
  assert.deepEqual(ev.attachments.map((a) => [a.kind, a.status]), [['logcat', 'complete'], ['frames', 'unsupported'], ['memory', 'unsupported'], ['network', 'complete']]);
  assert.equal(ev.attachments[2].reason, 'process-not-running');

  const got = await call(agent.client, 'fixthis_get_runtime_evidence', { itemId });
  assert.equal(got.sessionId, sessionId);
  assert.equal(got.attempts[0].captureId, ev.captureId);
  for (const a of got.attempts[0].attachments) assert.ok(!a.summary.includes('\n') && a.summary.length <= 200, a.summary);
});

test('Manual: skipped on Save to MCP, captured by the agent; Off: refused', async () => {
  adb('shell', 'am', 'start', '-n', `${PKG}/.MainActivity`);
  const { sessionId, itemId } = await annotated('manual', 'manual');
  await serve.api.handoff(sessionId, [itemId]);
  const batch = await call(agent.client, 'fixthis_wait_for_feedback', { sessionId, timeoutSeconds: 10 });
  assert.ok(batch.prompt.endsWith('\nruntimeEvidenceAttempt:\n  attempted=false\n  status=skipped\n  reason=manual\n'), batch.prompt.slice(-200));
  assert.ok(!batch.prompt.includes('  runtimeEvidence:'), 'nothing was attached');
  await call(agent.client, 'fixthis_ack_feedback', { batchId: batch.batchId });

  const tools = (await agent.client.listTools()).tools;
  const capture = tools.find((t) => t.name === 'fixthis_capture_runtime_evidence');
  assert.equal(capture.annotations.readOnlyHint, false);
  assert.equal(capture.annotations.destructiveHint, false);
  assert.equal(tools.find((t) => t.name === 'fixthis_get_runtime_evidence').annotations.readOnlyHint, true);

  const fresh = await call(agent.client, 'fixthis_capture_runtime_evidence', { itemId });
  assert.equal(fresh.trigger, 'agent');
  assert.equal(fresh.status, 'complete', JSON.stringify(fresh));
  assert.match(fresh.attachments.find((a) => a.kind === 'memory').summary, /^TOTAL PSS \d+ KB/);

  await serve.api.call('PUT', `/api/sessions/${sessionId}`, { runtimeEvidencePolicy: 'off' });
  assert.match(await toolError(agent.client, 'fixthis_capture_runtime_evidence', { itemId }), /^RUNTIME_EVIDENCE_OFF: /);

  // The stdio sidecar reads captures from the store and hands a capture to the running
  // app, whose answer (here: Off) it passes on.
  const side = await stdioClient(dir, 'sdk-evidence-stdio');
  try {
    const got = await call(side.client, 'fixthis_get_runtime_evidence', { itemId });
    assert.equal(got.attempts[0].captureId, fresh.captureId);
    assert.match(await toolError(side.client, 'fixthis_capture_runtime_evidence', { itemId }), /^RUNTIME_EVIDENCE_OFF: /);
    await serve.api.call('PUT', `/api/sessions/${sessionId}`, { runtimeEvidencePolicy: 'manual' });
    const viaApp = await call(side.client, 'fixthis_capture_runtime_evidence', { itemId });
    assert.equal(viaApp.trigger, 'agent');
    assert.equal(viaApp.status, 'complete');
  } finally {
    await side.close();
  }
});

test('a collector that times out: partial within the budget, redacted artifact', async () => {
  const { itemId } = await annotated('slow', 'manual');
  copyFileSync(path.join(repoDir, 'app', 'evidence', 'testdata', 'logcat_crash.txt'), path.join(outputs, 'logcat.txt'));
  writeFileSync(path.join(outputs, 'dumpsys_gfxinfo.delay'), '10s');
  try {
    const t0 = Date.now();
    const fresh = await call(agent.client, 'fixthis_capture_runtime_evidence', { itemId });
    assert.ok(Date.now() - t0 < 3500, `capture took ${Date.now() - t0} ms`);
    assert.equal(fresh.status, 'partial');
    assert.deepEqual(fresh.warnings, ['frames-timeout']);
    const log = fresh.attachments.find((a) => a.kind === 'logcat');
    assert.match(log.summary, /^crash: java\.lang\.IllegalStateException: Trail 42 has no start point at com\.fixthis\.demo\./);
    const file = path.join(dir, log.artifact);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const stored = readFileSync(file, 'utf8');
    assert.ok(!stored.includes('ana.lopez@example.com') && !stored.includes('session=9f8e7d6c'), 'secrets stored');
    assert.ok(stored.includes('signed in as [REDACTED]'));
  } finally {
    rmSync(path.join(outputs, 'logcat.txt'), { force: true });
    rmSync(path.join(outputs, 'dumpsys_gfxinfo.delay'), { force: true });
  }
});
