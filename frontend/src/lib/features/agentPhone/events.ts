// The agents-on-the-phone events: agent-control (kept for the selected device only) and
// device-action (the activity list).
import type { On } from '../../dispatch';
import { app } from '../session/state.svelte';
import { agentPhone, type AgentPhoneState } from './state.svelte';

export function register(on: On, state: AgentPhoneState = agentPhone, selectedSerial = () => app.selectedSerial): void {
  on('agent-control', (c) => {
    if (c.serial === selectedSerial()) state.setControl(c);
  });
  on('device-action', (a) => state.addActions([a]));
}
