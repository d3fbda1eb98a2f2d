// A restart of FixThis: frozen frames live in memory, so a draft recovered after
// a restart is refused with PREVIEW_NOT_FOUND rather than saved without its image,
// and the new run's frame ids never repeat the old run's.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { api, startServer, suite } from './harness.mjs';
import { freezeViaApi, saveViaApi } from './steps.mjs';

// The test starts and restarts the server itself, on one project dir; no browser.
suite('restart', { server: false, browser: false }, (env) => {
  const project = mkdtempSync(join(tmpdir(), 'fixthis-e2e-restart-'));
  after(() => rmSync(project, { recursive: true, force: true }));

  it('refuses a recovered draft whose frame is gone, and never reuses a frame id', async () => {
    let server = (env.server = await startServer({ demo: true, project }));
    const sessionId = (await api(server, 'POST', '/api/sessions', { title: 'Restart' })).body.sessionId;
    const first = await freezeViaApi(server, sessionId);
    await server.stop();

    server = env.server = await startServer({ demo: true, project });
    const saved = await saveViaApi(server, first, {
      sessionId,
      workspaceId: 'ws-restart',
      items: [{ target: { type: 'screen' }, severity: 'med', comment: 'Recovered after a restart' }],
    });
    assert.equal(saved.status, 404, JSON.stringify(saved.body));
    assert.match(saved.body.message, /^PREVIEW_NOT_FOUND: /);
    const sess = await api(server, 'GET', `/api/sessions/${sessionId}`);
    assert.equal(sess.body.session.items.length, 0, 'nothing saved without its image');

    const second = await freezeViaApi(server, sessionId);
    assert.notEqual(second.frozenId, first.frozenId, 'a new run never reuses a frame id');
  });
});
