/** Every import cycle among files (relative path → text), each as its sorted paths. */
export function findCycles(files: Record<string, string>): string[][];
/** Every import that breaks one of the layout's rules, as "importer -> imported: rule". */
export function findRuleBreaks(files: Record<string, string>): string[];
/** The rule a module breaks by importing a global another module fills in at start. */
export const PATCHED_GLOBAL: string;
/** Whether the module at path exports such a global (an `export let`, or a placeholder cast from undefined or null). */
export function exportsPatchedGlobal(path: string, text: string): boolean;
