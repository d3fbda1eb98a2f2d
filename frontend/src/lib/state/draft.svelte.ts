import { NodeIndex } from '../hittest';
import { UndoStack } from '../undo';
import {
  type DraftClip,
  type DraftItem,
  type DraftWorkspace,
  type KeyValueStorage,
  createWorkspace,
  newId,
  removeWorkspace,
  saveWorkspace,
  type WorkspaceContext,
} from '../workspace';
import type { Freeze, Severity, Target } from '../types';

function memoryStorage(): KeyValueStorage {
  const m = new Map<string, string>();
  return {
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => void m.set(k, v),
    removeItem: (k) => void m.delete(k),
    key: (i) => [...m.keys()][i] ?? null,
    get length() {
      return m.size;
    },
  };
}

export function browserStorage(): KeyValueStorage {
  try {
    const s = globalThis.localStorage;
    if (s) return s;
  } catch {
    // storage disabled (e.g. privacy mode): keep drafts in memory for this tab
  }
  return memoryStorage();
}

/** The frozen draft workspace: pending annotations on one frozen screen. */
/** What a workspace needs of a freeze. */
type FrozenFrame = Pick<Freeze, 'frozenId' | 'imageUrl' | 'screen' | 'nodes'>;

export class DraftState {
  workspace = $state<DraftWorkspace | null>(null);
  items = $state<DraftItem[]>([]);
  canUndo = $state(false);
  canRedo = $state(false);
  storageFailed = $state(false);
  index: NodeIndex | null = null;
  private undo = new UndoStack<DraftItem[]>();

  constructor(readonly storage: KeyValueStorage) {}

  written = $derived(this.items.filter((i) => i.comment.trim().length > 0));
  pinOnly = $derived(this.items.filter((i) => i.comment.trim().length === 0));
  dirty = $derived(this.items.length > 0);

  begin(freeze: FrozenFrame, context: Omit<WorkspaceContext, 'frozenAt' | 'frozenId'>): void {
    const ws = createWorkspace(
      { ...context, frozenId: freeze.frozenId, frozenAt: new Date().toISOString() },
      freeze.screen,
      freeze.imageUrl,
      freeze.nodes ?? [],
    );
    this.adopt(ws);
  }

  /** Takes over a workspace (new, or recovered from storage). */
  adopt(ws: DraftWorkspace): void {
    ws.lifecycle = 'active';
    this.workspace = ws;
    this.items = ws.items;
    this.undo = new UndoStack<DraftItem[]>(ws.history.undo, ws.history.redo);
    this.index = new NodeIndex(ws.nodes ?? [], ws.frozenScreen?.width ?? 0, ws.frozenScreen?.height ?? 0);
    this.syncFlags();
  }

  /** Rebinds the workspace's items to a new frozen frame (Recapture, Re-capture on 409). */
  rebase(freeze: FrozenFrame): void {
    const ws = this.workspace;
    if (!ws) return;
    ws.context = { ...ws.context, frozenId: freeze.frozenId, frozenAt: new Date().toISOString() };
    ws.frozenScreen = freeze.screen;
    ws.screenshotUrl = freeze.imageUrl;
    ws.nodes = freeze.nodes ?? [];
    this.index = new NodeIndex(ws.nodes, freeze.screen.width, freeze.screen.height);
    this.workspace = { ...ws };
    this.persist();
  }

  private change(next: DraftItem[]): void {
    this.undo.record($state.snapshot(this.items) as DraftItem[]);
    this.items = next;
    this.persist();
  }

  add(target: Target, comment: string, severity: Severity, label: string, clip?: DraftClip, check?: string): DraftItem | null {
    const ws = this.workspace;
    if (!ws) return null;
    const item: DraftItem = {
      draftItemId: newId('d'),
      workspaceId: ws.workspaceId,
      target,
      severity,
      comment,
      createdAt: new Date().toISOString(),
      label,
      ...(clip ? { clip } : {}),
      ...(check ? { check } : {}),
    };
    this.change([...this.items, item]);
    return item;
  }

  update(draftItemId: string, patch: Partial<Pick<DraftItem, 'comment' | 'severity' | 'target' | 'label' | 'clip'>>): void {
    this.change(this.items.map((i) => (i.draftItemId === draftItemId ? { ...i, ...patch } : i)));
  }

  remove(draftItemId: string): void {
    this.change(this.items.filter((i) => i.draftItemId !== draftItemId));
  }

  stepBack(): boolean {
    const prev = this.undo.stepBack($state.snapshot(this.items) as DraftItem[]);
    if (!prev) return false;
    this.items = prev;
    this.persist();
    return true;
  }

  stepForward(): boolean {
    const next = this.undo.stepForward($state.snapshot(this.items) as DraftItem[]);
    if (!next) return false;
    this.items = next;
    this.persist();
    return true;
  }

  /** Items now held by the server leave the local workspace (no double counting). */
  dropSaved(draftItemIds: string[]): void {
    const gone = new Set(draftItemIds);
    this.items = this.items.filter((i) => !gone.has(i.draftItemId));
    this.undo = new UndoStack<DraftItem[]>();
    this.persist();
  }

  persist(): void {
    const ws = this.workspace;
    if (!ws) return;
    ws.items = $state.snapshot(this.items) as DraftItem[];
    ws.history = { undo: this.undo.undo, redo: this.undo.redo };
    ws.revision += 1;
    ws.updatedAt = new Date().toISOString();
    this.syncFlags();
    if (ws.items.length === 0) {
      removeWorkspace(this.storage, ws.context.sessionId, ws.workspaceId);
      return;
    }
    this.storageFailed = !saveWorkspace(this.storage, $state.snapshot(ws) as DraftWorkspace);
  }

  private syncFlags(): void {
    this.canUndo = this.undo.canUndo;
    this.canRedo = this.undo.canRedo;
  }

  /** Leaves the frozen workspace; items stay in storage unless `discard` is set. */
  close(discard: boolean): void {
    const ws = this.workspace;
    if (ws && discard) removeWorkspace(this.storage, ws.context.sessionId, ws.workspaceId);
    else if (ws && this.items.length > 0) {
      ws.lifecycle = 'recovery';
      this.persist();
    }
    this.workspace = null;
    this.items = [];
    this.index = null;
    this.undo = new UndoStack<DraftItem[]>();
    this.syncFlags();
  }
}

export const draft = new DraftState(browserStorage());
