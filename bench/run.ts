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
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { freePort } from '../scripts/lib/free-port.ts';
import { range, seedUsers as seedUserRange } from '../server/test/users/seed.ts';
import { runContention } from './contention.ts';
import { CONNECTIONS, DURATION, ROUNDS } from './options.ts';
import {
  type BenchRedis,
  type NodeServer,
  rssMiB,
  runBenchMain,
  startNode,
  startRedis,
  withCpuPerRequest,
} from './procs.ts';
import { median, type RoundsSummary, summariseRounds } from './stats.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = path.join(ROOT, 'reports', 'bench');
/** BENCH_SERVER_SCRIPT runs another build of the server (e.g. an older commit's) against the same baseline. */
const SERVER_SCRIPT = path.resolve(
  process.env.BENCH_SERVER_SCRIPT || path.join(ROOT, 'dist', 'server', 'src', 'main.js'),
);
const BASELINE_SCRIPT = path.join(ROOT, 'bench', 'baseline.ts');

const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);
const ONLY = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
const PROFILE = process.env.BENCH_PROFILE === '1';
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL || 'info';
const WATCHDOG_MS = 20 * 60_000;

// ---------------------------------------------------------------- data

/**
 * Empties the Redis and stores users `from`..`to` in the server's data model (hash, id index, version
 * token, initialised marker; a few names carry characters that must be escaped in XML).
 */
async function seedUsers(redis: Redis, count: number, from = 1): Promise<void> {
  await redis.flushall();
  await seedUserRange(redis, range(from, from + count - 1));
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (id: number, name: string, profession: string) =>
  `id=${id}&name=${encodeURIComponent(name)}&profession=${encodeURIComponent(profession)}`;

// ---------------------------------------------------------------- scenarios

interface Scenario {
  id: string;
  title: string;
  /** Users seeded before each run (ids 1..n). */
  seed: number;
  /** Further data stored after the users. */
  seedMore?: (redis: Redis) => Promise<void>;
  /** Requests for one run; called afresh per run so counters restart. */
  requests(): autocannon.Request[];
  /** Only run when the server answers this probe with a status below 404 (resources still being built). */
  needs?: string;
}

const BENCH_APP = 'bench-app';
const JSON_HEADERS = { 'content-type': 'application/json' };
const WORKERS_SEEDED = 150_000;
/** A deterministic lower-case UUID v4 for seeded worker n. */
const workerId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Workers 1..n of the bench app, up, in the stored form of server/src/apps/keys.ts; and the removal group. */
async function seedWorkers(redis: Redis, count: number): Promise<void> {
  const at = '2026-01-01T12:00:00.000Z';
  const stored = JSON.stringify({
    command: 'sleep 1000',
    size: 'standard',
    state: 'up',
    created_at: at,
    updated_at: at,
  });
  const pipeline = redis.pipeline();
  for (let start = 1; start <= count; start += 2000) {
    const args: string[] = [];
    for (let i = start; i < Math.min(start + 2000, count + 1); i++) args.push(workerId(i), stored);
    pipeline.hset(`{usersvc}:app:${BENCH_APP}:workers`, ...args);
  }
  pipeline.xgroup('CREATE', '{usersvc}:worker-removals', 'worker-removers', '0', 'MKSTREAM');
  await pipeline.exec();
}

/** After a FLUSHALL the removal runners' consumer group is gone: create it again (as they would). */
async function seedRemovalGroup(redis: Redis): Promise<void> {
  await redis.xgroup('CREATE', '{usersvc}:worker-removals', 'worker-removers', '0', 'MKSTREAM');
}

const SCENARIOS: Scenario[] = [
  {
    id: 'get-by-id',
    title: 'GET /UserService/users/{id}',
    seed: 1000,
    requests() {
      let n = 0;
      return [
        {
          method: 'GET',
          setupRequest: (req) => ({ ...req, path: `/UserService/users/${1 + (n++ % 1000)}` }),
        },
      ];
    },
  },
  ...[1, 1000, 10_000].map(
    (size): Scenario => ({
      id: `list-${size}`,
      title: `GET /UserService/users (${size.toLocaleString('en')} user${size === 1 ? '' : 's'})`,
      seed: size,
      requests: () => [{ method: 'GET', path: '/UserService/users' }],
    }),
  ),
  {
    id: 'head-list',
    title: 'HEAD /UserService/users (1,000 users)',
    seed: 1000,
    requests: () => [{ method: 'HEAD', path: '/UserService/users' }],
  },
  {
    id: 'put-create',
    title: 'PUT /UserService/users (new ids)',
    seed: 1000,
    requests() {
      let n = 1_000_000;
      return [
        {
          method: 'PUT',
          path: '/UserService/users',
          headers: FORM,
          setupRequest: (req) => ({ ...req, body: form(n++, 'New Person', 'Engineer') }),
        },
      ];
    },
  },
  {
    id: 'post-update',
    title: 'POST /UserService/users (existing ids)',
    seed: 1000,
    requests() {
      let n = 0;
      return [
        {
          method: 'POST',
          path: '/UserService/users',
          headers: FORM,
          setupRequest: (req) => ({ ...req, body: form(1 + (n++ % 1000), `Renamed ${n}`, 'Clerk') }),
        },
      ];
    },
  },
  {
    id: 'delete',
    title: 'DELETE /UserService/users/{id} (existing ids)',
    seed: 200_000,
    requests() {
      let n = 1;
      return [{ method: 'DELETE', setupRequest: (req) => ({ ...req, path: `/UserService/users/${n++}` }) }];
    },
  },
  {
    id: 'mix',
    title: 'mix: 80 % GET by id, 10 % POST, 5 % PUT, 5 % DELETE',
    seed: 200_000,
    requests() {
      // Deterministic sequence: every target gets the same one. Reads and updates use ids 1..1000,
      // deletes walk 1001.. (never read), creates use new ids from 10,000,000.
      let n = 0;
      let nextDelete = 1001;
      let nextCreate = 10_000_000;
      return [
        {
          setupRequest: (req) => {
            const slot = n % 20;
            const id = 1 + ((n * 7919) % 1000);
            n++;
            if (slot < 16)
              return { ...req, method: 'GET', path: `/UserService/users/${id}`, body: undefined };
            if (slot < 18) {
              return {
                ...req,
                method: 'POST',
                path: '/UserService/users',
                headers: FORM,
                body: form(id, `Mixed ${n}`, 'Clerk'),
              };
            }
            if (slot === 18) {
              return {
                ...req,
                method: 'PUT',
                path: '/UserService/users',
                headers: FORM,
                body: form(nextCreate++, 'New', 'Cook'),
              };
            }
            return { ...req, method: 'DELETE', path: `/UserService/users/${nextDelete++}`, body: undefined };
          },
        },
      ];
    },
  },
  {
    id: 'domain-create-delete',
    title: 'domain POST (201) then DELETE (200), alternating',
    seed: 1,
    seedMore: seedRemovalGroup,
    requests() {
      let n = 0;
      return [
        {
          method: 'POST',
          path: `/apps/${BENCH_APP}/domains`,
          headers: JSON_HEADERS,
          setupRequest: (req) => ({
            ...req,
            body: JSON.stringify({ hostname: `host-${n++}.bench.example.com` }),
          }),
          onResponse: (status, body, context) => {
            (context as { id?: string }).id =
              status === 201 ? (JSON.parse(body) as { id: string }).id : 'missing';
          },
        },
        {
          method: 'DELETE',
          setupRequest: (req, context) => ({
            ...req,
            path: `/apps/${BENCH_APP}/domains/${(context as { id?: string }).id}`,
            body: undefined,
            headers: {},
          }),
        },
      ];
    },
  },
  {
    id: 'worker-delete',
    title: 'worker DELETE (202 {}, removal job 1 s later)',
    seed: 1,
    seedMore: (redis) => seedWorkers(redis, WORKERS_SEEDED),
    requests() {
      let n = 1;
      return [
        {
          method: 'DELETE',
          setupRequest: (req) => ({ ...req, path: `/apps/${BENCH_APP}/workers/${workerId(n++)}` }),
        },
      ];
    },
  },
];

// ---------------------------------------------------------------- running

/**
 * autocannon's HTTP parser (http-parser-js) cannot know that a HEAD answer has no body: it waits for
 * Content-Length bytes that never come. While `skipBodies` is set (the HEAD scenario only), the
 * headers-complete callback answers "skip the body", as Node's own parser does for HEAD.
 */
let skipBodies = false;
{
  const requireFromAutocannon = createRequire(createRequire(import.meta.url).resolve('autocannon'));
  const { HTTPParser } = requireFromAutocannon('http-parser-js') as {
    HTTPParser: { kOnHeadersComplete: number; prototype: Record<number, unknown> };
  };
  const key = HTTPParser.kOnHeadersComplete;
  const handlers = new WeakMap<object, (...args: unknown[]) => unknown>();
  Object.defineProperty(HTTPParser.prototype, key, {
    configurable: true,
    get(this: object) {
      const handler = handlers.get(this);
      return (...args: unknown[]) => {
        handler?.apply(this, args);
        return skipBodies ? 1 : undefined;
      };
    },
    set(this: object, handler: (...args: unknown[]) => unknown) {
      handlers.set(this, handler);
    },
  });
}

interface Target {
  key: 'server' | 'baseline';
  node: NodeServer;
  redis: BenchRedis;
  client: Redis;
}

interface RunFigures {
  reqPerSec: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  requests: number;
  rssMiB: number;
  /** CPU time of the server process per request, in microseconds (robust to a noisy machine). */
  cpuUsPerReq: number;
}

function cannon(url: string, requests: autocannon.Request[], seconds: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections: CONNECTIONS, duration: seconds, requests, timeout: 10 },
      (err: Error | null, result: autocannon.Result) => (err ? reject(err) : resolve(result)),
    );
  });
}

async function seed(target: Target, scenario: Scenario): Promise<void> {
  await seedUsers(target.client, scenario.seed);
  await scenario.seedMore?.(target.client);
}

async function runOnce(target: Target, scenario: Scenario, seconds: number): Promise<RunFigures> {
  await seed(target, scenario);
  skipBodies = scenario.id === 'head-list';
  const { result, cpuUsPerReq } = await withCpuPerRequest(target.node.pid, () =>
    cannon(target.node.url, scenario.requests(), seconds).finally(() => {
      skipBodies = false;
    }),
  );
  return {
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors + result.timeouts + result.non2xx,
    requests: result.requests.total,
    rssMiB: rssMiB(target.node.pid),
    cpuUsPerReq,
  };
}

interface Summary extends RoundsSummary {
  errors: number;
  requests: number;
  rssMiB: number;
  rssByRound: number[];
  cpuUsPerReq: number;
  runs: RunFigures[];
}

function summarise(runs: RunFigures[], others: RunFigures[] = []): Summary {
  return {
    ...summariseRounds(runs, others),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    requests: runs.reduce((sum, r) => sum + r.requests, 0),
    rssMiB: (runs.at(-1) as RunFigures).rssMiB,
    rssByRound: runs.map((r) => Math.round(r.rssMiB)),
    cpuUsPerReq: median(runs.map((r) => r.cpuUsPerReq)),
    runs,
  };
}

// ---------------------------------------------------------------- sanity: same bytes out

interface Probe {
  method: string;
  path: string;
  body?: string;
}
const PROBES: Probe[] = [
  { method: 'GET', path: '/UserService/users' },
  { method: 'HEAD', path: '/UserService/users' },
  { method: 'GET', path: '/UserService/users/7' },
  { method: 'GET', path: '/UserService/users/1' },
  { method: 'GET', path: '/UserService/users/999' },
  { method: 'PUT', path: '/UserService/users', body: form(50, 'Zoë & <Co>\r', 'Chef "1"') },
  { method: 'PUT', path: '/UserService/users', body: form(50, 'again', 'again') },
  { method: 'GET', path: '/UserService/users/50' },
  { method: 'POST', path: '/UserService/users', body: form(3, 'Renamed', 'Clerk') },
  { method: 'POST', path: '/UserService/users', body: form(404, 'Nobody', 'None') },
  { method: 'DELETE', path: '/UserService/users/2' },
  { method: 'DELETE', path: '/UserService/users/2' },
  { method: 'GET', path: '/UserService/users' },
  { method: 'POST', path: `/apps/${BENCH_APP}/domains`, body: '{"hostname":"WWW.Example.com"}' },
  { method: 'DELETE', path: `/apps/${BENCH_APP}/domains/{last}` },
  { method: 'DELETE', path: `/apps/${BENCH_APP}/domains/{last}` },
  { method: 'POST', path: `/apps/${BENCH_APP}/workers`, body: '{"command":"run --fast"}' },
  { method: 'DELETE', path: `/apps/${BENCH_APP}/workers/{last}` },
  { method: 'DELETE', path: `/apps/${BENCH_APP}/workers/{last}` },
];

/** Generated ids and timestamps differ between the two servers by nature: compared as placeholders. */
const mask = (text: string) =>
  text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>');

async function probeAll(target: Target): Promise<string[]> {
  await seedUsers(target.client, 10);
  await seedRemovalGroup(target.client);
  const out: string[] = [];
  let last = '';
  for (const probe of PROBES) {
    const json = probe.path.startsWith('/apps/');
    const res = await fetch(target.node.url + probe.path.replace('{last}', last), {
      method: probe.method,
      headers: { 'Request-Id': 'bench-sanity', ...(probe.body ? (json ? JSON_HEADERS : FORM) : {}) },
      body: probe.body,
      signal: AbortSignal.timeout(5000),
    });
    const headers = ['content-type', 'content-length', 'request-id', 'x-content-type-options', 'location']
      .map((name) => `${name}: ${res.headers.get(name)}`)
      .join('\n');
    const body = await res.text();
    if (res.status === 201) last = (JSON.parse(body) as { id: string }).id;
    out.push(mask(`${probe.method} ${probe.path} -> ${res.status}\n${headers}\n\n${body}`));
  }
  return out;
}

async function sanity(
  a: Target,
  b: Target,
): Promise<{ identical: number; total: number; differences: string[] }> {
  const [left, right] = [await probeAll(a), await probeAll(b)];
  const differences: string[] = [];
  left.forEach((text, i) => {
    if (text !== right[i]) differences.push(`--- server\n${text}\n--- baseline\n${right[i]}`);
  });
  return { identical: left.length - differences.length, total: left.length, differences };
}

// ---------------------------------------------------------------- extras

async function fsyncFigure(): Promise<Record<string, Summary>> {
  // The server as it ships (embedded redis-server, appendfsync always, unix socket) against the same
  // server on a redis-server with the same settings but appendfsync everysec.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'usersvc-bench-data-'));
  const everysecRedis = await startRedis({ fsync: 'everysec', unixSocket: true });
  const always = await startNode('server (embedded, always)', SERVER_SCRIPT, await freePort(), {
    DATA_DIR: dataDir,
    LOG_LEVEL,
  });
  const everysec = await startNode('server (everysec)', SERVER_SCRIPT, await freePort(), {
    REDIS_URL: everysecRedis.url,
    LOG_LEVEL,
  });
  const scenario = SCENARIOS.find((s) => s.id === 'put-create') as Scenario;
  const results: Record<string, RunFigures[]> = { always: [], everysec: [] };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [key, node] of [
        ['always', always],
        ['everysec', everysec],
      ] as const) {
        const result = await cannon(
          node.url,
          scenario.requests().map((r) => withIdOffset(r, round)),
          DURATION,
        );
        results[key]?.push({
          reqPerSec: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          max: result.latency.max,
          errors: result.errors + result.timeouts + result.non2xx,
          requests: result.requests.total,
          rssMiB: rssMiB(node.pid),
          cpuUsPerReq: Number.NaN,
        });
      }
    }
  } finally {
    await always.stop();
    await everysec.stop();
    await everysecRedis.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return { always: summarise(results.always ?? []), everysec: summarise(results.everysec ?? []) };
}

/** The fsync runs do not reseed: shift the created ids per round so they stay new. */
function withIdOffset(request: autocannon.Request, round: number): autocannon.Request {
  const setup = request.setupRequest;
  if (typeof setup !== 'function') return request;
  return {
    ...request,
    setupRequest: (req, context) => {
      const out = setup(req, context);
      return {
        ...out,
        body: String(out.body).replace(/^id=(\d+)/, (_m, id) => `id=${Number(id) + round * 10_000_000}`),
      };
    },
  };
}

interface RedisBenchmarkLine {
  test: string;
  rps: number;
  p50Ms: number;
  p99Ms: number;
}

async function redisBenchmark(): Promise<RedisBenchmarkLine[]> {
  const redis = await startRedis({ fsync: 'off' });
  const lines: RedisBenchmarkLine[] = [];
  const run = (label: string, pipeline: number, command: string[]) =>
    new Promise<void>((resolve) => {
      const args = ['-h', '127.0.0.1', '-p', String(redis.port), '-c', String(CONNECTIONS), '-n', '200000'];
      args.push('-P', String(pipeline), '-r', '100000', '--csv', ...command);
      execFile('redis-benchmark', args, { timeout: 30_000 }, (err, stdout) => {
        const row = stdout
          .trim()
          .split('\n')
          .find((line) => !line.startsWith('"test"'));
        if (err || !row) {
          lines.push({
            test: `${label} (failed: ${err?.message ?? 'no output'})`,
            rps: Number.NaN,
            p50Ms: Number.NaN,
            p99Ms: Number.NaN,
          });
        } else {
          // "test","rps","avg","min","p50","p95","p99","max": the test name may itself hold commas, so count from the end.
          const cells = row.split(',').map((cell) => cell.replace(/"/g, ''));
          const at = (fromEnd: number) => Number(cells[cells.length - fromEnd]);
          lines.push({ test: label, rps: at(7), p50Ms: at(4), p99Ms: at(2) });
        }
        resolve();
      });
    });
  try {
    await run('HSET', 1, ['HSET', 'bench:h', '__rand_int__', '{"name":"user","profession":"x"}']);
    await run('HGET', 1, ['HGET', 'bench:h', '__rand_int__']);
    await run('HSET pipelined x16', 16, [
      'HSET',
      'bench:h',
      '__rand_int__',
      '{"name":"user","profession":"x"}',
    ]);
    await run('HGET pipelined x16', 16, ['HGET', 'bench:h', '__rand_int__']);
  } finally {
    await redis.stop();
  }
  return lines;
}

// ---------------------------------------------------------------- report

const fmt = (value: number, digits = 0) =>
  Number.isFinite(value)
    ? value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : '–';

/** Memory over the rounds in a few figures: where it started, where it ended, the most it reached. */
const rssTrend = (byRound: number[]) => `${byRound[0]}→${byRound.at(-1)}, ${Math.max(...byRound)}`;

function tableRows(rows: Array<{ scenario: Scenario; server: Summary; baseline: Summary }>): string[] {
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

async function redisVersion(): Promise<string> {
  return new Promise((resolve) =>
    execFile('redis-server', ['--version'], (_err, stdout) =>
      resolve(/v=(\S+)/.exec(stdout)?.[1] ?? 'unknown'),
    ),
  );
}

// ---------------------------------------------------------------- main

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
    const rows: Array<{ scenario: Scenario; server: Summary; baseline: Summary }> = [];
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
      console.log(
        `${scenario.id}: server ${fmt(row.server.reqPerSec)} req/s, baseline ${fmt(row.baseline.reqPerSec)} req/s, ` +
          `ratio ${fmt(row.server.ratio, 2)}, errors ${row.server.errors}/${row.baseline.errors}`,
      );
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

    const extras =
      process.env.BENCH_SKIP_EXTRAS === '1' || (ONLY.length > 0 && process.env.BENCH_EXTRAS !== '1');
    const fsync = extras ? undefined : await fsyncFigure();
    const ceiling = extras ? undefined : await redisBenchmark();

    const machine = {
      nproc: os.availableParallelism(),
      cpu: os.cpus()[0]?.model ?? 'unknown',
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      redis: await redisVersion(),
      platform: `${os.platform()} ${os.release()}`,
    };
    const settings = {
      durationS: DURATION,
      rounds: ROUNDS,
      connections: CONNECTIONS,
      warmupS: WARMUP,
      logLevel: LOG_LEVEL,
    };
    const md: string[] = [
      `# Benchmark: reference server vs framework-free baseline`,
      '',
      `Run ${new Date().toISOString()} on ${machine.nproc} cores (${machine.cpu}), Node ${machine.node}, Redis ${machine.redis}, ${machine.platform}.`,
      `Each figure is the median of ${ROUNDS} runs of ${DURATION} s with ${CONNECTIONS} connections, alternating server/baseline; ` +
        `both on their own fresh redis-server (no AOF) with the same seeded data; server LOG_LEVEL=${LOG_LEVEL}. ` +
        `Ratio = median over rounds of server / baseline req/s in the same round (quartiles of the per-round ratios in brackets). CPU = server process CPU time per request. RSS is at the end of each run. Sanity: ${same.identical}/${same.total} responses byte-identical.`,
      '',
      ...tableRows(rows),
      ...contention.markdown,
    ];
    if (fsync) {
      md.push(
        '',
        '## PUT create: embedded Redis with appendfsync always vs everysec (server only)',
        '',
        '| appendfsync | req/s | p50 / p99 / max ms | errors |',
        '|---|---:|---:|---:|',
        `| always (as shipped) | ${fmt(fsync.always?.reqPerSec ?? Number.NaN)} | ${fmt(fsync.always?.p50 ?? Number.NaN)} / ${fmt(fsync.always?.p99 ?? Number.NaN)} / ${fmt(fsync.always?.max ?? Number.NaN)} | ${fsync.always?.errors} |`,
        `| everysec | ${fmt(fsync.everysec?.reqPerSec ?? Number.NaN)} | ${fmt(fsync.everysec?.p50 ?? Number.NaN)} / ${fmt(fsync.everysec?.p99 ?? Number.NaN)} / ${fmt(fsync.everysec?.max ?? Number.NaN)} | ${fsync.everysec?.errors} |`,
      );
    }
    if (ceiling) {
      md.push(
        '',
        `## Ceiling: redis-benchmark on the same machine (${CONNECTIONS} connections, no AOF)`,
        '',
        '| command | req/s | p50 / p99 ms |',
        '|---|---:|---:|',
        ...ceiling.map(
          (line) => `| ${line.test} | ${fmt(line.rps)} | ${fmt(line.p50Ms, 3)} / ${fmt(line.p99Ms, 3)} |`,
        ),
      );
    }
    md.push('', `Total bench time: ${Math.round((Date.now() - started) / 1000)} s.`);

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
  } finally {
    for (const target of targets) target.client.disconnect();
    await redisA.stop();
    await redisB.stop();
  }
}

runBenchMain('bench', main, WATCHDOG_MS);
