/** Every import cycle among files (relative path → text), each as its sorted paths. */
export function findCycles(files: Record<string, string>): string[][];
/** Every import that breaks one of the layout's rules, as "importer -> imported: rule". */
export function findRuleBreaks(files: Record<string, string>): string[];
