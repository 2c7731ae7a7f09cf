/**
 * `user-service-conformance explore`: the explorer on its own, without the hand-written rules.
 *
 *   explore --start COMMAND | --base-url URL [--seed N] [--time 60s] [--clients 8] [--out DIR]
 *
 * --time is shared half and half by the sequential and the concurrent phase. With --start, every
 * sequence that needs one gets a fresh instance; with --base-url only, the explorer uses ids of its own
 * on that target. The readers' check runs first, as before the rules (support/readers.ts). Prints each defect (seed, numbered exchanges, what the model expected, the curl
 * script) and writes them to DIR (explore.json, explore.md, one script and one SVG per defect).
 * Exit code 1 when a MUST defect was found (a SHOULD defect alone warns: 0), 2 on a usage error.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from '@playwright/test';
import { checkReaders } from '../support/readers.ts';
import { commandCwd, startCommandInstance, waitUntilAnswering } from '../support/target.ts';
import { type ExploreResult, explore, type Targets } from './explore.ts';
import { newSeed } from './prng.ts';
import { text } from './render.ts';
import type { Instance } from './sequence.ts';
import { markdown } from './summary.ts';

const USAGE =
  'usage: user-service-conformance explore --start COMMAND | --base-url URL [--seed N] [--time 60s] [--clients 8] [--out DIR]';

/** `60s`, `2m`, `1500ms` or a number of seconds → ms. */
export function duration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!m) throw new Error(`not a duration: ${text} (60s, 2m, 1500ms)`);
  const n = Number(m[1]);
  return m[2] === 'ms' ? n : m[2] === 'm' ? n * 60_000 : n * 1000;
}

export function parse(argv: readonly string[]): {
  start?: string;
  baseUrl?: string;
  seed?: number;
  timeMs: number;
  clients: number;
  report: string;
} {
  const out: ReturnType<typeof parse> = { timeMs: 40_000, clients: 8, report: 'reports/explore' };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = (argv[i] as string).split(/=(.*)/s);
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--start') out.start = value();
    else if (flag === '--base-url') out.baseUrl = value();
    else if (flag === '--seed') out.seed = Number(value());
    else if (flag === '--time') out.timeMs = duration(value());
    else if (flag === '--clients') out.clients = Number(value());
    // --out, as the main command names its report folder; --report as before.
    else if (flag === '--out' || flag === '--report') out.report = value();
    else throw new Error(`unknown option ${flag}`);
  }
  if (!out.start && !out.baseUrl) throw new Error('no target: give --start or --base-url');
  if (out.seed !== undefined && !Number.isInteger(out.seed)) throw new Error('--seed takes an integer');
  if (!Number.isInteger(out.clients) || out.clients < 2)
    throw new Error('--clients takes an integer of 2 or more');
  return out;
}

export function writeReport(dir: string, result: ExploreResult): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'explore.json'), `${JSON.stringify(result, null, 2)}\n`);
  fs.writeFileSync(path.join(dir, 'explore.md'), markdown(result));
  for (const d of result.defects) {
    fs.writeFileSync(path.join(dir, `${d.id}.sh`), d.script, { mode: 0o755 });
    if (d.svg) fs.writeFileSync(path.join(dir, `${d.id}.svg`), d.svg);
  }
}

async function main(): Promise<number> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  let options: ReturnType<typeof parse>;
  try {
    options = parse(process.argv.slice(2));
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  process.env.CONFORMANCE_CWD ??= process.cwd();
  let shared: Instance | undefined;
  const start = options.start;
  try {
    if (options.baseUrl) await waitUntilAnswering(options.baseUrl);
    else shared = await startCommandInstance(start as string);
    const targets: Targets = {
      shared: options.baseUrl ?? (shared as Instance).url,
      ...(start
        ? { fresh: () => startCommandInstance(start), launch: { command: start, cwd: commandCwd() } }
        : {}),
    };
    // Which reader lies, as the rules' run checks it first (support/readers.ts): the explorer adopts it.
    const context = await request.newContext();
    try {
      await checkReaders(context, {
        baseUrl: targets.shared,
        ...(targets.fresh ? { fresh: targets.fresh } : {}),
      });
    } finally {
      await context.dispose();
    }
    const seed = options.seed ?? newSeed();
    console.log(
      `explore: seed ${seed}, ${options.timeMs / 1000} s, ${options.clients} clients, ${start ? 'fresh instances' : `ids of its own on ${options.baseUrl}`}`,
    );
    const result = await explore({
      seed,
      sequentialMs: options.timeMs / 2,
      concurrentMs: options.timeMs / 2,
      clients: options.clients,
      targets,
      log: (line) => console.log(`  ${line}`),
    });
    // Long lines (a 4,096-character text) are cut on the console; the files keep them whole.
    const cut = (line: string) =>
      line.length > 400 ? `${line.slice(0, 400)}… (cut here; whole in the report)` : line;
    for (const d of result.defects)
      console.log(
        `\n${text(d)}\n\n  curl script (${d.id}.sh):\n${d.script
          .trimEnd()
          .split('\n')
          .map((l) => `    ${cut(l)}`)
          .join('\n')}`,
      );
    const report = path.resolve(process.env.CONFORMANCE_CWD, options.report);
    writeReport(report, result);
    const s = result.stats;
    console.log(
      `\nexplore: seed ${seed}: ${s.sequences} sequences (${s.steps} steps, ${s.restarts} restarts), ${s.rounds} concurrent rounds (${s.roundOps} operations); report in ${report}`,
    );
    // A SHOULD defect warns: only a MUST one makes the implementation not conform.
    const must = result.defects.filter((d) => d.level === 'MUST').length;
    const should = result.defects.length - must;
    const warned = should ? `${should} SHOULD defect(s) (warnings)` : '';
    console.log(
      must
        ? `does not conform: ${must} defect(s)${warned ? `, and ${warned}` : ''}`
        : warned || 'no defect found',
    );
    return must ? 1 : 0;
  } catch (err) {
    console.error(`explore: ${(err as Error).message}`);
    return 2;
  } finally {
    await shared?.stop();
  }
}

// Run as a program (not when imported): import.meta.main is Node 24's only, the suite supports 22.6.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  process.exit(await main());
