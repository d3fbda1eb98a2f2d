// Agents on the phone: the "Agents may control the phone" answer, the activity list,
// and the user's verdict on a verified fix (Looks right / Reopen).
import { agentPhone } from './state.svelte';
import { app } from '../session/state.svelte';
import type { Transport } from '../../transport';
import { report } from '../../actions/report';

/** Reads the selected device's control answer and the newest agent actions. */
export async function loadAgentPhone(transport: Transport): Promise<void> {
  const serial = app.selectedSerial;
  try {
    agentPhone.setControl(serial ? await transport.api.agentControl(serial) : null);
    const { actions } = await transport.api.deviceActions(0);
    agentPhone.addActions(actions);
  } catch {
    agentPhone.setControl(null); // no device, or an older store: nothing to show
  }
}

export async function setAgentControl(transport: Transport, allowed: boolean): Promise<void> {
  const serial = app.selectedSerial;
  if (!serial) return;
  try {
    agentPhone.setControl(await transport.api.setAgentControl(serial, allowed));
    app.notify('success', allowed ? 'Agents may now control this phone.' : 'Agents may no longer control this phone.', { topic: 'agentControl' });
  } catch (err) {
    report(err, 'Could not change whether agents may control the phone');
  }
}

async function verdict(what: string, fn: (sessionId: string) => Promise<{ item?: import('../../types').Item }>): Promise<boolean> {
  const sessionId = app.activeSessionId;
  if (!sessionId) return false;
  try {
    const r = await fn(sessionId);
    app.replaceItem(sessionId, r.item);
    return true;
  } catch (err) {
    report(err, what);
    return false;
  }
}

/** "Looks right": the item stays resolved, verified by the user. */
export function confirmFix(transport: Transport, itemId: string): Promise<boolean> {
  return verdict('Could not mark the fix as verified', (sid) => transport.api.verifyItem(itemId, sid));
}

/** "Reopen": the item goes back to open and the agent's wait gets the note. */
export function reopenFix(transport: Transport, itemId: string, note: string): Promise<boolean> {
  return verdict('Could not reopen the item', (sid) => transport.api.reopenItem(itemId, sid, note));
}
