// The display feature's one event: display-changed says the selected phone's conditions
// changed (this tab, another, an agent, a deselect). It carries no settings, so the
// panel's state changes by reading them again, which is a side effect, not a reducer.
import { app } from '../session/state.svelte';
import type { FeatureContext } from '../feature';
import { loadDisplay } from './actions';

export function effects({ on, transport }: FeatureContext): void {
  on('display-changed', (c) => {
    if (c.serial === app.selectedSerial) void loadDisplay(transport);
  });
}
