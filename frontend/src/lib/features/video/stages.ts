// Phones side by side: which phones "Show another phone" offers, how many stages fit,
// and which stage an agent is acting on. Pure, so it is tested without a page.
import type { Device, DeviceAction } from '../../wire.gen';

/** The server streams at most this many phones at once (device.MaxStages). */
export const MAX_STAGES = 4;

/** How long after an agent's action its stage stays marked. */
export const AGENT_MARK_MS = 8000;

/** The online phones with a known screen that no stage shows yet, in the list's order. */
export function phonesToAdd(devices: Device[], shown: string[]): Device[] {
  if (shown.length >= MAX_STAGES) return [];
  return devices.filter((d) => d.state === 'device' && (d.screen?.width ?? 0) > 0 && !shown.includes(d.serial));
}

/** Side stages that must close because their phone is no longer listed online. */
export function stagesGone(devices: Device[], side: string[]): string[] {
  const online = new Set(devices.filter((d) => d.state === 'device').map((d) => d.serial));
  return side.filter((s) => !online.has(s));
}

/**
 * The stage order after the user acts on a side stage: the side phone becomes the
 * selected (main) one and the phone that was selected takes its place among the sides.
 */
export function swapIntoMain(side: string[], acted: string, selected: string): string[] {
  if (!side.includes(acted)) return side;
  if (!selected || selected === acted) return side.filter((s) => s !== acted);
  return side.map((s) => (s === acted ? selected : s));
}

/** An agent's latest action on serial within AGENT_MARK_MS of now, or null. */
export function agentActing(actions: DeviceAction[], serial: string, now: number): DeviceAction | null {
  for (let i = actions.length - 1; i >= 0; i--) {
    const a = actions[i];
    if (a.serial !== serial) continue;
    const at = Date.parse(a.createdAt);
    return Number.isFinite(at) && now - at <= AGENT_MARK_MS ? a : null;
  }
  return null;
}
