/**
 * `make bench`'s contention scenarios: many clients updating the same user (POST of id 1), against the
 * server as one process (50 connections) and as two processes on one Redis (the load split across
 * them, 25 connections each), each beside the baseline set up the same way on its own Redis, alternating
 * server/baseline per round. Called from bench/run.ts (ids `post-one-id`, `post-one-id-two-instances`
 * for BENCH_ONLY).
 *
 * Besides req/s it reports the non-2xx answers and the optimistic conflicts per request, both read
 * from Redis after each run, the same way for both targets, without any code in the servers: every
 * update attempt ends in one EXEC, and the INCR of the guard runs only inside an EXEC that committed
 * (commands queued in MULTI are not executed by an aborted EXEC), so in `INFO commandstats`
 * conflicts = EXEC calls − INCR calls, and requests per transaction = requests / INCR calls (how many
 * updates were combined into one). Redis' statistics are reset after seeding each run.
 */
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { freePort } from '../testing/free-port.ts';
import { storeUsers } from '../testing/seed-users.ts';
import { fmt } from './format.ts';
import { CONNECTIONS_UNDER_CONTENTION, DURATION, ROUNDS } from './options.ts';
import { type BenchRedis, cpuMs, type NodeServer, startNode, startRedis } from './procs.ts';
import { FORM_HEADERS } from './seed.ts';
import { median, type RoundsSummary, summariseRounds } from './stats.ts';

export const CONTENTION_SCENARIOS = [
  { id: 'post-one-id', title: 'POST one id, 50 connections', instances: 1 },
  {
    id: 'post-one-id-two-instances',
    title: 'POST one id, two server instances (25 connections each)',
    instances: 2,
  },
] as const;

export interface ContentionOptions {
  only: string[];
  serverScript: string;
  baselineScript: string;
  logLevel: string;
  nodeFlags: string[];
  warmupS: number;
}

interface Side {
  key: 'server' | 'baseline';
  redis: BenchRedis;
  client: Redis;
  nodes: NodeServer[];
}

interface ContentionRun {
  reqPerSec: number;
  requests: number;
  non2xx: number;
  /** Socket errors and timeouts. */
  errors: number;
  /** The slower process's figures when there are two. */
  p50: number;
  p99: number;
  max: number;
  conflicts: number;
  transactions: number;
  cpuUsPerReq: number;
}

export interface ContentionSummary extends RoundsSummary {
  requests: number;
  non2xx: number;
  errors: number;
  conflictsPerRequest: number;
  requestsPerTransaction: number;
  cpuUsPerReq: number;
  runs: ContentionRun[];
}

export interface ContentionRow {
  id: string;
  title: string;
  server: ContentionSummary;
  baseline: ContentionSummary;
}

async function seedOneUser(client: Redis): Promise<void> {
  await client.flushall();
  // seededUser(1): user-1, profession 1; no index, as before the index existed.
  await storeUsers(client, [1], { indexed: false });
  await client.config('RESETSTAT');
}

function commandCalls(info: string, command: string): number {
  return Number(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(info)?.[1] ?? 0);
}

function cannon(url: string, connections: number, seconds: number): Promise<autocannon.Result> {
  let n = 0;
  const requests: autocannon.Request[] = [
    {
      method: 'POST',
      path: '/UserService/users',
      headers: FORM_HEADERS,
      setupRequest: (req) => ({ ...req, body: `id=1&name=Writer+${n++}&profession=Clerk` }),
    },
  ];
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections, duration: seconds, requests, timeout: 10 },
      (err: Error | null, result: autocannon.Result) => (err ? reject(err) : resolve(result)),
    );
  });
}

async function runOnce(side: Side, seconds: number): Promise<ContentionRun> {
  await seedOneUser(side.client);
  const cpuBefore = side.nodes.map((node) => cpuMs(node.pid));
  const connections = Math.max(1, Math.round(CONNECTIONS_UNDER_CONTENTION / side.nodes.length));
  const results = await Promise.all(side.nodes.map((node) => cannon(node.url, connections, seconds)));
  const cpu = side.nodes.reduce((sum, node, i) => sum + cpuMs(node.pid) - (cpuBefore[i] as number), 0);
  const info = await side.client.info('commandstats');
  const requests = results.reduce((sum, r) => sum + r.requests.total, 0);
  const transactions = commandCalls(info, 'incr');
  return {
    reqPerSec: results.reduce((sum, r) => sum + r.requests.average, 0),
    requests,
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    errors: results.reduce((sum, r) => sum + r.errors + r.timeouts, 0),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    max: Math.max(...results.map((r) => r.latency.max)),
    conflicts: commandCalls(info, 'exec') - transactions,
    transactions,
    cpuUsPerReq: (cpu * 1000) / Math.max(1, requests),
  };
}

function summarise(runs: ContentionRun[], others: ContentionRun[]): ContentionSummary {
  const total = (pick: (r: ContentionRun) => number) => runs.reduce((sum, r) => sum + pick(r), 0);
  return {
    ...summariseRounds(runs, others),
    requests: total((r) => r.requests),
    non2xx: total((r) => r.non2xx),
    errors: total((r) => r.errors),
    conflictsPerRequest:
      total((r) => r.conflicts) /
      Math.max(
        1,
        total((r) => r.requests),
      ),
    requestsPerTransaction:
      total((r) => r.requests) /
      Math.max(
        1,
        total((r) => r.transactions),
      ),
    cpuUsPerReq: median(runs.map((r) => r.cpuUsPerReq)),
    runs,
  };
}

async function startSide(
  key: Side['key'],
  script: string,
  instances: number,
  options: ContentionOptions,
): Promise<Side> {
  const redis = await startRedis({ fsync: 'off' });
  // As in run.ts: LOG_LEVEL for the server only (the baseline writes no log).
  const env: Record<string, string> = { REDIS_URL: redis.url };
  if (key === 'server') env.LOG_LEVEL = options.logLevel;
  const nodes: NodeServer[] = [];
  for (let i = 0; i < instances; i++) {
    nodes.push(await startNode(`${key} ${i + 1}`, script, await freePort(), env, options.nodeFlags));
  }
  return { key, redis, client: new Redis(redis.url), nodes };
}

async function stopSide(side: Side): Promise<void> {
  side.client.disconnect();
  for (const node of side.nodes) await node.stop();
  await side.redis.stop();
}

/** Runs the contention scenarios BENCH_ONLY selects (all when it is empty); a markdown section and the rows. */
export async function runContention(
  options: ContentionOptions,
): Promise<{ rows: ContentionRow[]; markdown: string[] }> {
  const rows: ContentionRow[] = [];
  const chosen = CONTENTION_SCENARIOS.filter((s) => options.only.length === 0 || options.only.includes(s.id));
  for (const scenario of chosen) {
    const sides = [
      await startSide('server', options.serverScript, scenario.instances, options),
      await startSide('baseline', options.baselineScript, scenario.instances, options),
    ];
    try {
      if (options.warmupS > 0) for (const side of sides) await runOnce(side, options.warmupS);
      const runs: Record<Side['key'], ContentionRun[]> = { server: [], baseline: [] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const side of sides) runs[side.key].push(await runOnce(side, DURATION));
      }
      const row: ContentionRow = {
        id: scenario.id,
        title: scenario.title,
        server: summarise(runs.server, runs.baseline),
        baseline: summarise(runs.baseline, runs.server),
      };
      rows.push(row);
      console.log(
        `${scenario.id}: server ${fmt(row.server.reqPerSec)} req/s, baseline ${fmt(row.baseline.reqPerSec)} req/s, ` +
          `ratio ${fmt(row.server.ratio, 2)}, non-2xx ${row.server.non2xx}/${row.baseline.non2xx}, ` +
          `conflicts per request ${fmt(row.server.conflictsPerRequest, 3)}/${fmt(row.baseline.conflictsPerRequest, 3)}`,
      );
    } finally {
      for (const side of sides) await stopSide(side);
    }
  }
  if (rows.length === 0) return { rows, markdown: [] };
  const markdown = [
    '',
    `## Many writers of one user (POST id 1, ${CONNECTIONS_UNDER_CONTENTION} connections in all; server and baseline each on their own Redis)`,
    '',
    'Non-2xx and errors are totals over all rounds. Conflicts = aborted EXECs per request, requests per transaction = how many updates one committed transaction answered (both from Redis INFO commandstats). Latencies: the slower process of two.',
    '',
    '| scenario | server req/s | baseline req/s | ratio (quartiles) | server p50 / p99 / max ms | baseline p50 / p99 / max ms | CPU µs/req (s / b) | non-2xx (s / b) | errors (s / b) | conflicts per request (s / b) | requests per transaction (s / b) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      ({ title, server: s, baseline: b }) =>
        `| ${title} | ${fmt(s.reqPerSec)} | ${fmt(b.reqPerSec)} | ${fmt(s.ratio, 2)} (${fmt(s.ratioQuartiles[0], 2)}–${fmt(s.ratioQuartiles[1], 2)}) | ` +
        `${fmt(s.p50)} / ${fmt(s.p99)} / ${fmt(s.max)} | ${fmt(b.p50)} / ${fmt(b.p99)} / ${fmt(b.max)} | ${fmt(s.cpuUsPerReq)} / ${fmt(b.cpuUsPerReq)} | ` +
        `${s.non2xx} / ${b.non2xx} | ${s.errors} / ${b.errors} | ${fmt(s.conflictsPerRequest, 3)} / ${fmt(b.conflictsPerRequest, 3)} | ${fmt(s.requestsPerTransaction, 1)} / ${fmt(b.requestsPerTransaction, 1)} |`,
    ),
  ];
  return { rows, markdown };
}
