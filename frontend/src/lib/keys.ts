// Keyboard-first shortcuts: A annotate, S select, Esc cancel, Ctrl/Cmd-Z undo,
// Shift-Ctrl/Cmd-Z redo, Ctrl/Cmd-Enter Save to MCP, T Talk / Stop talking.
import { annotate, cancelPending, redo, selectMode, undo } from './actions/annotate';
import { saveToMcp } from './actions/save';
import { toggleTalk } from './features/voice/actions';
import type { Transport } from './transport';
import { ui } from './state/ui.svelte';

function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  const tag = el.tagName;
  return tag === 'TEXTAREA' || tag === 'INPUT' || tag === 'SELECT' || el.isContentEditable;
}

export function onGlobalKey(transport: Transport, e: KeyboardEvent): void {
  const mod = e.ctrlKey || e.metaKey;
  if (mod && e.key === 'Enter') {
    e.preventDefault();
    void saveToMcp(transport);
    return;
  }
  if (e.key === 'Escape') {
    if (ui.dialog || ui.connectOpen || ui.devicesOpen) return; // the open surface handles it
    if (ui.drawerOpen) {
      ui.drawerOpen = false;
      return;
    }
    if (ui.pending) {
      e.preventDefault();
      cancelPending();
      return;
    }
    if (ui.editingDraftId || ui.selectedItemId) {
      ui.editingDraftId = '';
      ui.selectedItemId = '';
    }
    return;
  }
  if (typingIn(e.target) || ui.dialog) return;
  if (mod && (e.key === 'z' || e.key === 'Z')) {
    e.preventDefault();
    if (e.shiftKey) redo();
    else undo();
    return;
  }
  if (mod && (e.key === 'y' || e.key === 'Y')) {
    e.preventDefault();
    redo();
    return;
  }
  if (mod || e.altKey) return;
  if (e.key === 'a' || e.key === 'A') {
    e.preventDefault();
    void annotate(transport);
  } else if (e.key === 's' || e.key === 'S') {
    e.preventDefault();
    void selectMode(transport);
  } else if (e.key === 't' || e.key === 'T') {
    e.preventDefault();
    void toggleTalk(transport);
  }
}
