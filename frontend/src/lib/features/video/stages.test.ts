import { describe, expect, it } from 'vitest';
import type { Device, DeviceAction } from '../../wire.gen';
import { agentActing, MAX_STAGES, phonesToAdd, stagesGone, swapIntoMain } from './stages';

function phone(serial: string, state = 'device', width = 1080): Device {
  return {
    serial, state, model: 'Pixel 7a', product: '', device: '', transportId: 1, connection: 'usb',
    androidVersion: '14', sdk: 34, screen: width ? { width, height: 2400 } : null, hint: '', isDemo: false,
  } as Device;
}

function action(seq: number, serial: string, at: string): DeviceAction {
  return { seq, serial, action: 'tap', detail: '(10,20)', outcome: 'ok', createdAt: at };
}

describe('phonesToAdd', () => {
  const devices = [phone('a'), phone('b'), phone('c', 'offline'), phone('d', 'device', 0), phone('e')];

  it('offers the online phones with a screen that no stage shows', () => {
    expect(phonesToAdd(devices, ['a']).map((d) => d.serial)).toEqual(['b', 'e']);
  });

  it('offers nothing once four stages show', () => {
    expect(MAX_STAGES).toBe(4);
    expect(phonesToAdd([...devices, phone('f'), phone('g')], ['a', 'b', 'e', 'f'])).toEqual([]);
  });
});

describe('stagesGone', () => {
  it('names side stages whose phone left or went offline', () => {
    expect(stagesGone([phone('a'), phone('b', 'offline')], ['b', 'c', 'a'])).toEqual(['b', 'c']);
  });
});

describe('swapIntoMain', () => {
  it('puts the selected phone where the acted-on stage was', () => {
    expect(swapIntoMain(['b', 'c'], 'c', 'a')).toEqual(['b', 'a']);
  });
  it('drops the stage when no phone was selected', () => {
    expect(swapIntoMain(['b', 'c'], 'b', '')).toEqual(['c']);
  });
  it('leaves the list alone for a phone not among the sides', () => {
    expect(swapIntoMain(['b'], 'x', 'a')).toEqual(['b']);
  });
});

describe('agentActing', () => {
  const now = Date.parse('2026-12-03T17:00:10Z');
  const list = [action(1, 'b', '2026-12-03T17:00:08Z'), action(2, 'a', '2026-12-03T16:59:00Z')];

  it('marks the stage of a recent action', () => {
    expect(agentActing(list, 'b', now)?.seq).toBe(1);
  });
  it('forgets an action older than the mark lasts', () => {
    expect(agentActing(list, 'a', now)).toBeNull();
  });
  it('marks nothing for a phone agents did not touch', () => {
    expect(agentActing(list, 'c', now)).toBeNull();
  });
});
