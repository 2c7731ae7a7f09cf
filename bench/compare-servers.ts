/**
 * Two configurations of the same server build, A against B (e.g. PROCESSES=1 against PROCESSES=2, or metrics
 * off against on), each on its own fresh redis-server (no AOF) with the same seeded data, scenario by
 * scenario, alternating A/B/B/A round by round. Reports req/s (median, and the quartiles of the
 * per-round ratio B / A), latency, and CPU time per request of the server processes (the primary and
 * the processes it forked, summed), of Redis and of the load generator (this process), with the machine's load average
 * before and after. Writes reports/bench/<name>.{json,md}. Prints figures; never asserts timings.
 *
 * Env: BENCH_DURATION, BENCH_ROUNDS, BENCH_CONNECTIONS (bench/options.ts), BENCH_WARMUP (s, 1),
 * BENCH_LOG_LEVEL (default info, as shipped).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { FORM_TYPE } from '../testing/form.ts';
import { freePort } from '../testing/free-port.ts';
import { range, storeUsers } from '../testing/seed-users.ts';
import { fmt } from './format.ts';
import {
  CONNECTIONS,
  DURATION,
  LOG_LEVEL,
  OUT_DIR,
  ROOT,
  ROUNDS,
  BUILT_SERVER_SCRIPT as SERVER_SCRIPT,
  WARMUP,
} from './options.ts';
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

const SEEDED_USERS = 1000;
const WATCHDOG_MS = 15 * 60_000;

export interface Scenario {
  id: string;
  title: string;
  /** Requests for one run; `run` keeps created ids new across runs. */
  requests(run: number): autocannon.Request[];
}

let nextUpdate = 0;

/** Single-request scenarios on 1,000 seeded users. */
export const SCENARIOS: Record<'getById' | 'putCreate' | 'postUpdate', Scenario> = {
  getById: {
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
  putCreate: {
    id: 'put-create',
    title: 'write: PUT /UserService/users (new ids)',
    requests(run) {
      let id = 1_000_000 + run * 10_000_000;
      return [
        {
          method: 'PUT',
          path: '/UserService/users',
          headers: { 'content-type': FORM_TYPE },
          setupRequest: (req) => ({ ...req, body: `id=${id++}&name=New%20Person&profession=Engineer` }),
        },
      ];
    },
  },
  postUpdate: {
    id: 'post-update',
    title: 'write: POST /UserService/users (existing ids: WATCH/MULTI/EXEC on the transaction pool)',
    requests() {
      return [
        {
          method: 'POST',
          path: '/UserService/users',
          headers: { 'content-type': FORM_TYPE },
          setupRequest: (req) => {
            const n = nextUpdate++;
            return { ...req, body: `id=${1 + (n % SEEDED_USERS)}&name=Renamed%20${n}&profession=Clerk` };
          },
        },
      ];
    },
  },
};

/** One side of the comparison: a label and the server's environment (PROCESSES, METRICS, …). */
export interface Side {
  label: string;
  env: Record<string, string>;
}

export interface Comparison {
  /** The report's file name (reports/bench/<name>.{json,md}) and the name of the run. */
  name: string;
  title: string;
  a: Side;
  b: Side;
  scenarios: Scenario[];
}

interface Target {
  side: Side;
  processes: number;
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
  /** CPU time per request, µs: the server's processes (primary + forked), Redis, the load generator. */
  serverUs: number;
  redisUs: number;
  clientUs: number;
}

/** Empties the Redis and stores users 1..SEEDED_USERS and the initialised marker, as the server would. */
async function seed(redis: Redis): Promise<void> {
  await redis.flushall();
  await storeUsers(redis, range(1, SEEDED_USERS), {
    indexed: false,
    user: (i) => ({ name: `user-${i}`, profession: 'bench' }),
  });
}

/** The server's processes: the one started and, with PROCESSES > 1, the ones it forked. */
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

/** Starts the server of one side and waits until every process runs. */
async function startTarget(side: Side): Promise<Target> {
  const processes = Number(side.env.PROCESSES ?? 1);
  const redis = await startRedis({ fsync: 'off' });
  const node = await startNode(side.label, SERVER_SCRIPT, await freePort(), {
    REDIS_URL: redis.url,
    LOG_LEVEL,
    ...side.env,
  });
  const deadline = Date.now() + 20_000;
  while (processes > 1 && descendantPids(node.pid).length < processes) {
    if (Date.now() > deadline) throw new Error(`${node.name}: the server processes did not start`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { side, processes, node, redis, client: new Redis(redis.url) };
}

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

/** Runs the comparison and writes its report; `runBenchMain` wraps it in the caller. */
export async function compareServers({ name, title, a, b, scenarios }: Comparison): Promise<void> {
  if (!fs.existsSync(SERVER_SCRIPT)) throw new Error(`${SERVER_SCRIPT} is missing: run \`make build\` first`);
  const started = Date.now();
  const loadBefore = uptime();
  const targets: Target[] = [];
  try {
    targets.push(await startTarget(a), await startTarget(b));
    const rows: Array<{ scenario: Scenario; ofA: RunFigures[]; ofB: RunFigures[] }> = [];
    let run = 0;
    for (const scenario of scenarios) {
      if (WARMUP > 0) for (const target of targets) await runOnce(target, scenario, run++, WARMUP);
      const ofA: RunFigures[] = [];
      const ofB: RunFigures[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        // Which side goes first alternates too: a noisy neighbour favours neither.
        const order = round % 2 === 0 ? targets : [...targets].reverse();
        for (const target of order) {
          (target.side === a ? ofA : ofB).push(await runOnce(target, scenario, run++, DURATION));
        }
      }
      rows.push({ scenario, ofA, ofB });
      const ratio = median(ofB.map((r, i) => r.reqPerSec / (ofA[i]?.reqPerSec ?? Number.NaN)));
      console.log(
        `${scenario.id}: ${a.label} ${fmt(median(ofA.map((r) => r.reqPerSec)))} req/s, ` +
          `${b.label} ${fmt(median(ofB.map((r) => r.reqPerSec)))} req/s, ratio ${fmt(ratio, 2)}`,
      );
    }
    const loadAfter = uptime();

    const summary = rows.map(({ scenario, ofA, ofB }) => {
      const ratios = ofB.map((r, i) => r.reqPerSec / (ofA[i]?.reqPerSec ?? Number.NaN));
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
        ofA: side(ofA),
        ofB: side(ofB),
      };
    });

    const machine = `${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ${os.platform()} ${os.release()}`;
    const md = [
      `# Benchmark: ${title}`,
      '',
      `Run ${new Date().toISOString()} on ${machine}. Each figure is the median of ${ROUNDS} runs of ${DURATION} s with ` +
        `${CONNECTIONS} connections (autocannon, in the bench process), alternating the two servers round by round; each ` +
        `server on its own fresh redis-server (no AOF, TCP) with the same seeded data; LOG_LEVEL=${LOG_LEVEL}. ` +
        `Ratio = median over rounds of ${b.label} / ${a.label} req/s in the same round (quartiles in brackets). ` +
        'CPU = CPU time per request of the server processes (primary and workers), of redis-server and of the load generator; ' +
        `cores used = their sum times req/s (of the ${os.availableParallelism()} cores, what the three got).`,
      '',
      `Load before: \`${loadBefore}\``,
      `Load after: \`${loadAfter}\``,
      '',
      `| scenario | ${a.label} req/s (quartiles) | ${b.label} req/s (quartiles) | ratio (quartiles) | p50 / p99 ms (A / B) | server CPU µs/req (A / B) | Redis CPU µs/req (A / B) | load generator CPU µs/req (A / B) | cores used (A / B) | errors (A / B) |`,
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...summary.map(
        (s) =>
          `| ${s.title} | ${fmt(s.ofA.reqPerSec)} (${fmt(s.ofA.reqPerSecQuartiles[0] ?? Number.NaN)}–${fmt(s.ofA.reqPerSecQuartiles[1] ?? Number.NaN)}) | ` +
          `${fmt(s.ofB.reqPerSec)} (${fmt(s.ofB.reqPerSecQuartiles[0] ?? Number.NaN)}–${fmt(s.ofB.reqPerSecQuartiles[1] ?? Number.NaN)}) | ` +
          `${fmt(s.ratio, 2)} (${fmt(s.ratioQuartiles[0] ?? Number.NaN, 2)}–${fmt(s.ratioQuartiles[1] ?? Number.NaN, 2)}) | ` +
          `${fmt(s.ofA.p50)} / ${fmt(s.ofA.p99)} — ${fmt(s.ofB.p50)} / ${fmt(s.ofB.p99)} | ` +
          `${fmt(s.ofA.serverUs)} / ${fmt(s.ofB.serverUs)} | ${fmt(s.ofA.redisUs)} / ${fmt(s.ofB.redisUs)} | ` +
          `${fmt(s.ofA.clientUs)} / ${fmt(s.ofB.clientUs)} | ${fmt(s.ofA.coresUsed, 2)} / ${fmt(s.ofB.coresUsed, 2)} | ` +
          `${s.ofA.errors} / ${s.ofB.errors} |`,
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
        a,
        b,
      },
      loadBefore,
      loadAfter,
      scenarios: summary,
    };
    fs.writeFileSync(path.join(OUT_DIR, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
    fs.writeFileSync(path.join(OUT_DIR, `${name}.md`), `${md.join('\n')}\n`);
    console.log(`\n${md.join('\n')}\n\nwrote ${path.relative(ROOT, OUT_DIR)}/${name}.json and ${name}.md`);
  } finally {
    for (const target of targets) {
      target.client.disconnect();
      await target.node.stop();
      await target.redis.stop();
    }
  }
}

/** The whole comparison under the bench watchdog (children killed on a hang or an error). */
export function runComparison(comparison: Comparison): void {
  runBenchMain(`bench-${comparison.name}`, () => compareServers(comparison), WATCHDOG_MS);
}
