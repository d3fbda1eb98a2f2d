import { getContext } from 'svelte';
import type { Api } from './api';
import type { Sync } from './sync';

/**
 * The one way to the server: the Api (every request) and the Sync (event stream and
 * its fallback polling) that start.ts creates once. Actions take it as their first
 * argument; components get it with useTransport(), side effects from their
 * FeatureContext. Nothing holds it in a module global, so a test hands its own in.
 */
export interface Transport {
  readonly api: Api;
  readonly sync: Sync;
}

const KEY = Symbol('transport');

/** The context main.ts mounts the console with: the transport under its key. */
export function transportContext(t: Transport): Map<symbol, Transport> {
  return new Map([[KEY, t]]);
}

/** The transport, in a component's initialisation (mounted with transportContext). */
export function useTransport(): Transport {
  const t = getContext<Transport | undefined>(KEY);
  if (!t) throw new Error('the console was mounted without its transport context');
  return t;
}
