/**
 * `make bench-floor`: the ladder of what each per-request step costs. Each rung is a server of its own
 * answering GET /UserService/users/1: bare node:http; bare restify; then restify with the server's own
 * per-request steps added one at a time, each from the built server's modules (dist/, as shipped):
 * request id, target check, host and origin checks, metrics, access log, the route's Redis call,
 * rendering, sending; and last the full server (dist main.js, as `make run` starts it). Below the
 * Redis rung the answer is a fixed `<user>` document written with one writeHead and end after one
 * await, as an async route would. The rungs are measured in turn, round after round, in one run.
 *
 * Per rung: req/s, CPU µs per request (from /proc), bytes allocated on the V8 heap per request and
 * the share of the CPU time spent in garbage collection (both from v8.GCProfiler inside the rung's
 * process, told over IPC when each load starts and ends). Every rung holds V8's young generation as
 * the server's process does (young-generation.ts), so that their GC shares compare.
 *
 * Env: BENCH_DURATION (s per run, default 2), BENCH_ROUNDS (12), BENCH_CONNECTIONS (32),
 * BENCH_FLOOR_RUNGS (comma-separated rung ids, default all), BENCH_FLOOR_OTHER_BUILD (another build's
 * main.js, e.g. from bench/build-at.sh: one more rung, that build's full server, for before/after).
 */
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import restify from 'restify';
import { freePort } from '../testing/free-port.ts';
import { storeUsers } from '../testing/seed-users.ts';
import { BUILT_SERVER_SCRIPT, CONNECTIONS, DURATION, ROUNDS } from './options.ts';
import { type NodeServer, runBenchMain, startNode, startRedis, withCpuPerRequest } from './procs.ts';
import { median } from './stats.ts';

const RUNGS = [
  { id: 'node-http', label: 'bare node:http' },
  { id: 'restify', label: 'bare restify' },
  { id: 'lean-chains', label: '+ handler chains without deferral (leanHandlerChains)' },
  { id: 'request-id', label: '+ request id (assignRequestId)' },
  { id: 'target', label: '+ target check (routeByTargetOnly, checkTarget)' },
  { id: 'host-origin', label: '+ host and origin checks (requestChecks)' },
  { id: 'metrics', label: '+ metrics (RequestMetrics started / finished)' },
  { id: 'access-log', label: "+ access log (createLogger's accessLog)" },
  { id: 'redis', label: "+ the route's Redis call (UserStore.getUser)" },
  { id: 'render', label: '+ rendering (renderUser)' },
  { id: 'send', label: '+ sending (sendXml)' },
  { id: 'server', label: 'the full server (dist main.js)' },
  { id: 'other-build', label: 'the full server, other build (BENCH_FLOOR_OTHER_BUILD)' },
] as const;
const OTHER_BUILD = process.env.BENCH_FLOOR_OTHER_BUILD;
type RungId = (typeof RUNGS)[number]['id'];

const BODY =
  '<?xml version="1.0" encoding="UTF-8"?><user><id>1</id><name>Mahesh</name><profession>Teacher</profession></user>';
const PATH = '/UserService/users/1';

/** A module of the built server (dist/server/src/…), typed as its source. */
function built<T>(relative: string): Promise<T> {
  const file = path.join(path.dirname(BUILT_SERVER_SCRIPT), relative);
  return import(pathToFileURL(file).href) as Promise<T>;
}

/** What the rung's process measures between the parent's `start` and `stop`. */
interface HeapFigures {
  allocatedBytes: number;
  gcUs: number;
}

/** In a rung's process: answers `start` and `stop` with the V8 heap's allocations and GC time meanwhile. */
function measureOnRequest(): void {
  let profiler: v8.GCProfiler | undefined;
  let usedAtStart = 0;
  process.on('message', (message) => {
    if (message === 'start') {
      profiler = new v8.GCProfiler();
      usedAtStart = v8.getHeapStatistics().used_heap_size;
      profiler.start();
      process.send?.('started');
    } else if (message === 'stop' && profiler) {
      const data = profiler.stop() as unknown as {
        statistics: Array<{
          cost: number;
          beforeGC: { heapStatistics: { usedHeapSize: number } };
          afterGC: { heapStatistics: { usedHeapSize: number } };
        }>;
      };
      let freed = 0;
      let gcUs = 0;
      for (const gc of data.statistics) {
        freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
        gcUs += gc.cost;
      }
      const figures: HeapFigures = {
        allocatedBytes: v8.getHeapStatistics().used_heap_size - usedAtStart + freed,
        gcUs,
      };
      process.send?.(figures);
    }
  });
}

async function answer(res: http.ServerResponse, body = BODY): Promise<void> {
  await null;
  res.writeHead(200, {
    'Content-Type': 'application/xml;charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** restify 12 has `first` handlers; @types/restify (restify 8) does not know them. */
type ServerWithFirst = restify.Server & {
  first(handler: (req: restify.Request, res: restify.Response) => boolean): void;
};

async function serve(rung: RungId, port: number): Promise<void> {
  measureOnRequest();
  if (rung === 'other-build') {
    await import(pathToFileURL(path.resolve(OTHER_BUILD as string)).href);
    return;
  }
  if (rung !== 'server') {
    // Every rung runs with the heap the server's process sets itself (main.ts), so GC shares compare.
    const { holdYoungGeneration } =
      await built<typeof import('../server/src/young-generation.ts')>('young-generation.js');
    holdYoungGeneration();
  }
  if (rung === 'node-http') {
    http.createServer((_req, res) => answer(res)).listen(port, '127.0.0.1');
    return;
  }
  if (rung === 'server') {
    await built('main.js'); // REDIS_URL, PORT and HOST come from the environment
    return;
  }
  const at = RUNGS.findIndex((r) => r.id === rung);
  const has = (step: RungId) => at >= RUNGS.findIndex((r) => r.id === step);
  const { loadConfig } = await built<typeof import('../server/src/config.ts')>('config.js');
  const { leanHandlerChains, markSent } =
    await built<typeof import('../server/src/http/restify.ts')>('http/restify.js');
  const { createLogger } = await built<typeof import('../server/src/logging.ts')>('logging.js');
  const { assignRequestId, checkTarget, requestChecks, routeByTargetOnly } =
    await built<typeof import('../server/src/http/middleware.ts')>('http/middleware.js');
  const { RequestMetrics } =
    await built<typeof import('../server/src/metrics/requests.ts')>('metrics/requests.js');
  const config = loadConfig();
  const { logger, accessLog } = createLogger(config.logLevel);
  // The options the reference server uses (server/src/app.ts).
  const server = restify.createServer({
    name: '',
    log: logger as unknown as restify.ServerOptions['log'],
    ignoreTrailingSlash: true,
    handleUncaughtExceptions: false,
  });
  if (has('lean-chains')) leanHandlerChains(server);
  const requests = has('metrics') ? new RequestMetrics() : undefined;
  const checkRequest = requestChecks({ allowedHosts: config.allowedHosts, checkOrigin: !config.apiToken });
  if (has('target')) routeByTargetOnly();
  if (has('request-id')) {
    (server as ServerWithFirst).first((req, res) => {
      requests?.started(req);
      assignRequestId(req);
      if (req.headers.upgrade !== undefined) res.shouldKeepAlive = false;
      const refused =
        (has('target') ? checkTarget(req) : undefined) ??
        (has('host-origin') ? checkRequest(req) : undefined);
      if (refused) throw refused; // never for this bench's requests
      return true;
    });
  }
  if (has('metrics')) {
    server.on('after', (req: restify.Request, res: restify.Response) => {
      if (has('access-log')) {
        accessLog(req.id(), req.method ?? '', req.url ?? '', res.statusCode, Date.now() - req.time());
      }
      requests?.finished(req, res.statusCode);
    });
  }
  const route = '/UserService/users/:userid';
  if (!has('redis')) {
    server.get(route, async (_req: restify.Request, res: restify.Response) => {
      markSent(res);
      await answer(res);
    });
  } else {
    const { createSharedClient, createTransactionClient } =
      await built<typeof import('../server/src/redis/connect.ts')>('redis/connect.js');
    const { ConnectionPool } = await built<typeof import('../server/src/redis/pool.ts')>('redis/pool.js');
    const { Replication } =
      await built<typeof import('../server/src/redis/replication.ts')>('redis/replication.js');
    const { UserStore } = await built<typeof import('../server/src/users/store.ts')>('users/store.js');
    const { parseUserId } = await built<typeof import('../server/src/users/model.ts')>('users/model.js');
    const { renderUser } = await built<typeof import('../server/src/users/render.ts')>('users/render.js');
    const { sendXml } = await built<typeof import('../server/src/http/send.ts')>('http/send.js');
    // As redis/connections.ts opens them (one shared connection for reads, one for changes).
    const target = { url: process.env.REDIS_URL as string };
    const redis = createSharedClient(target, { lazyConnect: false });
    const writer = createSharedClient(target, { lazyConnect: false });
    const store = new UserStore(
      {
        reads: redis,
        changes: writer,
        transactions: new ConnectionPool(() => createTransactionClient(target, writer, {})),
      },
      new Replication(0, 0),
    );
    server.get(route, async (req: restify.Request, res: restify.Response) => {
      const user = await store.getUser(parseUserId(String(req.params.userid)));
      if (!user) throw new Error('the bench user is missing');
      if (has('send')) return sendXml(res, 200, renderUser(user));
      markSent(res);
      await answer(res, has('render') ? renderUser(user) : BODY);
    });
  }
  server.listen(port, '127.0.0.1');
}

/** Sends `message` to a rung's process and waits for its answer. */
function ask<T>(node: NodeServer, message: string): Promise<T> {
  return new Promise((resolve) => {
    node.child.once('message', (reply) => resolve(reply as T));
    node.child.send(message);
  });
}

interface RungFigures {
  rps: number;
  cpuUs: number;
  bytes: number;
  gcShare: number;
}

async function ladder(): Promise<void> {
  const only = (process.env.BENCH_FLOOR_RUNGS ?? '').split(',').filter(Boolean);
  const rungs = RUNGS.filter(
    (r) => (only.length === 0 || only.includes(r.id)) && (r.id !== 'other-build' || OTHER_BUILD),
  );
  const self = new URL(import.meta.url).pathname;
  const redis = await startRedis({ fsync: 'off' });
  const client = new Redis(redis.url);
  await storeUsers(client, [1], { user: () => ({ name: 'Mahesh', profession: 'Teacher' }) });
  client.disconnect();
  const nodes = new Map<RungId, NodeServer>();
  for (const rung of rungs) {
    const env = { FLOOR_SERVE: rung.id, REDIS_URL: redis.url, LOG_LEVEL: 'info' };
    nodes.set(
      rung.id,
      await startNode(rung.id, self, await freePort(), env, ['--import', 'tsx'], { ipc: true }),
    );
  }
  const figures = new Map<RungId, RungFigures[]>(rungs.map((r) => [r.id, []]));
  for (let round = -1; round < ROUNDS; round++) {
    for (const rung of rungs) {
      const node = nodes.get(rung.id) as NodeServer;
      await ask(node, 'start');
      const { result, cpuUsPerReq } = await withCpuPerRequest(node.pid, () =>
        autocannon({ url: `${node.url}${PATH}`, connections: CONNECTIONS, duration: DURATION }),
      );
      const heap = await ask<HeapFigures>(node, 'stop');
      const total = Math.max(1, result.requests.total);
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`${rung.id}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      if (round < 0) continue; // round -1 warms up
      figures.get(rung.id)?.push({
        rps: result.requests.average,
        cpuUs: cpuUsPerReq,
        bytes: heap.allocatedBytes / total,
        gcShare: heap.gcUs / (cpuUsPerReq * total),
      });
    }
  }
  for (const node of nodes.values()) await node.stop();
  await redis.stop();
  console.log(
    `| rung | req/s | CPU µs/req | step's CPU µs | heap bytes allocated/req | GC share of CPU |\n|---|---:|---:|---:|---:|---:|`,
  );
  let previous: number | undefined;
  for (const rung of rungs) {
    const of = (key: keyof RungFigures) => median((figures.get(rung.id) ?? []).map((f) => f[key]));
    const cpu = of('cpuUs');
    const step =
      previous === undefined || rung.id === 'restify' || rung.id === 'other-build'
        ? ''
        : (cpu - previous).toFixed(1);
    previous = cpu;
    console.log(
      `| ${rung.label} | ${Math.round(of('rps')).toLocaleString('en')} | ${cpu.toFixed(1)} | ${step} | ${Math.round(of('bytes')).toLocaleString('en')} | ${(of('gcShare') * 100).toFixed(1)} % |`,
    );
  }
  console.log(
    `(medians of ${ROUNDS} rounds of ${DURATION} s per rung, ${CONNECTIONS} connections, GET ${PATH}; load average ${(
      await import('node:os')
    )
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
}

const serving = process.env.FLOOR_SERVE as RungId | undefined;
if (serving) await serve(serving, Number(process.env.PORT));
else runBenchMain('bench-floor', ladder, 30 * 60_000);
