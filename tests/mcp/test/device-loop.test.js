// The agent checks its fix on the phone, through the official SDK client over stdio:
// once with the FixThis app running (the sidecar forwards device tools to it) and
// once without it (the sidecar drives the simulated phone over adb itself). The agent
// claims an item, navigates with tap / keys, captures, and resolves with verification;
// the user's Reopen comes back through the wait.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import {
  call, childEnv, fixthisBin, openEvents, removeTemp, requireBinary, sleep, startServe, stdioClient, stop, tempProject, toolError, track, waitFor,
} from './helpers.js';

// agentLoop is what an agent does with one released item: wait, ack, claim, drive the
// phone to the screen, capture and resolve with verification.
async function agentLoop(client, sessionId) {
  const batch = await call(client, 'fixthis_wait_for_feedback', { sessionId, timeoutSeconds: 20 });
  assert.equal(batch.status, 'batch');
  await call(client, 'fixthis_ack_feedback', { batchId: batch.batchId });
  const item = batch.items[0];
  await call(client, 'fixthis_claim_feedback', { sessionId, itemId: item.itemId });

  const tap = await call(client, 'fixthis_tap', { contentDescription: 'Account' });
  assert.match(tap.detail, /tapped 'Account'/);
  const shown = await call(client, 'fixthis_wait_for_screen', { text: 'Welcome back', timeoutMs: 10000 });
  assert.equal(shown.met, true, JSON.stringify(shown));
  const key = await call(client, 'fixthis_press_key', { key: 'BACK' });
  assert.match(key.detail, /pressed BACK/);
  const back = await call(client, 'fixthis_wait_for_screen', { text: 'Find your next trail', timeoutMs: 10000 });
  assert.equal(back.met, true, JSON.stringify(back));

  const cap = await call(client, 'fixthis_capture_screen', {});
  assert.match(cap.captureId, /^c-/);
  assert.match(cap.tree, /Find your next trail/);
  const res = await call(client, 'fixthis_resolve_feedback', {
    sessionId, itemId: item.itemId, status: 'resolved', summary: 'Checked on the phone', verification: { captureId: cap.captureId },
  });
  assert.equal(res.item.status, 'resolved');
  assert.equal(res.item.verification.captureId, cap.captureId);
  assert.ok(res.item.verification.summary, 'a verification summary');
  return { item, cap, res };
}

test('with the app running, the sidecar forwards device tools to it', async () => {
  const dir = tempProject();
  const { child, info, api } = await startServe(dir, { demo: true });
  const events = await openEvents(info);
  try {
    const devices = await waitFor(async () => {
      const d = await api.call('GET', '/api/devices');
      return d.selectedSerial && d.devices.some((x) => x.serial === d.selectedSerial && x.state === 'device') ? d : null;
    }, 'the demo device');
    const { sessionId } = await api.createSession('device loop');
    const fr = await api.call('POST', '/api/preview/freeze', { serial: devices.selectedSerial, sessionId });
    const node = fr.nodes.find((n) => n.text === 'Find your next trail');
    assert.ok(node, 'the title node');
    const saved = await api.call('POST', '/api/items/batch', {
      sessionId, frozenId: fr.frozenId, workspaceId: 'ws-dev', frozenFingerprint: fr.screen.fingerprint,
      items: [{ draftItemId: 'd1', severity: 'med', comment: 'Make the title friendlier',
        target: { type: 'node', nodeUid: node.uid, bounds: node.bounds, snapshot: { class: node.class, text: node.text, testTag: node.testTag } } }],
    }, { 'If-Match': '*' });
    await api.call('POST', '/api/preview/resume');
    await api.handoff(sessionId, saved.items.map((i) => i.itemId));

    // The sidecar's own adb connection would have to ask the user before driving the
    // device; the app knows it is its demo phone. A tap that works at once is a
    // forwarded one.
    const { client, close } = await stdioClient(dir, 'sdk-stdio-device');
    try {
      const start = performance.now();
      const { item, cap } = await agentLoop(client, sessionId);
      assert.ok(performance.now() - start < 60000);

      // Forwarded taps stay within the latency budget (≤ 150 ms on the simulated phone).
      const times = [];
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        await call(client, 'fixthis_tap', { x: 540, y: 60 });
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      assert.ok(times[2] <= 150, `median forwarded tap ${times[2].toFixed(0)} ms`);

      const ev = await events.next((e) => e.event === 'device-action' && e.json?.action === 'tap', 10000);
      assert.equal(ev.json.outcome, 'ok');

      // The console reopens; the agent's next wait returns the note.
      const sess = await api.getSession(sessionId);
      assert.equal(sess.items[0].verification.captureId, cap.captureId);
      const reopened = await api.call('POST', `/api/items/${item.itemId}/reopen`, { sessionId, note: 'Still too formal' });
      assert.equal(reopened.item.status, 'open');
      const again = await call(client, 'fixthis_wait_for_feedback', { sessionId, timeoutSeconds: 10 });
      assert.equal(again.kind, 'reopen');
      assert.equal(again.reopened[0].note, 'Still too formal');
      assert.equal(again.reopened[0].itemId, item.itemId);
    } finally {
      await close();
    }
  } finally {
    events.close();
    await stop(child);
    removeTemp(dir);
  }
});

test('without the app, the sidecar drives the device over adb', async () => {
  requireBinary();
  const dir = tempProject();
  const sim = track(spawn(fixthisBin, ['sim', '--connect', '--json'], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] }));
  try {
    const line = await new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('fixthis sim printed nothing in 20 s')), 20000);
      createInterface({ input: sim.stdout }).once('line', (l) => { clearTimeout(t); resolve(l); });
    });
    const serial = JSON.parse(line).serial;
    // A store-only session: the annotation has no screenshot, as after a Copy Prompt.
    const { client, close } = await stdioClient(dir, 'sdk-stdio-adb', ['--serial', serial]);
    try {
      // Not allowed yet: the user answers in the console, or from a terminal.
      const ctl = spawnSync(fixthisBin, ['control', 'allow', '--serial', serial, '--project-dir', dir], { env: childEnv, encoding: 'utf8' });
      assert.equal(ctl.status, 0, ctl.stderr);
      assert.match(ctl.stdout, /agents may control it/);

      const cap = await call(client, 'fixthis_capture_screen', {});
      assert.equal(cap.serial, serial);
      const tap = await call(client, 'fixthis_tap', { contentDescription: 'Account' });
      assert.match(tap.detail, /tapped 'Account'/);
      assert.equal((await call(client, 'fixthis_wait_for_screen', { text: 'Welcome back', timeoutMs: 10000 })).met, true);
      await call(client, 'fixthis_tap', { resourceId: 'email_field' });
      await call(client, 'fixthis_type_text', { text: 'sam@example.com' });
      await call(client, 'fixthis_press_key', { key: 'BACK' });
      await call(client, 'fixthis_press_key', { key: 'BACK' });
      assert.equal((await call(client, 'fixthis_wait_for_screen', { text: 'Find your next trail', timeoutMs: 10000 })).met, true);
      await call(client, 'fixthis_swipe', { direction: 'up' });
      const gone = await toolError(client, 'fixthis_tap', { text: 'No such button' });
      assert.match(gone, /NODE_NOT_FOUND/);
      // No Android app module in this project: fixthis_run_app says so.
      assert.match(await toolError(client, 'fixthis_run_app', { noBuild: true }), /APP_NOT_AVAILABLE/);
      const deny = spawnSync(fixthisBin, ['control', 'deny', '--serial', serial, '--project-dir', dir], { env: childEnv, encoding: 'utf8' });
      assert.equal(deny.status, 0, deny.stderr);
      assert.match(await toolError(client, 'fixthis_press_key', { key: 'HOME' }), /DEVICE_CONTROL_REFUSED/);
    } finally {
      await close();
    }
  } finally {
    await stop(sim);
    removeTemp(dir);
  }
});
