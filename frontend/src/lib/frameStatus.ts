export type FrameLabel =
  | 'Live preview'
  | 'Frozen for annotation'
  | 'Saved screen'
  | 'Stale frame'
  | 'No screenshot'
  | 'Interaction blocked';

export type FrameKind = 'live' | 'frozen' | 'saved' | 'stale' | 'none' | 'blocked';

export interface FrameStatusInput {
  /** An image is on the stage (live, frozen or saved). */
  hasImage: boolean;
  stageMode: 'live' | 'frozen' | 'saved';
  /** Server-reported preview state. */
  previewState?: string;
  /** Live events are down: the last frame may be old and device actions are paused. */
  connectionDown: boolean;
}

const LABEL: Record<FrameKind, FrameLabel> = {
  live: 'Live preview',
  frozen: 'Frozen for annotation',
  saved: 'Saved screen',
  stale: 'Stale frame',
  none: 'No screenshot',
  blocked: 'Interaction blocked',
};

/**
 * The preview badge. Precedence (docs/console.md, "Preview badge"): Interaction blocked beats
 * stale and frozen; Stale frame beats live when actions are off but the image remains.
 */
export function frameStatus(input: FrameStatusInput): { kind: FrameKind; label: FrameLabel } {
  const kind = ((): FrameKind => {
    if (input.stageMode === 'saved') return input.hasImage ? 'saved' : 'none';
    if (input.previewState === 'blocked') return 'blocked';
    if (!input.hasImage) return 'none';
    if (input.stageMode === 'frozen') return 'frozen';
    if (input.previewState === 'stale' || input.previewState === 'no-device' || input.connectionDown) return 'stale';
    return 'live';
  })();
  return { kind, label: LABEL[kind] };
}
