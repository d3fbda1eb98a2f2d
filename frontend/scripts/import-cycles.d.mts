/** Every import cycle among files (relative path → text), each as its sorted paths. */
export function findCycles(files: Record<string, string>): string[][];
