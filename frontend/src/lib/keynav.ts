// Keyboard-only annotation: the order in which Tab / arrow keys walk the frozen
// screen's meaningful nodes. Reading order is by containment first (a card, then what is
// inside it), then by lines (top to bottom) and, within a line, left to right.
import { isMeaningful, type NodeIndex } from './hittest';
import type { Bounds, UiNode } from './types';

const height = (b: Bounds) => Math.max(0, b.bottom - b.top);

/** Whether two boxes share a line: they overlap vertically by half the smaller height. */
export function sameLine(a: Bounds, b: Bounds): boolean {
  const overlap = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return overlap > 0 && overlap >= Math.min(height(a), height(b)) / 2;
}

/** Sorts siblings into reading order: lines top to bottom, each line left to right. */
export function byLines(nodes: UiNode[]): UiNode[] {
  const sorted = [...nodes].sort((a, b) => a.bounds.top - b.bounds.top || a.bounds.left - b.bounds.left);
  const lines: UiNode[][] = [];
  for (const n of sorted) {
    const line = lines[lines.length - 1];
    if (line && sameLine(line[0].bounds, n.bounds)) line.push(n);
    else lines.push([n]);
  }
  return lines.flatMap((l) => l.sort((a, b) => a.bounds.left - b.bounds.left || a.bounds.top - b.bounds.top));
}

/**
 * The meaningful nodes of a frozen screen in reading order. Each node hangs under its
 * nearest meaningful ancestor, so the walk visits a container and then its contents.
 */
export function readingOrder(index: Pick<NodeIndex, 'nodes' | 'byUid' | 'width' | 'height'>): UiNode[] {
  const meaningful = index.nodes.filter((n) => isMeaningful(n, index.width, index.height));
  const keep = new Set(meaningful.map((n) => n.uid));
  const children = new Map<string, UiNode[]>();
  const ROOT = '';
  for (const n of meaningful) {
    let p = n.parentUid ? index.byUid.get(n.parentUid) : undefined;
    const seen = new Set<string>([n.uid]);
    while (p && !keep.has(p.uid) && !seen.has(p.uid)) {
      seen.add(p.uid);
      p = p.parentUid ? index.byUid.get(p.parentUid) : undefined;
    }
    const key = p && keep.has(p.uid) && !seen.has(p.uid) ? p.uid : ROOT;
    const list = children.get(key);
    if (list) list.push(n);
    else children.set(key, [n]);
  }
  const out: UiNode[] = [];
  const visited = new Set<string>();
  const walk = (key: string) => {
    for (const n of byLines(children.get(key) ?? [])) {
      if (visited.has(n.uid)) continue;
      visited.add(n.uid);
      out.push(n);
      walk(n.uid);
    }
  };
  walk(ROOT);
  // A parent cycle in a malformed dump leaves nodes unreachable from the root: visit
  // them too, so every meaningful node stays reachable from the keyboard.
  for (const n of byLines(meaningful)) {
    if (visited.has(n.uid)) continue;
    visited.add(n.uid);
    out.push(n);
    walk(n.uid);
  }
  return out;
}

export type NavKey = 'next' | 'prev' | 'first' | 'last';

/**
 * The node the keyboard cursor moves to, or null when the move leaves the list (Tab past
 * the last node, Shift-Tab before the first): then focus should leave the frame.
 */
export function step(order: UiNode[], currentUid: string | null, key: NavKey): UiNode | null {
  if (order.length === 0) return null;
  if (key === 'first') return order[0];
  if (key === 'last') return order[order.length - 1];
  const i = currentUid ? order.findIndex((n) => n.uid === currentUid) : -1;
  if (i < 0) return key === 'next' ? order[0] : order[order.length - 1];
  const j = key === 'next' ? i + 1 : i - 1;
  return j >= 0 && j < order.length ? order[j] : null;
}
