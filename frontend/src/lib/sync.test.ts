import { describe, expect, it, vi } from 'vitest';
import type { Api } from './api';
import { newDiagnostics } from './diagnostics';
import { Dispatcher } from './dispatch';
import { AppState } from './features/session/state.svelte';
import { Sync } from './sync';
import { session } from './testing/fixtures';

/** A Sync on a fake api whose session(id) answers only when the test says. */
function slowApi() {
  const pending = new Map<string, (v: unknown) => void>();
  const api = {
    diagnostics: newDiagnostics(),
    session: vi.fn((id: string) => new Promise((resolve) => pending.set(id, resolve))),
  } as unknown as Api;
  const answer = (id: string) => pending.get(id)!({ data: session({ sessionId: id, etag: `"${id}"` }), etag: `"${id}"` });
  const app = new AppState();
  const sync = new Sync(api, app, new Dispatcher(), { onResync: () => undefined });
  return { app, sync, answer };
}

describe('Sync.switchSession', () => {
  it('makes the session active and drops an answer still on its way for the one before', async () => {
    const { app, sync, answer } = slowApi();
    sync.switchSession('A');
    const late = sync.reloadActiveSession();
    sync.switchSession('B');
    expect(app.activeSessionId).toBe('B');
    expect(app.session).toBeNull();
    answer('A');
    await late;
    expect(app.session).toBeNull(); // A's answer arrived after the switch: dropped
    const fresh = sync.reloadActiveSession();
    answer('B');
    await fresh;
    expect(app.session?.sessionId).toBe('B');
  });

  it('drops an answer for the same session asked before it was left and picked again', async () => {
    const { app, sync, answer } = slowApi();
    sync.switchSession('A');
    const late = sync.reloadActiveSession();
    sync.switchSession('');
    sync.switchSession('A');
    answer('A');
    await late;
    expect(app.session).toBeNull();
  });
});
