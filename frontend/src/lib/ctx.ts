import type { Api } from './api';
import type { Sync } from './sync';

/** The started transport, shared by the action modules (set once by start()). */
export const ctx: { api: Api; sync: Sync } = { api: undefined as unknown as Api, sync: undefined as unknown as Sync };
