// A restart of FixThis: frozen frames live in memory, so a draft recovered after
// a restart is refused with PREVIEW_NOT_FOUND rather than saved without its image,
// and the new run's frame ids never repeat the old run's.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { api, prerequisites, startServer } from './harness.mjs';
import { freezeViaApi } from './steps.mjs';

const missing = prerequisites();

describe('restart', { skip: missing.length ? `missing ${missing.join(', ')}` : false }, () => {
  const project = mkdtempSync(join(tmpdir(), 'fixthis-e2e-restart-'));
  let server;
  after(async () => {
    await server?.stop();
    rmSync(project, { recursive: true, force: true });
  });

  it('refuses a recovered draft whose frame is gone, and never reuses a frame id', async () => {
    server = await startServer({ demo: true, project });
    const sessionId = (await api(server, 'POST', '/api/sessions', { title: 'Restart' })).body.sessionId;
    const first = await freezeViaApi(server, sessionId);
    await server.stop();

    server = await startServer({ demo: true, project });
    const draft = {
      sessionId,
      previewId: first.previewId,
      workspaceId: 'ws-restart',
      items: [{ draftItemId: 'd1', target: { type: 'screen' }, severity: 'med', comment: 'Recovered after a restart' }],
    };
    const saved = await api(server, 'POST', '/api/items/batch', draft);
    assert.equal(saved.status, 404, JSON.stringify(saved.body));
    assert.match(saved.body.message, /^PREVIEW_NOT_FOUND: /);
    const sess = await api(server, 'GET', `/api/sessions/${sessionId}`);
    assert.equal(sess.body.session.items.length, 0, 'nothing saved without its image');

    const second = await freezeViaApi(server, sessionId);
    assert.notEqual(second.previewId, first.previewId, 'a new run never reuses a frame id');
  });
});
