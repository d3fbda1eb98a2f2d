import { describe, expect, it } from 'vitest';
import { findCycles } from '../../scripts/import-cycles.mjs';

describe('import cycles', () => {
  it('finds none in the console', () => {
    const raw = import.meta.glob<string>(['/src/**/*.ts', '/src/**/*.svelte'], { query: '?raw', import: 'default', eager: true });
    const files = Object.fromEntries(Object.entries(raw).map(([path, text]) => [path.replace(/^\/src\//, ''), text]));
    expect(Object.keys(files)).toContain('lib/sync.ts');
    expect(findCycles(files)).toEqual([]);
  });

  it('finds a circle closed by a type-only import, and one through a component', () => {
    const files = {
      'lib/actions/run.ts': "import { transport } from '../transport';\nexport const run = () => transport;\n",
      'lib/transport.ts': "import type { Sync } from './sync';\nexport const transport: { sync?: Sync } = {};\n",
      'lib/sync.ts': "import { run } from './actions/run';\nimport { app } from './state/app.svelte';\nexport class Sync { go = run; a = app; }\n",
      'lib/state/app.svelte.ts': 'export const app = {};\n',
      'Panel.svelte': "<script lang=\"ts\">\n  import { app } from './lib/state/app.svelte';\n  import Self from './Panel.svelte';\n</script>\n<p>{app}</p>\n",
      'lib/leaf.ts': "import v from './data.json?raw';\nimport { app } from './state/app.svelte';\nexport default [v, app];\n",
    };
    expect(findCycles(files)).toEqual([['Panel.svelte'], ['lib/actions/run.ts', 'lib/sync.ts', 'lib/transport.ts']]);
  });
});
