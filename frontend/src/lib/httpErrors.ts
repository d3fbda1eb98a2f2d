// What the console says when the server refuses it: a stale token (401) or a failed
// origin or token check (403). Shared by the actions' error reports and the event
// stream's own fetches.
import type { AppState } from './features/session/state.svelte';

export function reportHttpError(app: AppState, err: unknown): void {
  const e = err as { status?: number; code?: string; message?: string };
  if (e.status === 401) {
    app.unauthorized = true;
    app.notify('error', 'This console link is no longer valid. Open the URL that `fixthis serve` printed (it carries a fresh token).', {
      topic: 'auth',
    });
  } else if (e.status === 403) {
    // The topic gives the message its Reload console button (GlobalStatus).
    app.notify('error', 'The FixThis app refused this page (origin or token check). Reload the console; if that does not help, open the URL the app printed.', { topic: 'reload-console' });
  }
}
