// Browser-local counters for tests and debugging, exposed as
// window.FixThisConsoleDebug.consoleEventsDiagnostics(). Never persisted or sent anywhere.
export interface ConsoleEventsDiagnostics {
  connected: boolean;
  connects: number;
  reconnects: number;
  eventsReceived: number;
  eventsByType: Record<string, number>;
  lastEventId: string;
  /** Fallback timer ticks (only while SSE is down). */
  pollsPreview: number;
  pollsSessions: number;
  /** Every HTTP request to these routes, whatever the reason. */
  fetchPreview: number;
  fetchSessions: number;
  fetchSession: number;
  bootstrapPreviewFetches: number;
  ignoredOtherSession: number;
  errors: string[];
  replayOverflows: number;
  fullRefreshes: number;
  connectedAt: number;
}

export function newDiagnostics(): ConsoleEventsDiagnostics {
  return {
    connected: false,
    connects: 0,
    reconnects: 0,
    eventsReceived: 0,
    eventsByType: {},
    lastEventId: '',
    pollsPreview: 0,
    pollsSessions: 0,
    fetchPreview: 0,
    fetchSessions: 0,
    fetchSession: 0,
    bootstrapPreviewFetches: 0,
    ignoredOtherSession: 0,
    errors: [],
    replayOverflows: 0,
    fullRefreshes: 0,
    connectedAt: 0,
  };
}

export function recordError(d: ConsoleEventsDiagnostics, code: string): void {
  d.errors.push(code);
  if (d.errors.length > 50) d.errors.shift();
}
