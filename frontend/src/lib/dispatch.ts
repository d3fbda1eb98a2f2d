// The console's one event dispatcher. Every event the server sends has a payload type
// in the generated wire contract (EventPayloads, from app/events' Defs), so a handler
// registered with on('preview-ready', …) receives a PreviewFrame and nothing else.
// Each feature registers its reducers (register in lib/features/*/events.ts), start.ts wires the
// side effects after them, and sync.ts dispatches what it parses off the stream.
import type { EventPayloads, EventType } from './wire.gen';

/** What a reducer did with an event, when that matters to someone else. */
export type Outcome = 'applied' | 'ignored-other-session' | 'active-session-deleted' | 'noop';

/** A handler for one event type; a reducer may say what it did. */
export type Handler<K extends EventType> = (payload: EventPayloads[K], id: string) => Outcome | void;

/** Told of every outcome other than applied and noop (the session feature counts and acts on them). */
export type OutcomeListener = (type: EventType, outcome: Outcome) => void;

/** Registers a handler; the dispatcher and each state module's register* take it. */
export type On = <K extends EventType>(type: K, handler: Handler<K>) => () => void;

export class Dispatcher {
  private readonly handlers = new Map<EventType, Handler<EventType>[]>();
  private readonly outcomeListeners: OutcomeListener[] = [];

  /** Calls handler for every event of type, after the handlers registered before it. */
  on: On = (type, handler) => {
    const list = this.handlers.get(type) ?? [];
    list.push(handler as Handler<EventType>);
    this.handlers.set(type, list);
    return () => {
      const at = list.indexOf(handler as Handler<EventType>);
      if (at >= 0) list.splice(at, 1);
    };
  };

  onOutcome(listener: OutcomeListener): void {
    this.outcomeListeners.push(listener);
  }

  /** Runs every handler of type in the order they were registered. */
  dispatch<K extends EventType>(type: K, payload: EventPayloads[K], id = ''): void {
    for (const handler of [...(this.handlers.get(type) ?? [])]) {
      const outcome = handler(payload, id);
      if (outcome && outcome !== 'applied' && outcome !== 'noop') {
        for (const l of this.outcomeListeners) l(type, outcome);
      }
    }
  }
}
