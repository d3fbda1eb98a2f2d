// What every feature folder under lib/features/ gives start.ts: its reducers, which
// change its own state and nothing else, and the side effects that run after every
// feature's reducers (a reread, a notice, the microphone closing). State first, so by
// the time a side effect runs the state says what the event did.
import type { ConsoleEventsDiagnostics } from '../diagnostics';
import type { On, OutcomeListener } from '../dispatch';
import type { Transport } from '../transport';

/** What side effects may use besides the dispatcher's on. */
export interface FeatureContext {
  on: On;
  /** Told when a reducer ignored an event for another session or saw the active one deleted. */
  onOutcome(listener: OutcomeListener): void;
  diagnostics: ConsoleEventsDiagnostics;
  /** A full reread from the app's HTTP routes (after the event stream lost events). */
  refresh(): Promise<void>;
  /** The server, for the actions a side effect runs. */
  transport: Transport;
}

/** A feature's events module (lib/features/<name>/events.ts). */
export interface Feature {
  /** Registers the reducers: each event applied to the feature's state (none for a feature whose events carry no state). */
  register?(on: On): void;
  /** Registers what the feature does beyond its state when an event arrives. */
  effects?(ctx: FeatureContext): void;
}
