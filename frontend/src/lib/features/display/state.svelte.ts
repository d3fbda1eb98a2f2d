// The selected phone's display conditions as the #displaySettings panel shows them.
import type { DisplaySettings } from '../../wire.gen';

const OPEN_KEY = 'fixthis.displayOpen';

/**
 * Windows this short or shorter fold the panel at first: open, its ~240 px leave the
 * annotation list a row or two beside a saved item's editor at 900 px high, and push
 * them out of sight at 768.
 */
export const FOLD_BELOW_HEIGHT = 1000;

export class DisplayPanelState {
  settings = $state<DisplaySettings | null>(null);
  /** The control being applied ("night", "fontScale", …), or "" when idle. */
  busy = $state('');
  /** The controls show; folded, the head still says the conditions and offers Restore. */
  open = $state(true);

  set(s: DisplaySettings | null): void {
    this.settings = s;
  }

  /**
   * The panel as this browser left it, else open on a tall window and folded on a
   * short one (windowHeight in CSS pixels).
   */
  restoreOpen(windowHeight: number, storage: Pick<Storage, 'getItem'> | null): void {
    let kept: string | null = null;
    try {
      kept = storage?.getItem(OPEN_KEY) ?? null;
    } catch {
      // No storage: the window's height decides.
    }
    this.open = kept === null ? windowHeight > FOLD_BELOW_HEIGHT : kept === 'true';
  }

  /** Opens or folds the panel, remembered in this browser. */
  toggle(storage: Pick<Storage, 'setItem'> | null): void {
    this.open = !this.open;
    try {
      storage?.setItem(OPEN_KEY, String(this.open));
    } catch {
      // No storage: the choice lasts this page.
    }
  }
}

export const displayPanel = new DisplayPanelState();

/** One step of the panel's display size row: a label and a factor of the physical density. */
export const DENSITY_STEPS = [
  { label: 'Small', factor: 0.85 },
  { label: 'Default', factor: 1 },
  { label: 'Large', factor: 1.15 },
  { label: 'Larger', factor: 1.3 },
] as const;

export const FONT_STEPS = [0.85, 1, 1.15, 1.3, 1.5, 2] as const;

export const LOCALE_STEPS = [
  { tag: '', label: 'System' },
  { tag: 'ar', label: 'العربية (RTL)' },
  { tag: 'he', label: 'עברית (RTL)' },
  { tag: 'de', label: 'Deutsch' },
] as const;

export const ANIMATION_STEPS = [
  { scale: 0, label: 'Off' },
  { scale: 1, label: '1×' },
  { scale: 5, label: '5× slower' },
] as const;

/** The density of a display size step, kept inside the range the phone takes. */
export function densityFor(s: DisplaySettings, factor: number): number {
  if (factor === 1) return 0; // the phone's own
  const d = Math.round(s.state.physicalDensity * factor);
  return Math.min(s.maxDensity, Math.max(s.minDensity, d));
}

/** Which display size step the phone is at, or -1 for another density. */
export function densityStep(s: DisplaySettings): number {
  return DENSITY_STEPS.findIndex((st) => {
    const d = densityFor(s, st.factor);
    return d === 0 ? s.state.density === s.state.physicalDensity : d === s.state.density;
  });
}

/** A short human line for saved conditions (the Inspector's). */
export function conditionsLabel(c: { night?: boolean; fontScale?: number; density?: number; locale?: string; animationScale?: number | null } | null | undefined): string {
  if (!c) return '';
  const parts: string[] = [];
  if (c.night) parts.push('Dark');
  if (c.fontScale && c.fontScale !== 1) parts.push(`Font ${c.fontScale}×`);
  if (c.locale) parts.push(c.locale);
  if (c.density) parts.push(`${c.density} dpi`);
  if (c.animationScale != null && c.animationScale !== 1) parts.push(c.animationScale === 0 ? 'No animations' : `Animations ${c.animationScale}×`);
  return parts.join(' · ');
}
