// How a failed action is told to the user: "<what failed>: <why>." and what is safe to do
// next (docs/console.md, "Status messages").
import { ApiError } from '../api';
import { reportHttpError } from '../httpErrors';
import { app } from '../features/session/state.svelte';

function sentence(text: string): string {
  const t = text.trim();
  return /[.!?…]$/.test(t) ? t : `${t}.`;
}

export function report(err: unknown, what: string, safeNext = ''): void {
  if (err instanceof ApiError) {
    if (err.status === 401 || err.status === 403) return reportHttpError(app, err);
    const next = safeNext ? ` ${safeNext}` : '';
    const text =
      err.status === 0
        ? `${what}: the FixThis app is not reachable.${next || ' Your draft is preserved; try again once it is running.'}`
        : `${what}: ${sentence(err.message)}${next}`;
    app.notify('error', text, { detail: err.code });
    return;
  }
  app.notify('error', `${what}: ${(err as Error)?.message ?? String(err)}${safeNext ? ` ${safeNext}` : ''}`);
}
