/**
 * The suite from another test runner (node:test, vitest, mocha, Jest):
 *
 *   import { runConformance } from 'user-service-conformance';
 *   const report = await runConformance({ start: 'node impl.mjs --port {port} --data {data}' });
 *   assert.equal(report.verdict, 'conforms');
 *
 * It runs the suite's CLI (cli.mjs) in a child process with the same options, waits for it, and returns
 * the report data of the run (summary.json: verdict, counts, rules, errors and, where the run has them,
 * defects) with the exit code and the report folder. A usage error (no target, an option without its
 * value) rejects; a run that could not run resolves, with exitCode 3 and the reason in `errors`.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSummary } from './report/schema.ts';
import type { RuleOutcome, RuleStatus, Summary } from './report/summary.ts';
import { EXIT, type ExitCode, exitCodeOf } from './support/exit-codes.mjs';
import { linkLatest, newRunFolder } from './support/run-folder.mjs';

export type { RuleOutcome, RuleStatus, Summary };
export { EXIT, type ExitCode };

export interface ConformanceOptions {
  /** A running implementation ({base_url}): --base-url. */
  baseUrl?: string;
  /** A shell command starting an implementation, with {port} and {data}: --start. */
  start?: string;
  /** The implementation's name in the report: --name. */
  name?: string;
  /** The report folder: --out (default: a new folder per run under reports/conformance/ of `cwd`). */
  out?: string;
  /** Rules known to fail, with a reason: a file (--expect FILE) or the object itself. */
  expect?: string | Record<string, string>;
  /** Where docs/SPEC.md can be read: --spec-url. */
  specUrl?: string;
  /** Only these rules (ids): the others are `not selected`, and no part of the verdict. */
  rules?: readonly string[];
  /** Only the rules whose test title matches (Playwright's --grep: `USR-PUT`, `@MUST`). */
  grep?: string;
  /** Parallel workers (default 2). */
  workers?: number;
  /** Playwright's per-rule timeout in ms (default 90000). */
  timeoutMs?: number;
  /** More options for the CLI, as on its command line. */
  args?: readonly string[];
  /** More environment for the run (CONFORMANCE_START_TIMEOUT_MS, ...). */
  env?: Record<string, string>;
  /** The folder relative paths are read from, and the start command runs in (default process.cwd()). */
  cwd?: string;
  /** The run's output: kept (default, in `output`), shown on this process's stdout/stderr, or both. */
  output?: 'keep' | 'show';
}

export interface ConformanceResult extends Summary {
  /** The CLI's exit code: 0 conforms, 1 does not conform, 3 could not run. */
  exitCode: ExitCode;
  /** The folder of this run's reports (summary.json, summary.md, junit.xml, index.html). */
  reportDir: string;
  /** What the run printed. */
  output: string;
}

/** A usage error of the options given: the CLI refused them (exit code 2). */
export class ConformanceUsageError extends Error {
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(message);
    this.name = 'ConformanceUsageError';
  }
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** cli.mjs: beside this file in a clone, one folder up from dist/ in an installed package. */
const CLI = [path.join(here, 'cli.mjs'), path.join(here, '..', 'cli.mjs')].find((f) =>
  fs.existsSync(f),
) as string;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The CLI's arguments for `options` (and a temporary --expect file to remove afterwards). */
export function cliArguments(options: ConformanceOptions): { args: string[]; temporary?: string } {
  const args: string[] = [];
  const add = (flag: string, value: string | number | undefined) => {
    if (value !== undefined) args.push(`${flag}=${value}`);
  };
  add('--base-url', options.baseUrl);
  add('--start', options.start);
  add('--name', options.name);
  add('--out', options.out);
  add('--spec-url', options.specUrl);
  add('--workers', options.workers);
  add('--timeout', options.timeoutMs);
  let temporary: string | undefined;
  if (typeof options.expect === 'string') add('--expect', options.expect);
  else if (options.expect) {
    temporary = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-expect-'));
    const file = path.join(temporary, 'expect.json');
    fs.writeFileSync(file, JSON.stringify(options.expect));
    add('--expect', file);
  }
  const patterns = [
    ...(options.rules?.length ? [`(${options.rules.map(escapeRegExp).join('|')}) \\[`] : []),
    ...(options.grep ? [options.grep] : []),
  ];
  // Playwright's --grep takes one pattern: both conditions as lookaheads.
  if (patterns.length === 1) add('--grep', patterns[0]);
  else if (patterns.length > 1) add('--grep', patterns.map((p) => `(?=.*(?:${p}))`).join(''));
  args.push(...(options.args ?? []));
  return { args, ...(temporary ? { temporary } : {}) };
}

export async function runConformance(options: ConformanceOptions): Promise<ConformanceResult> {
  if (!options.baseUrl && !options.start)
    throw new ConformanceUsageError('runConformance: give baseUrl or start', '');
  const cwd = options.cwd ?? process.cwd();
  const { args, temporary } = cliArguments(options);
  const env = { ...process.env, ...options.env };
  // The folder is chosen here, so that the result can name it: the CLI's own default, made explicit.
  const ownFolder = !options.out && !env.CONFORMANCE_REPORT_DIR;
  const reportDir = ownFolder
    ? newRunFolder(cwd)
    : path.resolve(cwd, (options.out ?? env.CONFORMANCE_REPORT_DIR) as string);
  if (ownFolder) args.push(`--out=${reportDir}`);
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const show = options.output === 'show';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk;
    if (show) process.stdout.write(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk;
    if (show) process.stderr.write(chunk);
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', resolve);
  });
  if (temporary) fs.rmSync(temporary, { recursive: true, force: true });
  if (ownFolder) linkLatest(reportDir);
  if (code === EXIT.usage)
    throw new ConformanceUsageError(output.trim().split('\n')[0] ?? 'usage error', output);
  const file = path.join(reportDir, 'summary.json');
  const summary = fs.existsSync(file) ? readSummary(file) : undefined;
  if (!summary) throw new Error(`the conformance run wrote no report (exit code ${code}):\n${output}`);
  return { ...summary, exitCode: exitCodeOf(summary), reportDir, output };
}
