#!/usr/bin/env node
/**
 * The power of the explorer alone, measured: for each deliberate defect of the self-test implementation
 * (selftest/impl/defects.mjs), and for the correct implementation, the explorer runs with its default
 * budget (20 s sequential + 20 s concurrent) for each seed, with no hand-written rule, and stops at the
 * first defect. Writes docs/exploration.md: the share of seeds that find each defect, the median time to
 * the first sighting, and the signature it was reported under. Results are kept in a JSON file as they
 * come, so that an interrupted measurement resumes.
 *
 *   node tools/explore-power.ts [--seeds 20] [--defects a,b] [--parallel 2] [--results FILE] [--out FILE]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { explore } from '../explore/explore.ts';
import { DEFECTS } from '../selftest/impl/defects.mjs';
import { startCommandInstance } from '../support/target.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const IMPL = path.resolve(here, '../selftest/impl/server.mjs');
const PHASE_MS = 20_000;

interface Outcome {
  defect: string;
  seed: number;
  found: boolean;
  /** ms from the start of the run to the first sighting. */
  atMs?: number;
  signature?: string;
  /** Its level: a SHOULD defect found counts as found (it warns in a normal run). */
  level?: 'MUST' | 'SHOULD';
  /** Defects reported (the correct implementation runs its whole budget). */
  count: number;
}

function args(argv: readonly string[]) {
  const get = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  return {
    seeds: Number(get('--seeds') ?? 20),
    defects: get('--defects')?.split(',') ?? ['', ...Object.keys(DEFECTS)],
    parallel: Number(get('--parallel') ?? 2),
    results: get('--results') ?? 'reports/explore-power.json',
    out: get('--out'),
  };
}

async function once(defect: string, seed: number): Promise<Outcome> {
  const command = `exec node ${IMPL} --port {port} --data {data}${defect ? ` --defect ${defect}` : ''}`;
  const shared = await startCommandInstance(command);
  const asyncMs = DEFECTS[defect]?.env?.CONFORMANCE_ASYNC_TIMEOUT_MS;
  try {
    const result = await explore({
      seed,
      sequentialMs: PHASE_MS,
      concurrentMs: PHASE_MS,
      clients: 8,
      targets: { shared: shared.url, fresh: () => startCommandInstance(command) },
      stopAtFirst: defect !== '',
      // As the rules' self-test runs it: worker-never-removed is declared with a 3 s wait for a removal.
      ...(asyncMs ? { asyncTimeoutMs: Number(asyncMs) } : {}),
    });
    const first = result.defects[0];
    return {
      defect,
      seed,
      found: !!first,
      count: result.defects.length,
      ...(first
        ? { atMs: Math.round(first.foundAtMs ?? 0), signature: first.title, level: first.level }
        : {}),
    };
  } finally {
    await shared.stop();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

export function markdown(outcomes: readonly Outcome[]): string {
  // In the order of defects.mjs (the correct implementation first), whatever order the runs came in.
  const order = ['', ...Object.keys(DEFECTS)];
  const names = [...new Set(outcomes.map((o) => o.defect))].sort(
    (a, b) => order.indexOf(a) - order.indexOf(b),
  );
  const rows = names.map((name) => {
    const runs = outcomes.filter((o) => o.defect === name);
    const found = runs.filter((o) => o.found);
    const declared = name ? DEFECTS[name] : undefined;
    const sigs = new Map<string, number>();
    for (const o of found) if (o.signature) sigs.set(o.signature, (sigs.get(o.signature) ?? 0) + 1);
    const common = [...sigs].sort((a, b) => b[1] - a[1])[0]?.[0];
    if (!name)
      return `| (correct implementation) | — | — | ${runs.filter((o) => o.count === 0).length}/${runs.length} runs with 0 defects | — | ${common ? `\`${common}\`` : '—'} |`;
    return `| \`${name}\` | ${declared?.wrong ?? ''} | ${declared?.caughtBy.join(', ') ?? ''} | ${found.length}/${runs.length} | ${found.length ? `${(median(found.map((o) => o.atMs ?? 0)) / 1000).toFixed(1)} s` : '—'} | ${common ? `\`${common}\`` : '—'} |`;
  });
  return [
    '| implementation | its defect | rules that name it | seeds that find it | median time to find | reported as (most often) |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

async function main() {
  const opts = args(process.argv.slice(2));
  const file = path.resolve(opts.results);
  const done: Outcome[] = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : [];
  const queue: Array<[string, number]> = [];
  for (const defect of opts.defects)
    for (let seed = 1; seed <= opts.seeds; seed++)
      if (!done.some((o) => o.defect === defect && o.seed === seed)) queue.push([defect, seed]);
  const save = () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(done, null, 1)}\n`);
  };
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const [defect, seed] = job;
      const outcome = await once(defect, seed).catch(
        (err): Outcome => ({
          defect,
          seed,
          found: false,
          count: -1,
          signature: `run error: ${(err as Error).message}`,
        }),
      );
      done.push(outcome);
      save();
      console.log(
        `${defect || '(correct)'} seed ${seed}: ${outcome.found ? `found at ${((outcome.atMs ?? 0) / 1000).toFixed(1)} s: ${outcome.signature}` : outcome.count === 0 ? 'none' : outcome.signature}`,
      );
    }
  };
  await Promise.all(Array.from({ length: opts.parallel }, worker));
  const table = markdown(done.filter((o) => opts.defects.includes(o.defect)));
  if (opts.out) {
    const out = path.resolve(opts.out);
    const text = fs.readFileSync(out, 'utf8');
    const begin = '<!-- explore-power -->';
    const end = '<!-- /explore-power -->';
    fs.writeFileSync(out, text.replace(new RegExp(`${begin}[\\s\\S]*${end}`), `${begin}\n${table}\n${end}`));
  } else console.log(table);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
