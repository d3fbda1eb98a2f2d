import type { ConsoleEventsDiagnostics } from './diagnostics';
import type { PreviewStats } from './video/stats';

declare global {
  interface Window {
    FixThisConsoleDebug?: { consoleEventsDiagnostics(): ConsoleEventsDiagnostics; previewStats(): PreviewStats };
  }
}
export {};
