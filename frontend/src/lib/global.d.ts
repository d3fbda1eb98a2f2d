import type { ConsoleEventsDiagnostics } from './diagnostics';

declare global {
  interface Window {
    FixThisConsoleDebug?: { consoleEventsDiagnostics(): ConsoleEventsDiagnostics };
  }
}
export {};
