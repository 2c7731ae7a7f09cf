/**
 * `make bench`: the reference server (A) against the framework-free baseline (B, bench/baseline.ts),
 * each on its own fresh Redis with the same seeded data, scenario by scenario, alternating A/B/A/B.
 * Prints a table and writes reports/bench/latest.json + latest.md. It prints figures; it never
 * asserts timings (the machines are shared and noisy).
 *
 * Env: BENCH_DURATION (s per run, default 2), BENCH_ROUNDS (12), BENCH_CONNECTIONS (32),
 * BENCH_WARMUP (s, 1), BENCH_ONLY (comma-separated scenario ids), BENCH_SKIP_EXTRAS=1 (no fsync /
 * redis-benchmark figures), BENCH_PROFILE=1 (both servers run with --cpu-prof into reports/bench/profiles),
 * BENCH_LOG_LEVEL (the server's LOG_LEVEL, default info: as it ships), BENCH_SERVER_SCRIPT (another build
 * of the server's main.js, for before/after figures), BENCH_CONTENTION_CONNECTIONS (50: the many-writers-of-one-user
 * scenarios of bench/contention.ts, ids post-one-id and post-one-id-two-instances).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '../testing/free-port.ts';
import { runContention } from './contention.ts';
import { fsyncFigure, redisBenchmark } from './extras.ts';
import { type RunFigures, runOnce, summarise, type Target } from './load.ts';
import {
  BASELINE_SCRIPT,
  BUILT_SERVER_SCRIPT,
  DURATION,
  LOG_LEVEL,
  OUT_DIR,
  ROUNDS,
  WARMUP,
} from './options.ts';
import { runBenchMain, startNode, startRedis } from './procs.ts';
import { type ScenarioRow, scenarioLine, writeReport } from './report.ts';
import { sanity } from './sanity.ts';
import { SCENARIOS } from './scenarios.ts';

/** BENCH_SERVER_SCRIPT runs another build of the server (e.g. an older commit's) against the same baseline. */
const SERVER_SCRIPT = path.resolve(process.env.BENCH_SERVER_SCRIPT || BUILT_SERVER_SCRIPT);
const ONLY = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
const PROFILE = process.env.BENCH_PROFILE === '1';
const WATCHDOG_MS = 20 * 60_000;

async function main(): Promise<void> {
  if (!fs.existsSync(SERVER_SCRIPT)) throw new Error(`${SERVER_SCRIPT} is missing: run \`make build\` first`);
  const started = Date.now();
  const profileDir = path.join(OUT_DIR, 'profiles');
  const flags = PROFILE ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];

  const redisA = await startRedis({ fsync: 'off' });
  const redisB = await startRedis({ fsync: 'off' });
  const targets: Target[] = [];
  try {
    const serverNode = await startNode(
      'server',
      SERVER_SCRIPT,
      await freePort(),
      { REDIS_URL: redisA.url, LOG_LEVEL },
      flags,
    );
    const baselineNode = await startNode(
      'baseline',
      BASELINE_SCRIPT,
      await freePort(),
      { REDIS_URL: redisB.url },
      flags,
    );
    targets.push(
      { key: 'server', node: serverNode, redis: redisA, client: new Redis(redisA.url) },
      { key: 'baseline', node: baselineNode, redis: redisB, client: new Redis(redisB.url) },
    );
    const [server, baseline] = targets as [Target, Target];

    const same = await sanity(server, baseline);
    console.log(`sanity: ${same.identical}/${same.total} responses byte-identical (status, headers, body)`);
    for (const diff of same.differences) console.log(diff);

    const scenarios = SCENARIOS.filter((s) => ONLY.length === 0 || ONLY.includes(s.id));
    const rows: ScenarioRow[] = [];
    for (const scenario of scenarios) {
      if (WARMUP > 0) for (const target of targets) await runOnce(target, scenario, WARMUP);
      const runs: Record<Target['key'], RunFigures[]> = { server: [], baseline: [] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const target of targets) runs[target.key].push(await runOnce(target, scenario, DURATION));
      }
      const row = {
        scenario,
        server: summarise(runs.server, runs.baseline),
        baseline: summarise(runs.baseline, runs.server),
      };
      rows.push(row);
      console.log(scenarioLine(row));
    }
    for (const target of targets) target.client.disconnect();
    await serverNode.stop();
    await baselineNode.stop();

    const contention = await runContention({
      only: ONLY,
      serverScript: SERVER_SCRIPT,
      baselineScript: BASELINE_SCRIPT,
      logLevel: LOG_LEVEL,
      nodeFlags: flags,
      warmupS: WARMUP,
    });

    const skipExtras =
      process.env.BENCH_SKIP_EXTRAS === '1' || (ONLY.length > 0 && process.env.BENCH_EXTRAS !== '1');
    const fsync = skipExtras ? undefined : await fsyncFigure(SERVER_SCRIPT);
    const ceiling = skipExtras ? undefined : await redisBenchmark();

    await writeReport({
      started,
      warmupS: WARMUP,
      logLevel: LOG_LEVEL,
      sanity: same,
      rows,
      contention,
      fsync,
      ceiling,
    });
  } finally {
    for (const target of targets) target.client.disconnect();
    await redisA.stop();
    await redisB.stop();
  }
}

runBenchMain('bench', main, WATCHDOG_MS);
