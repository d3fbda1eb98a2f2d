/** Snapshot undo/redo over immutable values (the draft's item list). */
export class UndoStack<T> {
  constructor(
    public undo: T[] = [],
    public redo: T[] = [],
    private readonly limit = 50,
  ) {}

  /** Records the state before a change; a new change clears redo. */
  record(before: T): void {
    this.undo.push(before);
    if (this.undo.length > this.limit) this.undo.shift();
    this.redo = [];
  }

  /** Returns the state to restore, or null when there is nothing to undo. */
  stepBack(current: T): T | null {
    const prev = this.undo.pop();
    if (prev === undefined) return null;
    this.redo.push(current);
    return prev;
  }

  stepForward(current: T): T | null {
    const next = this.redo.pop();
    if (next === undefined) return null;
    this.undo.push(current);
    return next;
  }

  get canUndo(): boolean {
    return this.undo.length > 0;
  }

  get canRedo(): boolean {
    return this.redo.length > 0;
  }
}
