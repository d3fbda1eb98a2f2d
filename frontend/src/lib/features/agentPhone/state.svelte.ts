// What agents do on the phone: whether the user lets them drive the selected device,
// and their recent actions (taps, typing, captures) for the console's activity list.
import type { ControlState, DeviceAction } from '../../wire.gen';

const KEEP = 30;

export class AgentPhoneState {
  control = $state<ControlState | null>(null);
  actions = $state<DeviceAction[]>([]);

  setControl(c: ControlState | null): void {
    this.control = c;
  }

  /** Adds actions in order, once each (an event may repeat what a fetch returned). */
  addActions(list: DeviceAction[]): void {
    const seen = new Set(this.actions.map((a) => a.seq));
    const fresh = list.filter((a) => !seen.has(a.seq));
    if (fresh.length === 0) return;
    this.actions = [...this.actions, ...fresh].sort((a, b) => a.seq - b.seq).slice(-KEEP);
  }

  get lastSeq(): number {
    return this.actions.at(-1)?.seq ?? 0;
  }
}

export const agentPhone = new AgentPhoneState();
