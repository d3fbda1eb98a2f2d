import { describe, expect, it } from 'vitest';
import { findCycles, findRuleBreaks, PATCHED_GLOBAL } from '../../scripts/imports.mjs';

function consoleFiles(): Record<string, string> {
  const raw = import.meta.glob<string>(['/src/**/*.ts', '/src/**/*.svelte'], { query: '?raw', import: 'default', eager: true });
  return Object.fromEntries(Object.entries(raw).map(([path, text]) => [path.replace(/^\/src\//, ''), text]));
}

describe('import cycles', () => {
  it('finds none in the console', () => {
    const files = consoleFiles();
    expect(Object.keys(files)).toContain('lib/sync.ts');
    expect(findCycles(files)).toEqual([]);
  });

  it('finds a circle closed by a type-only import, and one through a component', () => {
    const files = {
      'lib/actions/run.ts': "import { transport } from '../transport';\nexport const run = () => transport;\n",
      'lib/transport.ts': "import type { Sync } from './sync';\nexport const transport: { sync?: Sync } = {};\n",
      'lib/sync.ts': "import { run } from './actions/run';\nimport { app } from './features/session/state.svelte';\nexport class Sync { go = run; a = app; }\n",
      'lib/state/app.svelte.ts': 'export const app = {};\n',
      'Panel.svelte': "<script lang=\"ts\">\n  import { app } from './lib/state/app.svelte';\n  import Self from './Panel.svelte';\n</script>\n<p>{app}</p>\n",
      'lib/leaf.ts': "import v from './data.json?raw';\nimport { app } from './features/session/state.svelte';\nexport default [v, app];\n",
    };
    expect(findCycles(files)).toEqual([['Panel.svelte'], ['lib/actions/run.ts', 'lib/sync.ts', 'lib/transport.ts']]);
  });
});

describe('the feature layout', () => {
  it('holds in the console', () => {
    const files = consoleFiles();
    expect(Object.keys(files)).toContain('lib/features/voice/events.ts');
    expect(findRuleBreaks(files)).toEqual([]);
  });

  it('refuses a reducer registered outside start.ts, an impure model, state that acts, and a component on the api', () => {
    const files = {
      'lib/start.ts': "import { register } from './features/voice/events';\nexport const s = register;\n",
      'lib/features/voice/events.ts': "import { voice } from './state.svelte';\nexport const register = () => voice;\n",
      'lib/features/voice/state.svelte.ts': "import { stopTalk } from './actions';\nexport const voice = { stopTalk };\n",
      'lib/features/voice/actions.ts': "import { transport } from '../../transport';\nexport const stopTalk = () => transport;\n",
      'lib/features/voice/model.ts': "import type { VoiceUnit } from '../../wire.voice.gen';\nimport { voice } from './state.svelte';\nexport type M = VoiceUnit | typeof voice;\n",
      'lib/features/clips/actions.ts': "import { register } from '../voice/events';\nexport const c = register;\n",
      'lib/features/clips/actions.test.ts': "import { register } from '../voice/events';\nexport const t = register;\n",
      'lib/transport.ts': 'export const transport = {};\n',
      'lib/wire.voice.gen.ts': 'export interface VoiceUnit { id: string }\n',
      'lib/api.ts': 'export class Api {}\n',
      'Panel.svelte': "<script lang=\"ts\">\n  import { Api } from './lib/api';\n</script>\n<p>{Api}</p>\n",
    };
    expect(findRuleBreaks(files)).toEqual([
      'Panel.svelte -> lib/api.ts: components reach the server and the events through actions only',
      "lib/features/clips/actions.ts -> lib/features/voice/events.ts: a feature's reducers are registered by start.ts only",
      "lib/features/voice/model.ts -> lib/features/voice/state.svelte.ts: a feature's model is pure: wire types and the dispatcher's types only",
      'lib/features/voice/state.svelte.ts -> lib/features/voice/actions.ts: state never calls an action, registers a reducer or reaches the server',
    ]);
  });

  it('refuses an import of a global that start patches, whichever way it is declared', () => {
    const files = {
      'lib/transport.ts': "import type { Api } from './api';\nexport const transport: { api: Api } = { api: undefined as unknown as Api };\n",
      'lib/clock.ts': 'export let now = 0;\n',
      'lib/context.ts': "export const KEY = Symbol('k');\nexport const empty = { api: null };\n",
      'lib/api.ts': 'export class Api {}\n',
      'lib/features/voice/actions.ts': "import { transport } from '../../transport';\nimport { now } from '../../clock';\nimport { KEY } from '../../context';\nexport const t = [transport, now, KEY];\n",
      'lib/features/voice/actions.test.ts': "import { transport } from '../../transport';\nexport const t = transport;\n",
      'lib/start.ts': "import { transport } from './transport';\nexport const s = transport;\n",
    };
    expect(findRuleBreaks(files)).toEqual([
      `lib/features/voice/actions.ts -> lib/clock.ts: ${PATCHED_GLOBAL}`,
      `lib/features/voice/actions.ts -> lib/transport.ts: ${PATCHED_GLOBAL}`,
      `lib/start.ts -> lib/transport.ts: ${PATCHED_GLOBAL}`,
    ]);
  });
});
