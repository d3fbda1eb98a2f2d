import { describe, expect, it } from 'vitest';
import { AgentPhoneState } from './state.svelte';

const act = (seq: number) => ({ seq, serial: 'emu', action: 'tap', detail: `tapped ${seq}`, outcome: 'ok', createdAt: '' });

describe('AgentPhoneState', () => {
  it('keeps actions once each, in order, and only the newest 30', () => {
    const s = new AgentPhoneState();
    s.addActions([act(2), act(1)]);
    s.addActions([act(2), act(3)]);
    expect(s.actions.map((a) => a.seq)).toEqual([1, 2, 3]);
    s.addActions(Array.from({ length: 40 }, (_, i) => act(i + 4)));
    expect(s.actions).toHaveLength(30);
    expect(s.lastSeq).toBe(43);
    expect(s.actions[0].seq).toBe(14);
  });
});
