// Prints the gzip size of the console's JS and fails above the budgets
// (docs/benchmarks.md): the JS index.html loads ≤ 150 KB gzip, and each chunk loaded on
// demand (the software video decoder's worker) ≤ 100 KB gzip. Run after `npm run build`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET = 150 * 1024;
const ON_DEMAND_BUDGET = 100 * 1024;
const dist = join(import.meta.dirname, '..', 'dist');
const dir = join(dist, 'assets');
let files;
let html;
try {
  files = readdirSync(dir).filter((f) => f.endsWith('.js'));
  html = readFileSync(join(dist, 'index.html'), 'utf8');
} catch {
  console.error(`bundle-size: ${dist} is incomplete; run npm run build first`);
  process.exit(1);
}
if (files.length === 0) {
  console.error('bundle-size: no JS files in dist/assets; run npm run build first');
  process.exit(1);
}
// What the page loads up front: index.html's scripts and module preloads.
const upFront = new Set([...html.matchAll(/(?:src|href)="\.?\/?assets\/([^"]+\.js)"/g)].map((m) => m[1]));
if (upFront.size === 0) {
  console.error('bundle-size: index.html names no script in assets/');
  process.exit(1);
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
let raw = 0;
let gz = 0;
let failed = false;
for (const f of files) {
  const buf = readFileSync(join(dir, f));
  const size = gzipSync(buf, { level: 9 }).length;
  if (upFront.has(f)) {
    raw += buf.length;
    gz += size;
    continue;
  }
  console.log(`on demand: ${f}: ${kb(buf.length)} raw, ${kb(size)} gzip (budget ${kb(ON_DEMAND_BUDGET)} gzip)`);
  if (size > ON_DEMAND_BUDGET) {
    console.error(`bundle-size: ${f} is over budget by ${kb(size - ON_DEMAND_BUDGET)}`);
    failed = true;
  }
}
console.log(`console JS bundle: ${upFront.size} file(s), ${kb(raw)} raw, ${kb(gz)} gzip (budget ${kb(BUDGET)} gzip)`);
if (gz > BUDGET) {
  console.error(`bundle-size: over budget by ${kb(gz - BUDGET)}`);
  failed = true;
}
if (failed) process.exit(1);
