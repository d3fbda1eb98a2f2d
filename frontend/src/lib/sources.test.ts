import { describe, expect, it } from 'vitest';
import { confident, isStringsDefinition, reasonText, sourcesKey, splitPath, tokenText, topCandidates } from './sources';
import type { Item, SourcesReason } from './types';
import { snapshot, sources } from './testing/fixtures';

const node = (comment: string, text = 'Find your next trail', top = 186): Pick<Item, 'target' | 'comment'> => ({
  comment,
  target: { type: 'node', nodeUid: 'n1', bounds: { left: 53, top, right: 547, bottom: 270 }, snapshot: snapshot({ text, testTag: 'screen_title' }) },
});

describe('sourcesKey', () => {
  it('is stable for the same target and comment', () => {
    expect(sourcesKey(node('Bigger'))).toBe(sourcesKey(node('Bigger')));
  });
  it.each([
    ['the comment changed', node('Smaller')],
    ['the node text changed', node('Bigger', 'Find a trail')],
    ['the bounds changed', node('Bigger', 'Find your next trail', 190)],
    ['the target became an area', { comment: 'Bigger', target: { type: 'area' as const, bounds: { left: 53, top: 186, right: 547, bottom: 270 } } }],
    ['the target became the screen', { comment: 'Bigger', target: { type: 'screen' as const } }],
  ])('changes when %s', (_name, other) => {
    expect(sourcesKey(other)).not.toBe(sourcesKey(node('Bigger')));
  });
});

describe('reasonText', () => {
  it.each<[SourcesReason, string, boolean]>([
    ['index-building', 'Indexing sources…', true],
    ['no-project-dir', 'No Android sources in the project folder', false],
    ['index-error', 'The source index could not be built', false],
    ['no-match', 'No confident match in the sources', false],
    ['', 'No confident match in the sources', false],
  ])('%s', (reason, title, busy) => {
    expect(reasonText(reason)).toMatchObject({ title, busy });
  });
});

describe('helpers', () => {
  it('keeps the top three candidates with a file', () => {
    const c = (file: string) => ({ file, line: 1, confidence: 'low', score: 0, margin: 0, matched: [] });
    const data = sources({ itemId: 'i', candidates: [c('a.kt'), c(''), c('b.kt'), c('c.kt'), c('d.kt')] });
    expect(topCandidates(data).map((x) => x.file)).toEqual(['a.kt', 'b.kt', 'c.kt']);
    expect(topCandidates(undefined)).toEqual([]);
  });
  it('never offers a strings file as the place to edit', () => {
    const c = (file: string, confidence = 'medium') => ({ file, line: 1, confidence, score: 0, margin: 0, matched: [] });
    const data = sources({
      itemId: 'i',
      candidates: [c('app/src/main/res/values/strings.xml'), c('app/src/main/res/values-de/strings.xml'), c('shared/src/commonMain/composeResources/values/strings.xml')],
    });
    expect(topCandidates(data)).toEqual([]);
    expect(confident(topCandidates(data))).toBe(false);
    const mixed = { ...data, candidates: [c('app/src/main/res/values/strings.xml'), c('app/src/main/res/layout/main.xml'), c('app/src/main/res/xml/prefs.xml')] };
    expect(topCandidates(mixed).map((x) => x.file)).toEqual(['app/src/main/res/layout/main.xml', 'app/src/main/res/xml/prefs.xml']);
    expect(confident(topCandidates(mixed))).toBe(true);
    expect(confident([c('a.kt', 'low')])).toBe(false);
    expect(isStringsDefinition('app/src/main/res/values/plurals.xml')).toBe(true);
    expect(isStringsDefinition('app/src/main/res/values/colors.xml')).toBe(false);
    expect(isStringsDefinition('app/src/main/java/Strings.kt')).toBe(false);
  });
  it('splits paths', () => {
    expect(splitPath('app/src/ui/TrailListScreen.kt')).toEqual({ dir: 'app/src/ui', name: 'TrailListScreen.kt' });
    expect(splitPath('Main.kt')).toEqual({ dir: '', name: 'Main.kt' });
  });
  it('spells reason tokens as words', () => {
    expect(tokenText('nearbyText')).toBe('nearby text');
    expect(tokenText('tag')).toBe('tag');
  });
});
