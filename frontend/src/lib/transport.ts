import type { Api } from './api';
import type { Sync } from './sync';

/**
 * The one way to the server: the Api (every request) and the Sync (event stream and
 * its fallback polling) that start() creates. Actions use it; components call actions.
 */
export const transport: { api: Api; sync: Sync } = { api: undefined as unknown as Api, sync: undefined as unknown as Sync };
