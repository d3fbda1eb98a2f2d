// Checks the imports among the console's modules (.ts, .svelte.ts and the script blocks
// of .svelte files), type-only imports included:
//  * no import cycle: a cycle is a knot a reader must untie in their head whether or
//    not it survives compilation;
//  * the feature layout's rules (RULES below): events reach state one way, through the
//    reducers start.ts registers; state and pure models never reach the server;
//  * nothing imports a patched global: a module-level binding another module fills in
//    at start (an `export let`, or an exported placeholder cast from undefined or
//    null). What start.ts makes is handed over as an argument or through context.
//
//   node scripts/imports.mjs [dir]   (default src; exit 1 and a list when any)
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SOURCE = /\.(ts|svelte)$/;

/** The relative imports of one file (the <script> blocks of a component). */
function imports(path, text) {
  if (path.endsWith('.svelte')) {
    text = [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
  }
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName).filter((n) => n.startsWith('.'));
}

function resolveImport(files, from, spec) {
  const base = posix.join(posix.dirname(from), spec.replace(/\?.*$/, ''));
  return [base, `${base}.ts`, `${base}/index.ts`].find((p) => SOURCE.test(p) && p in files) ?? null;
}

/**
 * Every import cycle among files (path → text, paths relative and with / separators),
 * each as its sorted paths, found as Tarjan's strongly connected components.
 */
export function findCycles(files) {
  const graph = new Map();
  for (const [path, text] of Object.entries(files)) {
    if (!SOURCE.test(path) || path.endsWith('.d.ts')) continue;
    graph.set(path, [...new Set(imports(path, text).map((s) => resolveImport(files, path, s)).filter(Boolean))]);
  }
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const scc = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(scc.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/**
 * The layout's rules, each an importer and the imports it may not have. Tests are
 * exempt: they register reducers on their own dispatchers.
 */
export const RULES = [
  {
    rule: "a feature's reducers are registered by start.ts only",
    from: (p) => p !== 'lib/start.ts',
    to: (p) => /^lib\/features\/[^/]+\/events\.ts$/.test(p),
  },
  {
    rule: "a feature's model is pure: wire types and the dispatcher's types only",
    from: (p) => /^lib\/features\/[^/]+\/model\.ts$/.test(p),
    to: (p) => !/^lib\/(wire[.a-z]*\.gen|types|dispatch)\.ts$/.test(p),
  },
  {
    rule: 'state never calls an action, registers a reducer or reaches the server',
    from: (p) => /^lib\/(state\/[^/]+|features\/[^/]+\/state)\.svelte\.ts$/.test(p),
    to: (p) => /^lib\/(actions\/|features\/[^/]+\/(actions|events)\.ts$|(api|sync|transport|dispatch)\.ts$)/.test(p),
  },
  {
    // A component takes the transport from its context (lib/transport.ts) only to
    // hand it to the actions it calls.
    rule: 'components reach the server and the events through actions only',
    from: (p) => p.endsWith('.svelte'),
    to: (p) => /^lib\/(api|sync|dispatch)\.ts$/.test(p),
  },
];

export const PATCHED_GLOBAL = 'nothing imports a patched global: hand it over as an argument or through context';

/** A placeholder another module fills in later: `undefined as unknown as T`. */
const PLACEHOLDER = /\b(undefined|null)\s+as\s+unknown\s+as\b/;

/**
 * Whether a module exports a global that is patched from outside: an exported `let`,
 * or an exported const holding a placeholder cast from undefined or null.
 */
export function exportsPatchedGlobal(path, text) {
  if (path.endsWith('.svelte') || path.endsWith('.d.ts')) return false;
  const src = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  return src.statements.some((st) => {
    if (!ts.isVariableStatement(st) || !st.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) return false;
    if (st.declarationList.flags & ts.NodeFlags.Let) return true;
    return st.declarationList.declarations.some((d) => d.initializer && PLACEHOLDER.test(d.initializer.getText(src)));
  });
}

/** Every import that breaks a rule, as "importer -> imported: rule". */
export function findRuleBreaks(files) {
  const patched = new Set(Object.entries(files).filter(([p, t]) => SOURCE.test(p) && !p.endsWith('.test.ts') && exportsPatchedGlobal(p, t)).map(([p]) => p));
  const breaks = [];
  for (const [path, text] of Object.entries(files)) {
    if (!SOURCE.test(path) || path.endsWith('.d.ts') || path.endsWith('.test.ts')) continue;
    const targets = new Set(imports(path, text).map((s) => resolveImport(files, path, s)).filter(Boolean));
    for (const t of targets) {
      for (const r of RULES) if (r.from(path) && r.to(t)) breaks.push(`${path} -> ${t}: ${r.rule}`);
      if (patched.has(t)) breaks.push(`${path} -> ${t}: ${PATCHED_GLOBAL}`);
    }
  }
  return breaks.sort();
}

function read(dir, root = dir, out = {}) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) read(p, root, out);
    else if (SOURCE.test(name)) out[relative(root, p).split('\\').join('/')] = readFileSync(p, 'utf8');
  }
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = resolve(process.argv[2] ?? 'src');
  const files = read(dir);
  const cycles = findCycles(files);
  const breaks = findRuleBreaks(files);
  for (const c of cycles) console.error(`import cycle: ${c.join(' <-> ')}`);
  for (const b of breaks) console.error(`import against the layout: ${b}`);
  if (cycles.length || breaks.length) process.exit(1);
  console.log(`no import cycles and no import against the layout under ${relative(process.cwd(), dir) || '.'}`);
}
