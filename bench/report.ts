/** The report of `make bench`: the markdown table and the JSON, written to reports/bench/latest.{md,json}. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { redisServerVersion } from '../testing/redis-server.ts';
import type { ContentionRow } from './contention.ts';
import type { RedisBenchmarkLine } from './extras.ts';
import { fmt } from './format.ts';
import type { Summary } from './load.ts';
import { CONNECTIONS, DURATION, OUT_DIR, ROOT, ROUNDS } from './options.ts';
import type { SanityResult } from './sanity.ts';
import type { Scenario } from './scenarios.ts';

export interface ScenarioRow {
  scenario: Scenario;
  server: Summary;
  baseline: Summary;
}

export interface BenchResults {
  started: number;
  warmupS: number;
  logLevel: string;
  sanity: SanityResult;
  rows: ScenarioRow[];
  contention: { rows: ContentionRow[]; markdown: string[] };
  fsync: Record<string, Summary> | undefined;
  ceiling: RedisBenchmarkLine[] | undefined;
}

/** Memory over the rounds in a few figures: where it started, where it ended, the most it reached. */
const rssTrend = (byRound: number[]) => `${byRound[0]}→${byRound.at(-1)}, ${Math.max(...byRound)}`;

/** The line printed as each scenario ends. */
export const scenarioLine = ({ scenario, server, baseline }: ScenarioRow) =>
  `${scenario.id}: server ${fmt(server.reqPerSec)} req/s, baseline ${fmt(baseline.reqPerSec)} req/s, ` +
  `ratio ${fmt(server.ratio, 2)}, errors ${server.errors}/${baseline.errors}`;

function tableRows(rows: ScenarioRow[]): string[] {
  const header =
    '| scenario | server req/s | baseline req/s | ratio (quartiles) | server p50 / p99 / max ms | baseline p50 / p99 / max ms | CPU µs/req (s / b) | errors (s / b) | RSS MiB first→last, peak (s / b) |';
  const lines = [header, '|---|---:|---:|---:|---:|---:|---:|---:|---:|'];
  for (const { scenario, server, baseline } of rows) {
    lines.push(
      `| ${scenario.title} | ${fmt(server.reqPerSec)} | ${fmt(baseline.reqPerSec)} | ${fmt(server.ratio, 2)} (${fmt(server.ratioQuartiles[0], 2)}–${fmt(server.ratioQuartiles[1], 2)}) | ` +
        `${fmt(server.p50)} / ${fmt(server.p99)} / ${fmt(server.max)} | ${fmt(baseline.p50)} / ${fmt(baseline.p99)} / ${fmt(baseline.max)} | ` +
        `${fmt(server.cpuUsPerReq)} / ${fmt(baseline.cpuUsPerReq)} | ${server.errors} / ${baseline.errors} | ${rssTrend(server.rssByRound)} / ${rssTrend(baseline.rssByRound)} |`,
    );
  }
  return lines;
}

function fsyncSection(fsync: Record<string, Summary>): string[] {
  return [
    '',
    '## PUT create: embedded Redis with appendfsync always vs everysec (server only)',
    '',
    '| appendfsync | req/s | p50 / p99 / max ms | errors |',
    '|---|---:|---:|---:|',
    `| always (as shipped) | ${fmt(fsync.always?.reqPerSec ?? Number.NaN)} | ${fmt(fsync.always?.p50 ?? Number.NaN)} / ${fmt(fsync.always?.p99 ?? Number.NaN)} / ${fmt(fsync.always?.max ?? Number.NaN)} | ${fsync.always?.errors} |`,
    `| everysec | ${fmt(fsync.everysec?.reqPerSec ?? Number.NaN)} | ${fmt(fsync.everysec?.p50 ?? Number.NaN)} / ${fmt(fsync.everysec?.p99 ?? Number.NaN)} / ${fmt(fsync.everysec?.max ?? Number.NaN)} | ${fsync.everysec?.errors} |`,
  ];
}

function ceilingSection(ceiling: RedisBenchmarkLine[]): string[] {
  return [
    '',
    `## Ceiling: redis-benchmark on the same machine (${CONNECTIONS} connections, no AOF)`,
    '',
    '| command | req/s | p50 / p99 ms |',
    '|---|---:|---:|',
    ...ceiling.map(
      (line) => `| ${line.test} | ${fmt(line.rps)} | ${fmt(line.p50Ms, 3)} / ${fmt(line.p99Ms, 3)} |`,
    ),
  ];
}

/** Writes latest.json and latest.md, and prints the markdown. */
export async function writeReport(results: BenchResults): Promise<void> {
  const { sanity: same, rows, contention, fsync, ceiling } = results;
  const machine = {
    nproc: os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    redis: await redisServerVersion(),
    platform: `${os.platform()} ${os.release()}`,
  };
  const settings = {
    durationS: DURATION,
    rounds: ROUNDS,
    connections: CONNECTIONS,
    warmupS: results.warmupS,
    logLevel: results.logLevel,
  };
  const md: string[] = [
    `# Benchmark: reference server vs framework-free baseline`,
    '',
    `Run ${new Date().toISOString()} on ${machine.nproc} cores (${machine.cpu}), Node ${machine.node}, Redis ${machine.redis}, ${machine.platform}.`,
    `Each figure is the median of ${ROUNDS} runs of ${DURATION} s with ${CONNECTIONS} connections, alternating server/baseline; ` +
      `both on their own fresh redis-server (no AOF) with the same seeded data; server LOG_LEVEL=${results.logLevel}. ` +
      `Ratio = median over rounds of server / baseline req/s in the same round (quartiles of the per-round ratios in brackets). CPU = server process CPU time per request. RSS is at the end of each run. Sanity: ${same.identical}/${same.total} responses byte-identical.`,
    '',
    ...tableRows(rows),
    ...contention.markdown,
    ...(fsync ? fsyncSection(fsync) : []),
    ...(ceiling ? ceilingSection(ceiling) : []),
    '',
    `Total bench time: ${Math.round((Date.now() - results.started) / 1000)} s.`,
  ];

  fs.mkdirSync(OUT_DIR, { recursive: true });
  const report = {
    date: new Date().toISOString(),
    machine,
    settings,
    sanity: same,
    scenarios: rows.map(({ scenario, server, baseline }) => ({
      id: scenario.id,
      title: scenario.title,
      ratio: server.ratio,
      server,
      baseline,
    })),
    contention: contention.rows,
    fsync,
    redisBenchmark: ceiling,
  };
  fs.writeFileSync(path.join(OUT_DIR, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(path.join(OUT_DIR, 'latest.md'), `${md.join('\n')}\n`);
  console.log(`\n${md.join('\n')}\n\nwrote ${path.relative(ROOT, OUT_DIR)}/latest.json and latest.md`);
}
