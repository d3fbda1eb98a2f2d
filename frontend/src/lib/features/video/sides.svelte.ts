// The side stages: the phones shown live beside the selected one, each with its own
// player reading GET /api/preview/stream?serial=. The selected phone keeps the main
// stage (Stage.svelte) and its player (livePlayer); a side stage becomes the main one
// when the user acts on it (actions.ts).
import { LivePlayer } from './player.svelte';

export class SideStage {
  readonly player = new LivePlayer(true);
  constructor(readonly serial: string) {}
}

export class SideStages {
  list = $state<SideStage[]>([]);

  get serials(): string[] {
    return this.list.map((s) => s.serial);
  }

  find(serial: string): SideStage | undefined {
    return this.list.find((s) => s.serial === serial);
  }
}

export const sideStages = new SideStages();
