import { describe, expect, it } from 'vitest';
import { NodeIndex } from './hittest';
import { byLines, readingOrder, sameLine, step } from './keynav';
import type { UiNode } from './types';
import { node } from './testing/fixtures';

const b = (left: number, top: number, right: number, bottom: number) => ({ left, top, right, bottom });
const n = (uid: string, parentUid: string | null, bounds: ReturnType<typeof b>, extra: Partial<UiNode> = {}): UiNode =>
  node({ uid, parentUid: parentUid ?? '', class: 'android.view.View', bounds, ...extra });

// The demo list screen in miniature: a header line (greeting, search, account), a title,
// and a list with a card whose favourite button sits to the right of two text lines.
const nodes: UiNode[] = [
  n('root', null, b(0, 0, 1080, 2400), { class: 'android.widget.FrameLayout' }),
  n('account', 'root', b(943, 147, 1048, 252), { contentDescription: 'Account', clickable: true }),
  n('greeting', 'root', b(53, 128, 374, 181), { text: 'Good morning, Sam' }),
  n('search', 'root', b(806, 136, 932, 262), { testTag: 'search_button', clickable: true }),
  n('searchIcon', 'search', b(837, 167, 900, 230), { contentDescription: 'Search trails' }),
  n('title', 'root', b(53, 186, 547, 270), { text: 'Find your next trail' }),
  n('wrapper', 'root', b(0, 431, 1080, 2126)), // says nothing: its children hang under root
  n('card', 'wrapper', b(42, 442, 1038, 748), { testTag: 'trail_card_0', clickable: true }),
  n('fav', 'card', b(880, 532, 1006, 658), { testTag: 'favorite_0', clickable: true }),
  n('name', 'card', b(358, 494, 684, 557), { text: 'Eagle Ridge Loop' }),
  n('region', 'card', b(411, 568, 700, 621), { text: 'Saxon Switzerland' }),
  n('level', 'card', b(379, 648, 508, 690), { text: 'Moderate' }),
  n('length', 'card', b(550, 648, 764, 690), { text: '8.4 km' }),
  n('empty', 'card', b(100, 700, 100, 700), { text: 'zero-size' }),
];
const index = new NodeIndex(nodes, 1080, 2400);

describe('sameLine', () => {
  it.each([
    ['side by side', b(0, 0, 10, 10), b(20, 2, 30, 12), true],
    ['stacked', b(0, 0, 10, 10), b(0, 10, 10, 20), false],
    ['a tall box beside a short one it half covers', b(0, 0, 10, 100), b(20, 40, 30, 60), true],
    ['barely touching', b(0, 0, 10, 10), b(20, 8, 30, 18), false],
  ])('%s', (_name, a, c, want) => {
    expect(sameLine(a, c)).toBe(want);
  });
});

describe('readingOrder', () => {
  const order = readingOrder(index).map((x) => x.uid);

  it('walks lines top to bottom, left to right, containers before their contents', () => {
    expect(order).toEqual(['greeting', 'search', 'searchIcon', 'account', 'title', 'card', 'name', 'region', 'fav', 'level', 'length']);
  });

  it('skips the full-screen root, silent wrappers and zero-size nodes', () => {
    expect(order).not.toContain('root');
    expect(order).not.toContain('wrapper');
    expect(order).not.toContain('empty');
  });

  it('survives a parent cycle in a malformed dump', () => {
    const loop = new NodeIndex([n('a', 'b', b(0, 0, 10, 10), { text: 'A' }), n('b', 'a', b(0, 20, 10, 30), { text: 'B' })], 100, 100);
    expect(readingOrder(loop).map((x) => x.uid).sort()).toEqual(['a', 'b']);
  });

  it('orders siblings in columns by lines', () => {
    const row = [n('r', null, b(200, 0, 300, 50)), n('l', null, b(0, 10, 100, 40)), n('below', null, b(0, 60, 100, 90))];
    expect(byLines(row).map((x) => x.uid)).toEqual(['l', 'r', 'below']);
  });
});

describe('step', () => {
  const order = readingOrder(index);
  it.each<[string, string | null, Parameters<typeof step>[2], string | null]>([
    ['Tab from nothing starts at the first node', null, 'next', 'greeting'],
    ['Shift-Tab from nothing starts at the last node', null, 'prev', 'length'],
    ['Tab moves forward', 'title', 'next', 'card'],
    ['Shift-Tab moves back', 'card', 'prev', 'title'],
    ['Tab past the last node leaves the frame', 'length', 'next', null],
    ['Shift-Tab before the first node leaves the frame', 'greeting', 'prev', null],
    ['Home', 'card', 'first', 'greeting'],
    ['End', 'card', 'last', 'length'],
    ['an unknown current node restarts', 'gone', 'next', 'greeting'],
  ])('%s', (_name, from, key, want) => {
    expect(step(order, from, key)?.uid ?? null).toBe(want);
  });

  it('returns null on an empty screen', () => {
    expect(step([], null, 'next')).toBeNull();
  });
});
