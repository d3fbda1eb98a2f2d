// Save to MCP on one saved annotation: releases that item only. Pending
// annotations and the other saved drafts stay where they are.
import { app } from './state/app.svelte';
import { ui } from './state/ui.svelte';
import { ctx } from './ctx';
import { report } from './handoff';
import { summaryOf, upsertSummary } from './events';

export async function saveOneToMcp(itemId: string): Promise<void> {
  if (ui.busy) return;
  const sessionId = app.activeSessionId;
  if (!sessionId) return;
  ui.busy = 'sending';
  try {
    const r = await ctx.api.agentHandoff(sessionId, [itemId]);
    if (app.activeSessionId !== sessionId || !r.session) return;
    app.session = r.session;
    app.sessions = upsertSummary(app.sessions, summaryOf(r.session));
    const seq = r.session.items.find((i) => i.itemId === itemId)?.sequenceNumber;
    app.notify('success', `Saved to MCP: annotation ${seq ?? ''}`.trim() + ' only.', { topic: 'handoff' });
  } catch (err) {
    report(err, 'Save to MCP failed', 'The annotation is kept; try again.');
  } finally {
    ui.busy = '';
  }
}
