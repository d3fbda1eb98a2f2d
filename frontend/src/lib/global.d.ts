import type { ConsoleEventsDiagnostics } from './diagnostics';
import type { PreviewStats } from './features/video/stats';

declare global {
  interface Window {
    FixThisConsoleDebug?: { consoleEventsDiagnostics(): ConsoleEventsDiagnostics; previewStats(): PreviewStats };
  }
}
export {};
