// Adds up reports/counts/*.json (one file per test runner) and prints "N passed, N failed".
// Exits non-zero when anything failed or when no runner reported at all. The names given are the runners
// expected to have reported; with --only, the files of other runners are left out of the sum.
import fs from 'node:fs';
import path from 'node:path';

const only = process.argv[2] === '--only';
const expected = process.argv.slice(only ? 3 : 2);
const dir = path.resolve('reports/counts');
const files = fs.existsSync(dir)
  ? fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.json') && (!only || expected.includes(f.replace(/\.json$/, ''))))
      .sort()
  : [];
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of files) {
  const counts = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  console.log(
    `  ${file.replace(/\.json$/, '')}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped ?? 0} skipped`,
  );
  passed += counts.passed;
  failed += counts.failed;
  skipped += counts.skipped ?? 0;
}
for (const name of expected) {
  if (!files.includes(`${name}.json`)) {
    console.log(`  ${name}: did not report (the runner crashed or never ran)`);
    failed += 1;
  }
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || files.length === 0 ? 1 : 0);
