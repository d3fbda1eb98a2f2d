import { describe, expect, it } from 'vitest';
import { CLICK_AREA_PX, NodeIndex, areaAround, isMeaningful, keyboardAt, nodeLabel, normalizeRect, windowAt } from './hittest';
import type { ScreenWindow, UiNode } from './types';
import { node } from './testing/fixtures';

const b = (left: number, top: number, right: number, bottom: number) => ({ left, top, right, bottom });

// A small Compose-like tree: root › content › list › row(clickable) › title text + icon
const nodes: UiNode[] = [
  node({ uid: 'root', parentUid: '', indexPath: '0', class: 'android.widget.FrameLayout', bounds: b(0, 0, 1080, 2400) }),
  node({ uid: 'content', parentUid: 'root', indexPath: '0.0', class: 'androidx.compose.ui.platform.ComposeView', resourceId: 'android:id/content', bounds: b(0, 0, 1080, 2400) }),
  node({ uid: 'list', parentUid: 'content', indexPath: '0.0.0', class: 'android.view.View', testTag: 'inbox_list', bounds: b(0, 200, 1080, 2200) }),
  node({ uid: 'row', parentUid: 'list', indexPath: '0.0.0.0', class: 'android.view.View', clickable: true, bounds: b(0, 200, 1080, 400) }),
  node({ uid: 'title', parentUid: 'row', indexPath: '0.0.0.0.0', class: 'android.widget.TextView', text: 'Quarterly report', bounds: b(40, 220, 700, 280) }),
  node({ uid: 'deco', parentUid: 'row', indexPath: '0.0.0.0.1', class: 'android.view.View', bounds: b(800, 220, 900, 300) }),
  node({ uid: 'pwd', parentUid: 'list', indexPath: '0.0.0.1', class: 'android.widget.EditText', text: 'hunter2', password: true, bounds: b(0, 500, 1080, 600) }),
];
const index = new NodeIndex(nodes, 1080, 2400);

describe('hitTest', () => {
  it.each([
    ['text inside a clickable row picks the text', 100, 250, 'title'],
    ['a decorative view falls back to the clickable row', 850, 250, 'row'],
    ['padding of the row picks the row', 1000, 390, 'row'],
    ['outside rows picks the tagged list', 500, 1500, 'list'],
    ['the status bar area picks nothing meaningful', 500, 100, null],
  ])('%s', (_name, x, y, want) => {
    expect(index.hitTest(x, y)?.uid ?? null).toBe(want);
  });

  it('never returns the full-screen root even if it has an id', () => {
    expect(isMeaningful(nodes[1], 1080, 2400)).toBe(false);
  });

  it('treats bounds as half-open so neighbours do not both match', () => {
    expect(index.hitTest(40, 219)?.uid).toBe('row');
    expect(index.hitTest(700, 250)?.uid).toBe('row');
  });
});

describe('ancestry and crumbs', () => {
  it('walks up to the root', () => {
    expect(index.ancestry('title').map((n) => n.uid)).toEqual(['root', 'content', 'list', 'row', 'title']);
  });
  it('drops the root and same-box wrappers that say nothing', () => {
    expect(index.crumbs('title').map((n) => n.uid)).toEqual(['list', 'row', 'title']);
  });
  it('accepts parentless top-level nodes that are not full-screen (semantics trees)', () => {
    const flat = new NodeIndex(
      [
        node({ uid: 'n0', parentUid: '', text: 'Good morning', bounds: b(53, 128, 374, 181) }),
        node({ uid: 'n4', parentUid: '', testTag: 'filter_all', clickable: true, bounds: b(53, 315, 228, 399) }),
        node({ uid: 'n4.0', parentUid: 'n4', text: 'All', bounds: b(142, 330, 186, 383) }),
      ],
      1080,
      2400,
    );
    expect(flat.hitTest(100, 150)?.uid).toBe('n0');
    expect(flat.hitTest(150, 350)?.uid).toBe('n4.0');
    expect(flat.crumbs('n4.0').map((n) => n.uid)).toEqual(['n4', 'n4.0']);
  });

  it('survives parent cycles', () => {
    const cyc = new NodeIndex(
      [
        node({ uid: 'a', parentUid: 'b', bounds: b(0, 0, 1, 1) }),
        node({ uid: 'b', parentUid: 'a', bounds: b(0, 0, 1, 1) }),
      ],
      10,
      10,
    );
    expect(cyc.ancestry('a').length).toBe(2);
  });
});

describe('areas', () => {
  it('normalises a drag in any direction and clamps to the screen', () => {
    expect(normalizeRect(900, 500, -20, 100, 1080, 2400)).toEqual(b(0, 100, 900, 500));
  });
  it('makes a click area of whole pixels around a fractional point, kept on the screen', () => {
    expect(areaAround(516.2, 260.47412353923204)).toEqual(b(492, 236, 540, 284));
    expect(areaAround(516.2, 260.47412353923204).right - areaAround(516.2, 260.47412353923204).left).toBe(CLICK_AREA_PX);
    expect(areaAround(3.5, 2399.6, 1080, 2400)).toEqual(b(0, 2376, 28, 2400));
    expect(areaAround(1079.9, -0.4, 1080, 2400)).toEqual(b(1056, 0, 1080, 24));
  });
  it('finds the best-overlapping meaningful node', () => {
    expect(index.bestForArea(b(30, 210, 710, 290))?.uid).toBe('title');
  });
});

describe('nodeLabel', () => {
  it('never shows password text', () => {
    expect(nodeLabel(nodes[6])).toBe('EditText');
  });
  it('prefers text and truncates long text', () => {
    expect(nodeLabel({ class: 'x.Button', role: 'Button', text: 'A'.repeat(40) })).toBe(`Button “${'A'.repeat(31)}…”`);
  });
  it('uses the resource id when there is nothing to read', () => {
    expect(nodeLabel({ class: 'android.view.View', resourceId: 'com.app:id/fab' })).toBe('View #fab');
  });
});

describe('windows over the app', () => {
  // Top first, as dumpsys lists them: the navigation bar over the keyboard over the app.
  const windows: ScreenWindow[] = [
    { title: 'NavigationBar0', type: 'navigation_bar', bounds: b(0, 2337, 1080, 2400), visible: true, focused: false },
    { title: 'InputMethod', type: 'ime', bounds: b(0, 1644, 1080, 2400), visible: true, focused: false },
    { title: 'NotificationShade', type: 'notification_shade', bounds: b(0, 0, 1080, 2400), visible: false, focused: false },
    { title: 'com.example/com.example.Main', type: 'app', bounds: b(0, 0, 1080, 2400), visible: true, focused: true },
    { title: 'ImageWallpaper', type: 'wallpaper', bounds: b(0, 0, 1080, 2400), visible: true, focused: false },
  ];

  it('finds the topmost visible window', () => {
    expect(windowAt(windows, 540, 2000)?.type).toBe('ime');
    expect(windowAt(windows, 540, 2380)?.type).toBe('navigation_bar');
    expect(windowAt(windows, 540, 600)?.type).toBe('app');
    expect(windowAt(undefined, 540, 600)).toBeNull();
  });

  it('tells a point on the keys from the app under them', () => {
    expect(keyboardAt(windows, 540, 1800)?.title).toBe('InputMethod');
    expect(keyboardAt(windows, 540, 1000)).toBeNull();
    const hidden = windows.map((w) => (w.type === 'ime' ? { ...w, visible: false } : w));
    expect(keyboardAt(hidden, 540, 1800)).toBeNull();
  });
});
