#!/usr/bin/env node
// Each compound self-test implementation (and each implementation written elsewhere) through the whole
// suite, the explorer on, default settings, one run each: the defects the report lists against those
// declared (selftest/impl/defects.mjs). The self-test runs them with the hand-written rules only; this
// is the check that the explorer, on, adds no second name for a defect (docs/exploration.md).
//
//   node tools/compounds.mjs [--report DIR] [NAME ...]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPOUNDS, declaredAsListed, OUTSIDERS } from '../selftest/impl/defects.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const at = args.indexOf('--report');
const reportRoot = path.resolve(at >= 0 ? args.splice(at, 2)[1] : 'reports/compounds');
const key = (s) => `${s.operation} | ${s.aspect} | ${s.seen}`;
const cases = [
  ...Object.entries(COMPOUNDS).map(([name, c]) => [
    name,
    c,
    `exec node selftest/impl/server.mjs --port {port} --data {data} --defect ${name}`,
  ]),
  ...Object.entries(OUTSIDERS).map(([name, c]) => [
    name,
    c,
    `exec python3 selftest/impl/${c.file} --port {port} --data {data}`,
  ]),
].filter(([name]) => !args.length || args.includes(name));
let exact = 0;
for (const [name, declared, start] of cases) {
  const dir = path.join(reportRoot, name);
  fs.rmSync(dir, { recursive: true, force: true });
  const began = Date.now();
  const run = spawnSync(
    process.execPath,
    ['cli.mjs', '--start', start, '--report', dir, ...(declared.args ?? [])],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, CONFORMANCE_REPORTERS: 'summary', CONFORMANCE_COUNTS_FILE: '' },
      maxBuffer: 1 << 28,
    },
  );
  const summary = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8'));
  const listed = summary.defects.map((d) => key(d.signature)).sort();
  const expected = declaredAsListed(declared.defects, listed);
  const extra = listed.filter((d) => !expected.includes(d));
  const missing = expected.filter((d) => !listed.includes(d));
  const twice = listed.length !== new Set(listed).size;
  const ok = !extra.length && !missing.length && !twice;
  if (ok) exact++;
  const seconds = ((Date.now() - began) / 1000).toFixed(0);
  console.log(
    `${name}: exit ${run.status}, ${listed.length} defects (${seconds} s)${ok ? ', exactly those declared' : ''}`,
  );
  for (const d of extra)
    console.log(`  + ${d} [${summary.defects.find((x) => key(x.signature) === d).rules.join(', ')}]`);
  for (const d of missing) console.log(`  - ${d}`);
  if (twice) console.log('  a signature listed twice');
}
console.log(`${exact} of ${cases.length} listed exactly their declared defects, each once`);
process.exitCode = exact === cases.length ? 0 : 1;
