import { describe, expect, it } from 'vitest';
import type { DisplaySettings } from '../../wire.gen';
import { DisplayPanelState, FOLD_BELOW_HEIGHT, conditionsLabel, densityFor, densityStep } from './state.svelte';

function settings(density: number): DisplaySettings {
  return {
    serial: 's', conditions: '', minFontScale: 0.85, maxFontScale: 2, minDensity: 315, maxDensity: 630,
    state: { night: false, fontScale: 1, density, physicalDensity: 420, locale: '', package: 'p', localeSupported: true, animationScale: 1, changed: false },
  };
}

describe('display size steps', () => {
  it('maps steps to densities inside the range, the default to a reset', () => {
    expect(densityFor(settings(420), 1)).toBe(0);
    expect(densityFor(settings(420), 0.85)).toBe(357);
    expect(densityFor(settings(420), 1.3)).toBe(546);
    expect(densityFor(settings(420), 0.5)).toBe(315);
  });
  it('finds the step the phone is at', () => {
    expect(densityStep(settings(420))).toBe(1);
    expect(densityStep(settings(546))).toBe(3);
    expect(densityStep(settings(400))).toBe(-1);
  });
});

describe('conditionsLabel', () => {
  it('names only what differs from the defaults', () => {
    expect(conditionsLabel({ night: true, fontScale: 1.3, locale: 'ar', density: 360 })).toBe('Dark · Font 1.3× · ar · 360 dpi');
    expect(conditionsLabel({ animationScale: 0 })).toBe('No animations');
    expect(conditionsLabel(null)).toBe('');
  });
});

describe('the panel fold', () => {
  const memory = () => {
    const m = new Map<string, string>();
    return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
  };

  it('starts folded on a laptop-high window and open on a tall one', () => {
    const p = new DisplayPanelState();
    p.restoreOpen(768, memory());
    expect(p.open).toBe(false);
    p.restoreOpen(FOLD_BELOW_HEIGHT, null);
    expect(p.open).toBe(false);
    p.restoreOpen(900, memory());
    expect(p.open).toBe(false);
    p.restoreOpen(1080, memory());
    expect(p.open).toBe(true);
  });

  it("keeps the user's choice over the window's height", () => {
    const store = memory();
    const p = new DisplayPanelState();
    p.restoreOpen(768, store);
    p.toggle(store);
    expect(p.open).toBe(true);
    const next = new DisplayPanelState();
    next.restoreOpen(768, store);
    expect(next.open).toBe(true);
    next.toggle(store);
    const third = new DisplayPanelState();
    third.restoreOpen(1200, store);
    expect(third.open).toBe(false);
  });

  it('works without storage', () => {
    const p = new DisplayPanelState();
    const broken = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); } };
    p.restoreOpen(700, broken);
    expect(p.open).toBe(false);
    p.toggle(broken);
    expect(p.open).toBe(true);
  });
});
