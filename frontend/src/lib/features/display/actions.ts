// The #displaySettings panel: read the selected phone's display conditions, change one,
// put the phone's own back.
import { displayPanel } from './state.svelte';
import { app } from '../session/state.svelte';
import type { Transport } from '../../transport';
import type { DisplayChangeRequest } from '../../wire.gen';
import { report } from '../../actions/report';

export async function loadDisplay(transport: Transport): Promise<void> {
  const serial = app.selectedSerial;
  // Only an online phone can say: asking a gone one is answered 409.
  if (!serial || !app.deviceReady) {
    displayPanel.set(null);
    return;
  }
  try {
    const s = await transport.api.display(serial);
    if (app.selectedSerial === serial) displayPanel.set(s);
  } catch {
    displayPanel.set(null); // the phone is busy or gone: the panel hides until it answers
  }
}

/** Applies one change; `what` names the control for the busy state. */
export async function setDisplay(transport: Transport, what: string, change: Omit<DisplayChangeRequest, 'serial'>): Promise<void> {
  const serial = app.selectedSerial;
  if (!serial || displayPanel.busy) return;
  displayPanel.busy = what;
  try {
    displayPanel.set(await transport.api.setDisplay({ serial, ...change }));
  } catch (err) {
    report(err, 'Could not change the display settings');
  } finally {
    displayPanel.busy = '';
  }
}

export async function restoreDisplay(transport: Transport): Promise<void> {
  const serial = app.selectedSerial;
  if (!serial || displayPanel.busy) return;
  displayPanel.busy = 'restore';
  try {
    displayPanel.set(await transport.api.restoreDisplay(serial));
    app.notify('success', "The phone's own display settings are back.", { topic: 'display' });
  } catch (err) {
    report(err, 'Could not restore the display settings');
  } finally {
    displayPanel.busy = '';
  }
}
