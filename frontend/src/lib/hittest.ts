import type { Bounds, NodeSnapshot, ScreenWindow, UiNode } from './types';

export function area(b: Bounds): number {
  return Math.max(0, b.right - b.left) * Math.max(0, b.bottom - b.top);
}

export function contains(b: Bounds, x: number, y: number): boolean {
  return x >= b.left && x < b.right && y >= b.top && y < b.bottom;
}

/** Normalises a drag rectangle so left ≤ right and top ≤ bottom, clamped to the screen. */
export function normalizeRect(x1: number, y1: number, x2: number, y2: number, width: number, height: number): Bounds {
  const clampX = (v: number) => Math.round(Math.min(Math.max(v, 0), width));
  const clampY = (v: number) => Math.round(Math.min(Math.max(v, 0), height));
  return {
    left: clampX(Math.min(x1, x2)),
    top: clampY(Math.min(y1, y2)),
    right: clampX(Math.max(x1, x2)),
    bottom: clampY(Math.max(y1, y2)),
  };
}

/** b in whole device pixels, as the server takes bounds. */
export function wholeBounds(b: Bounds): Bounds {
  return { left: Math.round(b.left), top: Math.round(b.top), right: Math.round(b.right), bottom: Math.round(b.bottom) };
}

/** The side of the area a click on an empty spot makes, in device pixels. */
export const CLICK_AREA_PX = 48;

/**
 * The area a click where no node is makes: CLICK_AREA_PX square around the point, in
 * whole device pixels (the stage's scale is rarely whole, so the point is fractional)
 * and kept on the screen when its size is known.
 */
export function areaAround(x: number, y: number, width = 0, height = 0): Bounds {
  const half = CLICK_AREA_PX / 2;
  const cx = Math.round(x);
  const cy = Math.round(y);
  const r = { left: Math.max(0, cx - half), top: Math.max(0, cy - half), right: cx + half, bottom: cy + half };
  if (width > 0) r.right = Math.max(r.left + 1, Math.min(r.right, Math.round(width)));
  if (height > 0) r.bottom = Math.max(r.top + 1, Math.min(r.bottom, Math.round(height)));
  return r;
}

/** What a pick on the on-screen keyboard says: the tree under it is the app's, the keys are not. */
export const IME_LABEL = 'Input method (keyboard), not the app';

/**
 * The topmost visible window at a device point (the wallpaper never counts), from the
 * freeze's window list; null when the list says nothing there. uiautomator dumps only
 * the active window, so this is how a point on the keyboard is told from the app below.
 */
export function windowAt(windows: ScreenWindow[] | undefined, x: number, y: number): ScreenWindow | null {
  for (const w of windows ?? []) {
    if (w.visible && w.type !== 'wallpaper' && contains(w.bounds, x, y)) return w;
  }
  return null;
}

/** The input method's window when the point lies on the keyboard, else null. */
export function keyboardAt(windows: ScreenWindow[] | undefined, x: number, y: number): ScreenWindow | null {
  const w = windowAt(windows, x, y);
  return w?.type === 'ime' ? w : null;
}

function depthOf(node: UiNode): number {
  const p = node.indexPath;
  if (Array.isArray(p)) return p.length;
  if (typeof p === 'string' && p.length > 0) return p.split(/[./]/).length;
  return 0;
}

/**
 * A node a person would mean when clicking: it says something (text, description, tag,
 * id) or reacts to touch. The full-screen root is never meaningful: picking it would
 * annotate "the whole screen", which the screen-level note already covers.
 */
export function isMeaningful(node: UiNode, screenWidth: number, screenHeight: number): boolean {
  const b = node.bounds;
  if (b.left <= 0 && b.top <= 0 && b.right >= screenWidth && b.bottom >= screenHeight) return false;
  if (area(b) === 0) return false;
  return Boolean(node.text || node.contentDescription || node.testTag || node.resourceId || node.clickable);
}

export class NodeIndex {
  readonly byUid = new Map<string, UiNode>();
  readonly order = new Map<string, number>();

  constructor(
    readonly nodes: UiNode[],
    readonly width: number,
    readonly height: number,
  ) {
    nodes.forEach((n, i) => {
      this.byUid.set(n.uid, n);
      this.order.set(n.uid, i);
    });
  }

  /** The smallest meaningful node containing the point; deeper and later nodes win ties. */
  hitTest(x: number, y: number): UiNode | null {
    let best: UiNode | null = null;
    let bestArea = Infinity;
    for (const node of this.nodes) {
      if (!contains(node.bounds, x, y) || !isMeaningful(node, this.width, this.height)) continue;
      const a = area(node.bounds);
      if (a < bestArea || (a === bestArea && best && depthOf(node) >= depthOf(best))) {
        best = node;
        bestArea = a;
      }
    }
    return best;
  }

  /** The chain from the outermost ancestor down to the node itself (the breadcrumb). */
  ancestry(uid: string): UiNode[] {
    const chain: UiNode[] = [];
    const seen = new Set<string>();
    let cur = this.byUid.get(uid);
    while (cur && !seen.has(cur.uid)) {
      seen.add(cur.uid);
      chain.unshift(cur);
      cur = cur.parentUid ? this.byUid.get(cur.parentUid) : undefined;
    }
    return chain;
  }

  /**
   * Breadcrumb crumbs: the ancestry without full-screen containers (the screen-level
   * note covers those) and wrappers that add nothing (same bounds as their
   * child and nothing to say), so each crumb changes scope.
   */
  crumbs(uid: string): UiNode[] {
    const full = (n: UiNode) =>
      n.bounds.left <= 0 && n.bounds.top <= 0 && n.bounds.right >= this.width && n.bounds.bottom >= this.height;
    const chain = this.ancestry(uid).filter((n, i, all) => i === all.length - 1 || !full(n));
    return chain.filter((n, i) => {
      if (i === chain.length - 1) return true;
      const child = chain[i + 1];
      const sameBox =
        n.bounds.left === child.bounds.left &&
        n.bounds.top === child.bounds.top &&
        n.bounds.right === child.bounds.right &&
        n.bounds.bottom === child.bounds.bottom;
      return !sameBox || isMeaningful(n, this.width, this.height);
    });
  }

  /** The meaningful node overlapping an area the most (intersection over the node's area). */
  bestForArea(b: Bounds): UiNode | null {
    let best: UiNode | null = null;
    let bestScore = 0;
    for (const node of this.nodes) {
      if (!isMeaningful(node, this.width, this.height)) continue;
      const ix = Math.max(0, Math.min(b.right, node.bounds.right) - Math.max(b.left, node.bounds.left));
      const iy = Math.max(0, Math.min(b.bottom, node.bounds.bottom) - Math.max(b.top, node.bounds.top));
      const inter = ix * iy;
      if (inter === 0) continue;
      const score = inter / Math.max(area(node.bounds), area(b));
      if (score > bestScore) {
        best = node;
        bestScore = score;
      }
    }
    return best;
  }
}

export function shortClass(cls: string | undefined): string {
  if (!cls) return 'View';
  const i = cls.lastIndexOf('.');
  return i >= 0 ? cls.slice(i + 1) : cls;
}

/** A short human label for a node: its text, description or tag, else its role/class. */
export function nodeLabel(node: Partial<Pick<UiNode, 'text' | 'contentDescription' | 'testTag' | 'resourceId' | 'role' | 'class' | 'password'>>): string {
  const pick = node.password ? '' : node.text || node.contentDescription || node.testTag || '';
  const kind = node.role || shortClass(node.class);
  if (!pick) {
    const id = node.resourceId ? node.resourceId.replace(/^.*:id\//, '') : '';
    return id ? `${kind} #${id}` : kind;
  }
  const trimmed = pick.length > 32 ? `${pick.slice(0, 31)}…` : pick;
  return `${kind} “${trimmed}”`;
}

export function snapshotOf(node: UiNode): NodeSnapshot {
  return {
    class: node.class ?? '',
    text: node.password ? '' : (node.text ?? ''),
    testTag: node.testTag ?? '',
    contentDescription: node.contentDescription ?? '',
    role: node.role ?? '',
    resourceId: node.resourceId ?? '',
  };
}
