#!/usr/bin/env node
// Runs the suite N times in a row with the same options and tells whether every run conformed with no
// warning and nothing skipped: a check that the verdict is stable (no flaky rule, no false warning from a
// restart). Each run reports into its own folder under --report (default reports/conformance-repeat).
//
//   node tools/repeat.mjs --runs 10 --start '...' [any other option of cli.mjs]
//   node tools/repeat.mjs --runs 20 --fresh-install user-service-conformance-X.tgz --start '...'
// With --fresh-install, each run first installs the packed suite into a new empty folder (outside any
// clone) and runs the installed bin from there: every run is the first run after a fresh install.
// At the end, the defects each run reported (by signature) are tallied: an `--expect` file holds when
// one set of defects comes back in every run.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'cli.mjs');
const args = process.argv.slice(2);
let runs = 10;
let reportRoot = 'reports/conformance-repeat';
let tarball;
/** --all-reports: every report an implementer gets (list, JUnit, HTML), not only the summary. */
let allReports = false;
const rest = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--runs') runs = Number(args[++i]);
  else if (args[i] === '--report') reportRoot = args[++i];
  else if (args[i] === '--fresh-install') tarball = path.resolve(args[++i]);
  else if (args[i] === '--all-reports') allReports = true;
  else rest.push(args[i]);
}

/** Installs the tarball into a new empty folder; returns the installed CLI and the folder. */
function freshInstall() {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-install-'));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball], {
    cwd: folder,
    stdio: 'ignore',
  });
  return { folder, cli: path.join(folder, 'node_modules/user-service-conformance/cli.mjs') };
}

let clean = 0;
/** Defect set (its signatures, sorted, one per line) → the runs that reported exactly it. */
const defectSets = new Map();
for (let run = 1; run <= runs; run++) {
  const dir = path.resolve(reportRoot, `run-${run}`);
  fs.rmSync(dir, { recursive: true, force: true });
  const installed = tarball ? freshInstall() : undefined;
  const started = Date.now();
  const child = spawn(process.execPath, [installed?.cli ?? cli, ...rest, '--report', dir], {
    cwd: installed?.folder ?? process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CONFORMANCE_REPORTERS: allReports ? '' : 'summary', CONFORMANCE_COUNTS_FILE: '' },
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const [code] = await once(child, 'exit');
  if (installed) fs.rmSync(installed.folder, { recursive: true, force: true });
  const file = path.join(dir, 'summary.json');
  const summary = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (!summary) {
    console.log(`run ${run}: no summary (exit ${code})\n${output}`);
    continue;
  }
  const { passed, failed, warnings, skipped, notSetUp = 0, notFinished = 0 } = summary.counts;
  const set = (summary.defects ?? [])
    .map((d) => `${d.signature.operation} | ${d.signature.aspect} | ${d.signature.seen}`)
    .sort()
    .join('\n');
  defectSets.set(set, [...(defectSets.get(set) ?? []), run]);
  const notes = summary.rules
    .filter((r) => r.status === 'failed' || r.warnings?.length)
    .map((r) => `${r.id}: ${(r.reason ?? r.warnings?.join('; ') ?? '').split('\n')[0]}`);
  const ok = code === 0 && failed === 0 && warnings === 0 && skipped === 0 && !summary.errors.length;
  if (ok) clean++;
  console.log(
    `run ${run}: exit ${code}, ${passed} passed, ${failed} failed, ${warnings} warnings, ${skipped} skipped, ${notSetUp} could not set up, ${notFinished} could not finish, ${summary.defects?.length ?? 0} defects (${seconds} s)${notes.length ? `\n  ${notes.join('\n  ')}` : ''}`,
  );
}
for (const [set, which] of [...defectSets].sort((a, b) => b[1].length - a[1].length))
  console.log(
    `defects in ${which.length} of ${runs} runs (${which.join(', ')}):${set ? `\n  ${set.split('\n').join('\n  ')}` : ' none'}`,
  );
console.log(`${clean} of ${runs} runs conformed with no warning and nothing skipped`);
process.exit(clean === runs ? 0 : 1);
