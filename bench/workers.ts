/**
 * `make bench-workers` (also the last part of `make bench`): the server with WORKERS=1 against the same
 * build with WORKERS=2, each on its own fresh redis-server (no AOF) with the same seeded data, on a read
 * and a write scenario, alternating 1/2/1/2 round by round. Reports req/s (median, and the quartiles of
 * the per-round ratio 2 / 1), latency, and CPU time per request of the server processes (primary and
 * workers summed), of Redis and of the load generator (this process), with the machine's load average
 * before and after. Writes reports/bench/workers.{json,md}. Prints figures; never asserts timings.
 *
 * Env: BENCH_DURATION, BENCH_ROUNDS, BENCH_CONNECTIONS (bench/options.ts), BENCH_WARMUP (s, 1),
 * BENCH_LOG_LEVEL (default info, as shipped), BENCH_WORKERS (the many-process side, default 2).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { USER_KEYS } from '../server/src/users/store.ts';
import { freePort } from '../server/test/support/redis.ts';
import { CONNECTIONS, DURATION, ROUNDS } from './options.ts';
import {
  type BenchRedis,
  cpuMs,
  descendantPids,
  type NodeServer,
  runBenchMain,
  startNode,
  startRedis,
  withCpuPerRequest,
} from './procs.ts';
import { median, quantile } from './stats.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = path.join(ROOT, 'reports', 'bench');
const SERVER_SCRIPT = path.join(ROOT, 'dist', 'server', 'src', 'main.js');
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL || 'info';
const MANY = Number(process.env.BENCH_WORKERS || 2);
const SEEDED_USERS = 1000;
const WATCHDOG_MS = 15 * 60_000;

interface Scenario {
  id: string;
  title: string;
  /** Requests for one run; `run` keeps created ids new across runs. */
  requests(run: number): autocannon.Request[];
}

const SCENARIOS: Scenario[] = [
  {
    id: 'get-by-id',
    title: 'read: GET /UserService/users/{id} (1,000 users)',
    requests() {
      let n = 0;
      return [
        {
          method: 'GET',
          setupRequest: (req) => ({ ...req, path: `/UserService/users/${1 + (n++ % SEEDED_USERS)}` }),
        },
      ];
    },
  },
  {
    id: 'put-create',
    title: 'write: PUT /UserService/users (new ids)',
    requests(run) {
      let id = 1_000_000 + run * 10_000_000;
      return [
        {
          method: 'PUT',
          path: '/UserService/users',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          setupRequest: (req) => ({ ...req, body: `id=${id++}&name=New%20Person&profession=Engineer` }),
        },
      ];
    },
  },
];

interface Target {
  workers: number;
  node: NodeServer;
  redis: BenchRedis;
  client: Redis;
}

interface RunFigures {
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
  /** CPU time per request, µs: the server's processes (primary + workers), Redis, the load generator. */
  serverUs: number;
  redisUs: number;
  clientUs: number;
}

/** Empties the Redis and stores users 1..SEEDED_USERS and the initialised marker, as the server would. */
async function seed(redis: Redis): Promise<void> {
  await redis.flushall();
  const fields: string[] = [];
  for (let i = 1; i <= SEEDED_USERS; i++)
    fields.push(String(i), JSON.stringify({ name: `user-${i}`, profession: 'bench' }));
  await redis
    .multi()
    .set(USER_KEYS.initialised, '1')
    .hset(USER_KEYS.users, ...fields)
    .exec();
}

/** The server's processes: the one started and, with WORKERS > 1, the workers it forked. */
const serverPids = (target: Target) => [target.node.pid, ...descendantPids(target.node.pid)];

async function runOnce(
  target: Target,
  scenario: Scenario,
  run: number,
  seconds: number,
): Promise<RunFigures> {
  await seed(target.client);
  const redisBefore = cpuMs(target.redis.pid);
  const clientBefore = process.cpuUsage();
  const { result, cpuUsPerReq } = await withCpuPerRequest(serverPids(target), () =>
    autocannon({
      url: target.node.url,
      connections: CONNECTIONS,
      duration: seconds,
      requests: scenario.requests(run),
      timeout: 10,
    }),
  );
  const client = process.cpuUsage(clientBefore);
  const requests = Math.max(1, result.requests.total);
  return {
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    requests: result.requests.total,
    serverUs: cpuUsPerReq,
    redisUs: ((cpuMs(target.redis.pid) - redisBefore) * 1000) / requests,
    clientUs: (client.user + client.system) / requests,
  };
}

/** Starts the server with `workers` processes and waits until every worker runs. */
async function startTarget(workers: number): Promise<Target> {
  const redis = await startRedis({ fsync: 'off' });
  const node = await startNode(`WORKERS=${workers}`, SERVER_SCRIPT, await freePort(), {
    REDIS_URL: redis.url,
    LOG_LEVEL,
    WORKERS: String(workers),
  });
  const deadline = Date.now() + 20_000;
  while (workers > 1 && descendantPids(node.pid).length < workers) {
    if (Date.now() > deadline) throw new Error(`${node.name}: the workers did not start`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { workers, node, redis, client: new Redis(redis.url) };
}

const fmt = (value: number, digits = 0) =>
  Number.isFinite(value)
    ? value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : '–';

const uptime = () => {
  try {
    return execFileSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    return `load average: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')}`;
  }
};

async function main(): Promise<void> {
  if (!fs.existsSync(SERVER_SCRIPT)) throw new Error(`${SERVER_SCRIPT} is missing: run \`make build\` first`);
  const started = Date.now();
  const loadBefore = uptime();
  const targets: Target[] = [];
  try {
    targets.push(await startTarget(1), await startTarget(MANY));
    const rows: Array<{ scenario: Scenario; one: RunFigures[]; many: RunFigures[] }> = [];
    let run = 0;
    for (const scenario of SCENARIOS) {
      if (WARMUP > 0) for (const target of targets) await runOnce(target, scenario, run++, WARMUP);
      const one: RunFigures[] = [];
      const many: RunFigures[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        // Which side goes first alternates too: a noisy neighbour favours neither.
        const order = round % 2 === 0 ? targets : [...targets].reverse();
        for (const target of order) {
          (target.workers === 1 ? one : many).push(await runOnce(target, scenario, run++, DURATION));
        }
      }
      rows.push({ scenario, one, many });
      const ratio = median(many.map((r, i) => r.reqPerSec / (one[i]?.reqPerSec ?? Number.NaN)));
      console.log(
        `${scenario.id}: WORKERS=1 ${fmt(median(one.map((r) => r.reqPerSec)))} req/s, ` +
          `WORKERS=${MANY} ${fmt(median(many.map((r) => r.reqPerSec)))} req/s, ratio ${fmt(ratio, 2)}`,
      );
    }
    const loadAfter = uptime();

    const summary = rows.map(({ scenario, one, many }) => {
      const ratios = many.map((r, i) => r.reqPerSec / (one[i]?.reqPerSec ?? Number.NaN));
      const med = (runs: RunFigures[], key: keyof RunFigures) => median(runs.map((r) => r[key]));
      const side = (runs: RunFigures[]) => ({
        reqPerSec: med(runs, 'reqPerSec'),
        reqPerSecQuartiles: [
          quantile(
            runs.map((r) => r.reqPerSec),
            0.25,
          ),
          quantile(
            runs.map((r) => r.reqPerSec),
            0.75,
          ),
        ],
        p50: med(runs, 'p50'),
        p99: med(runs, 'p99'),
        errors: runs.reduce((sum, r) => sum + r.errors, 0),
        serverUs: med(runs, 'serverUs'),
        redisUs: med(runs, 'redisUs'),
        clientUs: med(runs, 'clientUs'),
        /** Cores the measured processes (server, Redis, load generator) kept busy: what they were given. */
        coresUsed: median(runs.map((r) => ((r.serverUs + r.redisUs + r.clientUs) * r.reqPerSec) / 1e6)),
        runs,
      });
      return {
        id: scenario.id,
        title: scenario.title,
        ratio: median(ratios),
        ratioQuartiles: [quantile(ratios, 0.25), quantile(ratios, 0.75)],
        one: side(one),
        many: side(many),
      };
    });

    const machine = `${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ${os.platform()} ${os.release()}`;
    const md = [
      `# Benchmark: WORKERS=1 against WORKERS=${MANY}`,
      '',
      `Run ${new Date().toISOString()} on ${machine}. Each figure is the median of ${ROUNDS} runs of ${DURATION} s with ` +
        `${CONNECTIONS} connections (autocannon, in the bench process), alternating the two servers round by round; each ` +
        `server on its own fresh redis-server (no AOF, TCP) with the same seeded data; LOG_LEVEL=${LOG_LEVEL}. ` +
        `Ratio = median over rounds of WORKERS=${MANY} / WORKERS=1 req/s in the same round (quartiles in brackets). ` +
        'CPU = CPU time per request of the server processes (primary and workers), of redis-server and of the load generator; ' +
        `cores used = their sum times req/s (of the ${os.availableParallelism()} cores, what the three got).`,
      '',
      `Load before: \`${loadBefore}\``,
      `Load after: \`${loadAfter}\``,
      '',
      `| scenario | WORKERS=1 req/s (quartiles) | WORKERS=${MANY} req/s (quartiles) | ratio (quartiles) | p50 / p99 ms (1 / ${MANY}) | server CPU µs/req (1 / ${MANY}) | Redis CPU µs/req (1 / ${MANY}) | load generator CPU µs/req (1 / ${MANY}) | cores used (1 / ${MANY}) | errors (1 / ${MANY}) |`,
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...summary.map(
        (s) =>
          `| ${s.title} | ${fmt(s.one.reqPerSec)} (${fmt(s.one.reqPerSecQuartiles[0] ?? Number.NaN)}–${fmt(s.one.reqPerSecQuartiles[1] ?? Number.NaN)}) | ` +
          `${fmt(s.many.reqPerSec)} (${fmt(s.many.reqPerSecQuartiles[0] ?? Number.NaN)}–${fmt(s.many.reqPerSecQuartiles[1] ?? Number.NaN)}) | ` +
          `${fmt(s.ratio, 2)} (${fmt(s.ratioQuartiles[0] ?? Number.NaN, 2)}–${fmt(s.ratioQuartiles[1] ?? Number.NaN, 2)}) | ` +
          `${fmt(s.one.p50)} / ${fmt(s.one.p99)} — ${fmt(s.many.p50)} / ${fmt(s.many.p99)} | ` +
          `${fmt(s.one.serverUs)} / ${fmt(s.many.serverUs)} | ${fmt(s.one.redisUs)} / ${fmt(s.many.redisUs)} | ` +
          `${fmt(s.one.clientUs)} / ${fmt(s.many.clientUs)} | ${fmt(s.one.coresUsed, 2)} / ${fmt(s.many.coresUsed, 2)} | ` +
          `${s.one.errors} / ${s.many.errors} |`,
      ),
      '',
      `Total bench time: ${Math.round((Date.now() - started) / 1000)} s.`,
    ];
    fs.mkdirSync(OUT_DIR, { recursive: true });
    const report = {
      date: new Date().toISOString(),
      machine,
      settings: {
        durationS: DURATION,
        rounds: ROUNDS,
        connections: CONNECTIONS,
        warmupS: WARMUP,
        workers: MANY,
      },
      loadBefore,
      loadAfter,
      scenarios: summary,
    };
    fs.writeFileSync(path.join(OUT_DIR, 'workers.json'), `${JSON.stringify(report, null, 2)}\n`);
    fs.writeFileSync(path.join(OUT_DIR, 'workers.md'), `${md.join('\n')}\n`);
    console.log(`\n${md.join('\n')}\n\nwrote ${path.relative(ROOT, OUT_DIR)}/workers.json and workers.md`);
  } finally {
    for (const target of targets) {
      target.client.disconnect();
      await target.node.stop();
      await target.redis.stop();
    }
  }
}

runBenchMain('bench-workers', main, WATCHDOG_MS);
