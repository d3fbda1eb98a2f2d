// Phones side by side: adding a side stage from "Show another phone", closing one,
// ending one whose phone left (with a notice), and acting on one: Annotate on a side
// stage makes its phone the selected one (the main stage, where freezing, annotating
// and saving happen) and puts the phone that was selected in its place.
import { annotate } from '../../actions/annotate';
import { selectDevice } from '../../actions/devices';
import { app } from '../session/state.svelte';
import type { Transport } from '../../transport';
import { SideStage, sideStages } from './sides.svelte';
import { MAX_STAGES, swapIntoMain } from './stages';

/** Adds serial's stage beside the others (the selected phone counts as one). */
export function addStage(serial: string): void {
  const shown = 1 + sideStages.list.length;
  if (!serial || serial === app.selectedSerial || sideStages.find(serial)) return;
  if (shown >= MAX_STAGES) {
    app.notify('warning', `${MAX_STAGES} phones are shown already; close one of their stages first.`, { topic: 'stages' });
    return;
  }
  sideStages.list = [...sideStages.list, new SideStage(serial)];
}

/** Closes serial's side stage: its stream stops, nothing else changes. */
export function closeStage(serial: string): void {
  const st = sideStages.find(serial);
  if (!st) return;
  st.player.stop();
  sideStages.list = sideStages.list.filter((s) => s !== st);
}

/** Ends serial's side stage because its stream will not come back, and says why. */
export function endStage(serial: string, reason: string): void {
  if (!sideStages.find(serial)) return;
  closeStage(serial);
  app.notify('warning', `The stage of ${serial} closed: ${reason.replace(/\.$/, '') || 'the phone went away'}.`, { topic: 'stages' });
}

/**
 * Annotate on a side stage: its phone becomes the selected one, the phone that was
 * selected takes its place among the side stages, and its screen is frozen.
 */
export async function annotateOnStage(transport: Transport, serial: string): Promise<void> {
  const before = app.selectedSerial;
  if (serial !== before) {
    // The stages swap before the selection changes, so the side stage of the phone
    // becoming the main one is never mistaken for a duplicate of the selection.
    const previous = sideStages.list;
    reorder(swapIntoMain(previous.map((s) => s.serial), serial, before), previous);
    await selectDevice(transport, serial);
    if (app.selectedSerial !== serial) {
      // Refused (the notice says why): the phone stays where it was.
      reorder(previous.map((s) => s.serial), sideStages.list);
      return;
    }
  }
  await annotate(transport);
}

/** Sets the side stages to serials, keeping the stages that stay and stopping the rest. */
function reorder(serials: string[], from: SideStage[]): void {
  for (const st of from) if (!serials.includes(st.serial)) st.player.stop();
  sideStages.list = serials.map((s) => from.find((st) => st.serial === s) ?? new SideStage(s));
}
