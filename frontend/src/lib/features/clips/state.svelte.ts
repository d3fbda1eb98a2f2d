// The clip button's state: what it is doing, and a recording whose cut failed.

/** A recording the app still holds (until its time limit) whose cut failed. */
export interface KeptRecording {
  recordingId: string;
  serial: string;
}

export class ClipState {
  /** A recording runs (the button is held), or a cut is on its way. */
  busy = $state<'' | 'cutting' | 'recording'>('');
  /** The next click on the button cuts this recording again (actions.ts). */
  kept = $state<KeptRecording | null>(null);
}

export const clips = new ClipState();
