// Prints the gzip size of the console's JS bundle and fails above the budget
// (docs/benchmarks.md: console JS bundle ≤ 150 KB gzip). Run after `npm run build`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET = 150 * 1024;
const dir = join(import.meta.dirname, '..', 'dist', 'assets');
let files;
try {
  files = readdirSync(dir).filter((f) => f.endsWith('.js'));
} catch {
  console.error(`bundle-size: ${dir} is missing; run npm run build first`);
  process.exit(1);
}
if (files.length === 0) {
  console.error('bundle-size: no JS files in dist/assets; run npm run build first');
  process.exit(1);
}
let raw = 0;
let gz = 0;
for (const f of files) {
  const buf = readFileSync(join(dir, f));
  raw += buf.length;
  gz += gzipSync(buf, { level: 9 }).length;
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`console JS bundle: ${files.length} file(s), ${kb(raw)} raw, ${kb(gz)} gzip (budget ${kb(BUDGET)} gzip)`);
if (gz > BUDGET) {
  console.error(`bundle-size: over budget by ${kb(gz - BUDGET)}`);
  process.exit(1);
}
