/**
 * `make bench-scale`: the list of users at scale (issue 24), as an operator would see it. Per size, a
 * redis-server of its own (free port, no persistence) is seeded through a pipeline; then each build
 * (this one, and an older one built with bench/build-at.sh) runs on it alone: LISTS lists one after
 * another, then (this build, at the sizes of BENCH_SCALE_PARALLEL_SIZES) ten lists at once, while 8 connections
 * read single users. It prints, per build and size: time to the first and to the last byte, MB/s,
 * server RSS at start (idle), peak and after, and the list's share of the peak (above the same reads
 * without a list); the list's commands in Redis (calls and mean time from INFO commandstats, the longest
 * from SLOWLOG), the longest other command and how often Redis lost its core meanwhile (a long command
 * while the machine's other processes had the core is the machine's time, not the command's); and the
 * single-user reads (req/s, p99, max, non-2xx; run in a worker thread, so that the lists' bytes taken in on
 * the main thread do not add to their latency), the server's own event loop delay over the phase (its
 * /metrics), and as the control for any long command the other commands (single-key reads) and how many
 * of them took ≥ 2 ms. Then, per build and at the sizes of
 * BENCH_SCALE_OLD_DATA_SIZES, data from before the id index (the hash alone): the build starts on it, builds
 * the index in steps while 8 connections read single users, and one list waits for the index: the steps
 * (how many, the longest, how many ≥ 2 ms) and the reads beside. It asserts nothing; figures go to
 * reports/bench/scale.{json,md}.
 *
 * Env: BENCH_SCALE_SIZES (100000,1000000,5000000), BENCH_SCALE_OLD (commit of the older build, 719bca4 =
 * before issue 24; `none` to skip it), BENCH_SCALE_OLD_MAX (largest size the older build is run on,
 * 1000000: past that it needs gigabytes or cannot build its string at all), BENCH_SCALE_LISTS (3),
 * BENCH_SCALE_PARALLEL (10), BENCH_SCALE_PARALLEL_SIZES (1000000: the sizes listed that many at once),
 * BENCH_SCALE_OLD_DATA_SIZES (1000000: the sizes run from data without the index), BENCH_SCALE_OLD_PARALLEL=1 (the older
 * build runs the lists at once too), BENCH_LOG_LEVEL (the servers' LOG_LEVEL, info), BENCH_SCALE_NODE_FLAGS
 * (node options for the servers, e.g. `--max-semi-space-size=16`; none by default), BENCH_SCALE_REDIS_NICE
 * (a nice value for the redis-server, e.g. -10: first in line for a core, as on a host of its own),
 * BENCH_SCALE_READS_THREAD=main (the reads beside on the main thread, with the lists' consumers, as before).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Redis } from 'ioredis';
import { USER_KEYS } from '../server/src/users/keys.ts';
import { freePort } from '../testing/free-port.ts';
import { range, storeUsers } from '../testing/seed-users.ts';
import { fmtUpTo } from './format.ts';
import { BUILT_SERVER_SCRIPT, LOG_LEVEL, OUT_DIR, ROOT } from './options.ts';
import { type NodeServer, preemptions, rssMiB, runBenchMain, startNode, startRedis } from './procs.ts';
import { type ReadsBeside, type ReadsBesideOptions, readsBeside } from './reads-beside.ts';

const SIZES = (process.env.BENCH_SCALE_SIZES || '100000,1000000,5000000').split(',').map(Number);
const OLD_COMMIT = process.env.BENCH_SCALE_OLD || '719bca4';
const OLD_MAX = Number(process.env.BENCH_SCALE_OLD_MAX || 1_000_000);
const LISTS = Number(process.env.BENCH_SCALE_LISTS || 3);
const PARALLEL = Number(process.env.BENCH_SCALE_PARALLEL || 10);
const PARALLEL_SIZES = (process.env.BENCH_SCALE_PARALLEL_SIZES || '1000000').split(',').map(Number);
const OLD_PARALLEL = process.env.BENCH_SCALE_OLD_PARALLEL === '1';
const OLD_DATA_SIZES = (process.env.BENCH_SCALE_OLD_DATA_SIZES || '1000000').split(',').map(Number);
const NODE_FLAGS = (process.env.BENCH_SCALE_NODE_FLAGS || '').split(' ').filter(Boolean);
const REDIS_NICE = process.env.BENCH_SCALE_REDIS_NICE;
/** `main`: the reads beside run on the main thread, with the lists' consumers (as before 2026-11-29), to measure what that adds. */
const READS_THREAD = process.env.BENCH_SCALE_READS_THREAD === 'main' ? 'main' : 'worker';
const READ_CONNECTIONS = 8;
/** The reference phase: single-user reads alone, no list (the RSS the read load itself costs). */
const READS_ONLY_MS = 4000;
/** Redis commands at least this long are recorded (µs). */
const SLOWLOG_FROM_US = 1000;

interface ListFigures {
  firstByteMs: number;
  lastByteMs: number;
  bytes: number;
  complete: boolean;
  sha256: string;
}

interface PhaseFigures {
  lists: ListFigures[];
  mbPerSec: number;
  rssIdle: number;
  rssPeak: number;
  rssAfter: number;
  longestRedisMs: number;
  longestRedisCommand: string;
  /** The longest command that is not the list's (for the noise of the machine). */
  longestOtherMs: number;
  /** The list's commands of 10 ms or more. */
  over10ms: number;
  /** The list's commands in Redis (INFO commandstats): how many, and their mean time (µs). */
  listCalls: number;
  listMeanUs: number;
  /** Times the kernel took Redis's core from it while it had work (its involuntary context switches). */
  redisPreempted: number;
  /** The id index build's steps in the phase (data from before the index): how many, the longest, how many ≥ 2 ms. */
  indexSteps?: { calls: number; longestMs: number; over2ms: number };
  reads: ReadsBeside;
  /** How late the server's event loop ran over the phase (prom-client's histogram, from /metrics), ms. */
  serverDelay: { p99: number; max: number } | undefined;
  /** The commands that are neither the list's nor index steps (single-user reads): how many, how many took ≥ 2 ms. */
  others: { calls: number; over2ms: number };
}

/** A SLOWLOG entry: id, time, duration (µs), arguments. */
type SlowEntry = [number, number, number, string[]];
/**
 * The commands a list runs: this build's ZRANGEBYSCORE and HMGET, the older one's HGETALL. Not EVAL: the
 * worker-removal runner calls a script about once a second, lists or not.
 */
const LIST_COMMANDS = new Set(['zrangebyscore', 'hmget', 'hgetall']);
const longestOf = (entries: SlowEntry[]) =>
  entries.reduce<SlowEntry | undefined>(
    (max, entry) => (max === undefined || entry[2] > max[2] ? entry : max),
    undefined,
  );

/** One list over a plain socket: times, size and a digest of the bytes (nothing is kept). */
function timeList(url: string): Promise<ListFigures> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstByteMs = Number.NaN;
    let bytes = 0;
    let tail = '';
    const digest = createHash('sha256');
    const req = http.get(`${url}/UserService/users`, (res) => {
      res.on('data', (piece: Buffer) => {
        if (bytes === 0) firstByteMs = performance.now() - started;
        bytes += piece.length;
        digest.update(piece);
        tail = (tail + piece.toString('latin1', Math.max(0, piece.length - 16))).slice(-16);
      });
      const done = () =>
        resolve({
          firstByteMs,
          lastByteMs: performance.now() - started,
          bytes,
          complete: res.complete && res.statusCode === 200 && tail.endsWith('</users>'),
          sha256: digest.digest('hex').slice(0, 16),
        });
      res.on('end', done);
      res.on('error', done);
    });
    req.on('error', reject);
  });
}

/** The reads beside a phase: in a worker thread (default) or on this thread; `stop()`, then `figures`. */
function startReads(options: ReadsBesideOptions): { stop: () => void; figures: Promise<ReadsBeside> } {
  if (READS_THREAD === 'main') {
    let stop: () => void = () => {};
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    return { stop, figures: readsBeside(options, stopped) };
  }
  const worker = new Worker(new URL('./reads-beside.ts', import.meta.url), { workerData: options });
  const figures = new Promise<ReadsBeside>((resolve, reject) => {
    worker.once('message', (f: ReadsBeside) => {
      resolve(f);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
  return { stop: () => worker.postMessage('stop'), figures };
}

/** prom-client's sampling interval of the event loop delay (its default): every sample is at least this long. */
const DELAY_SAMPLING_MS = 10;

/**
 * How late the server's event loop was since the last scrape (p99, max in ms): prom-client's delay
 * histogram less its sampling interval, or undefined without /metrics.
 */
async function eventLoopDelay(url: string): Promise<{ p99: number; max: number } | undefined> {
  const res = await fetch(`${url}/metrics`).catch(() => undefined);
  if (!res?.ok) return undefined;
  const text = await res.text();
  const late = (name: string) =>
    Math.max(
      0,
      Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1]) * 1000 - DELAY_SAMPLING_MS,
    );
  return { p99: late('nodejs_eventloop_lag_p99_seconds'), max: late('nodejs_eventloop_lag_max_seconds') };
}

/**
 * The control for a long command: the other commands of the phase (single-key reads, microseconds of
 * work each), how many ran and how many of them took ≥ 2 ms in Redis anyway. Those are the machine's
 * (Redis waiting for a core), and the same share among the list's or the index's commands is too.
 */
async function otherCommands(
  redis: Redis,
  slowOthers: SlowEntry[],
): Promise<{ calls: number; over2ms: number }> {
  const info = await redis.info('commandstats');
  let calls = 0;
  for (const match of info.matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)) {
    const command = match[1] as string;
    if (!LIST_COMMANDS.has(command) && !/^(eval|evalsha|slowlog|config|info)$/.test(command))
      calls += Number(match[2]);
  }
  return { calls, over2ms: slowOthers.filter((entry) => entry[2] >= 2000).length };
}

/** Calls and total time (µs) of the list's commands since the last CONFIG RESETSTAT. */
async function listCommandStats(redis: Redis): Promise<{ calls: number; usec: number }> {
  const info = await redis.info('commandstats');
  let calls = 0;
  let usec = 0;
  for (const match of info.matchAll(/^cmdstat_(\w+):calls=(\d+),usec=(\d+)/gm)) {
    if (!LIST_COMMANDS.has(match[1] as string)) continue;
    calls += Number(match[2]);
    usec += Number(match[3]);
  }
  return { calls, usec };
}

/**
 * Runs `lists` (concurrently) while 8 connections read single users; samples RSS, SLOWLOG, the list's
 * command statistics and how often Redis lost its core.
 */
async function phase(
  node: NodeServer,
  redis: Redis,
  redisPid: number,
  users: number,
  concurrent: number,
  sequential: number,
  rssIdle: number,
  preemptedBefore = preemptions(redisPid),
  /** The slow log and command statistics were reset before the server started (watchRedis): not again. */
  watched = false,
): Promise<PhaseFigures> {
  let rssPeak = rssMiB(node.pid);
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, rssMiB(node.pid));
  }, 20);
  if (!watched) await watchRedis(redis);
  const reads = startReads({ url: node.url, users, connections: READ_CONNECTIONS });
  await eventLoopDelay(node.url); // from here on (prom-client resets its histogram at each scrape)
  const lists: ListFigures[] = [];
  const started = performance.now();
  try {
    if (sequential === 0) await new Promise((resolve) => setTimeout(resolve, READS_ONLY_MS));
    for (let round = 0; round < sequential; round++) {
      lists.push(...(await Promise.all(Array.from({ length: concurrent }, () => timeList(node.url)))));
    }
  } finally {
    reads.stop();
  }
  const elapsedS = (performance.now() - started) / 1000;
  const serverDelay = await eventLoopDelay(node.url);
  const readResult = await reads.figures;
  clearInterval(sampler);
  const slow = (await redis.slowlog('GET', 10000)) as SlowEntry[];
  // The list's own commands, and the others (single-user HGETs: a long one there means Redis itself was
  // not running, e.g. the machine's other processes had its core).
  const isList = (entry: SlowEntry) => LIST_COMMANDS.has(String(entry[3][0]).toLowerCase());
  const listCommands = slow.filter(isList);
  const indexSteps = slow.filter(isIndexStep);
  const longestIndexStep = longestOf(indexSteps);
  const longestOther = longestOf(slow.filter((entry) => !isList(entry) && !isIndexStep(entry)));
  const longest = longestOf(listCommands);
  const stats = await listCommandStats(redis);
  const redisPreempted = preemptions(redisPid) - preemptedBefore;
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const bytes = lists.reduce((sum, l) => sum + l.bytes, 0);
  return {
    lists,
    mbPerSec: lists.length ? bytes / 1e6 / elapsedS : Number.NaN,
    rssIdle,
    rssPeak,
    rssAfter: rssMiB(node.pid),
    longestRedisMs: longest ? longest[2] / 1000 : 0,
    longestRedisCommand: longest ? commandName(longest[3]) : `none ≥ ${SLOWLOG_FROM_US / 1000} ms`,
    longestOtherMs: longestOther ? longestOther[2] / 1000 : 0,
    over10ms: listCommands.filter((entry) => entry[2] >= 10_000).length,
    listCalls: stats.calls,
    listMeanUs: stats.calls ? stats.usec / stats.calls : 0,
    redisPreempted,
    ...(watched
      ? {
          indexSteps: {
            calls: await scriptCalls(redis),
            longestMs: longestIndexStep ? longestIndexStep[2] / 1000 : 0,
            over2ms: indexSteps.filter((entry) => entry[2] >= 2000).length,
          },
        }
      : {}),
    reads: readResult,
    serverDelay,
    others: await otherCommands(
      redis,
      slow.filter((entry) => !isList(entry) && !isIndexStep(entry)),
    ),
  };
}

/** A SLOWLOG entry's command: a script by the first command it calls. */
function commandName(args: string[]): string {
  const [command = '', first = ''] = args;
  if (!/^eval/i.test(command)) return command.toUpperCase();
  return `EVAL (${/redis\.call\('(\w+)'/.exec(first)?.[1] ?? 'script'} …)`;
}

/** Slow log from SLOWLOG_FROM_US and command statistics from zero, for the phase that follows. */
async function watchRedis(redis: Redis): Promise<void> {
  await redis.config('SET', 'slowlog-log-slower-than', String(SLOWLOG_FROM_US));
  await redis.config('SET', 'slowlog-max-len', '10000');
  await redis.slowlog('RESET');
  await redis.config('RESETSTAT');
}

/** A step of the id index build: the script that names the index's marker key. */
const isIndexStep = (entry: SlowEntry) =>
  /^eval/i.test(String(entry[3][0])) && entry[3].includes(USER_KEYS.idsComplete);

/** Script calls since the last RESETSTAT (the index build's steps, and the removal runner's few). */
async function scriptCalls(redis: Redis): Promise<number> {
  const info = await redis.info('commandstats');
  let calls = 0;
  for (const match of info.matchAll(/^cmdstat_(eval|evalsha):calls=(\d+)/gm)) calls += Number(match[2]);
  return calls;
}

interface Row {
  size: number;
  build: string;
  mode: string;
  figures: PhaseFigures;
}

function oldBuildScript(): string | undefined {
  if (OLD_COMMIT === 'none') return undefined;
  const out = execFileSync(path.join(ROOT, 'bench', 'build-at.sh'), [OLD_COMMIT], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return path.resolve(ROOT, out.trim().split('\n').at(-1) as string);
}

const fmt = fmtUpTo;
const range2 = (values: number[], digits = 2) => {
  if (values.length === 0) return '–';
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return lo === hi ? fmt(lo, digits) : `${fmt(lo, digits)}-${fmt(hi, digits)}`;
};

function table(rows: Row[]): string {
  const lines = [
    "| users | build | lists | first byte (s) | last byte (s) | MB/s | complete | RSS idle → peak → after (MiB) | peak − idle | list's share (peak − reads-only peak) | list commands in Redis: calls, mean µs, longest (how many ≥ 10 ms) | longest other command | other commands: calls, ≥ 2 ms | Redis lost its core (times) | reads beside: req/s, p99, max (ms), non-2xx | server event loop late: p99, max (ms) | index build steps: calls, longest, how many ≥ 2 ms |",
    '|---:|---|---|---:|---:|---:|---|---|---:|---:|---|---:|---|---:|---|---|---|',
  ];
  for (const { size, build, mode, figures: f } of rows) {
    const complete = f.lists.filter((l) => l.complete).length;
    // The reads alone grow the heap too (V8's young generation under load): the list's own share is
    // what its phase peaks above the reads-only phase of the same server.
    const readsOnly = rows.find((r) => r.size === size && r.build === build && r.figures.lists.length === 0);
    const share = f.lists.length && readsOnly ? fmt(f.rssPeak - readsOnly.figures.rssPeak) : '–';
    const commands = f.listCalls
      ? `${fmt(f.listCalls)}, ${fmt(f.listMeanUs)}, ${fmt(f.longestRedisMs, 1)} ms ${f.longestRedisCommand} (${f.over10ms})`
      : '–';
    lines.push(
      `| ${fmt(size)} | ${build} | ${mode} | ${range2(f.lists.map((l) => l.firstByteMs / 1000))} | ${range2(
        f.lists.map((l) => l.lastByteMs / 1000),
      )} | ${fmt(f.mbPerSec, 1)} | ${complete}/${f.lists.length} | ${fmt(f.rssIdle)} → ${fmt(f.rssPeak)} → ${fmt(
        f.rssAfter,
      )} | ${fmt(f.rssPeak - f.rssIdle)} | ${share} | ${commands} | ${fmt(f.longestOtherMs, 1)} ms | ${fmt(f.others.calls)}, ${fmt(f.others.over2ms)} | ${fmt(
        f.redisPreempted,
      )} | ${fmt(f.reads.reqPerSec)}, ${fmt(f.reads.p99)}, ${fmt(f.reads.max)}, ${f.reads.non2xx + f.reads.errors} | ${
        f.serverDelay ? `${fmt(f.serverDelay.p99, 1)}, ${fmt(f.serverDelay.max, 1)}` : '–'
      } | ${
        f.indexSteps
          ? `${fmt(f.indexSteps.calls)}, ${fmt(f.indexSteps.longestMs, 1)} ms, ${fmt(f.indexSteps.over2ms)}`
          : '–'
      } |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const builds: Array<{ name: string; script: string; maxSize: number; parallel: boolean }> = [
    {
      name: 'this build',
      script: BUILT_SERVER_SCRIPT,
      maxSize: Infinity,
      parallel: true,
    },
  ];
  const old = oldBuildScript();
  if (old)
    builds.push({ name: `old (${OLD_COMMIT})`, script: old, maxSize: OLD_MAX, parallel: OLD_PARALLEL });
  const rows: Row[] = [];
  const write = () => {
    fs.writeFileSync(path.join(OUT_DIR, 'scale.json'), JSON.stringify(rows, null, 2));
    fs.writeFileSync(path.join(OUT_DIR, 'scale.md'), `${table(rows)}\n`);
  };
  for (const size of SIZES) {
    const redisProc = await startRedis({ fsync: 'off' });
    // Redis first in line for a core, as on a host of its own (a negative value needs root).
    if (REDIS_NICE)
      execFileSync('renice', ['-n', REDIS_NICE, '-p', String(redisProc.pid)], { stdio: 'ignore' });
    const redis = new Redis(redisProc.url);
    try {
      const seedStarted = performance.now();
      await storeUsers(redis, range(1, size));
      console.log(`seeded ${fmt(size)} users in ${fmt((performance.now() - seedStarted) / 1000, 1)} s`);
      for (const build of builds) {
        if (size > build.maxSize) continue;
        const node = await startNode(
          build.name,
          build.script,
          await freePort(),
          {
            REDIS_URL: redisProc.url,
            LOG_LEVEL,
          },
          NODE_FLAGS,
        );
        try {
          // Idle: started, one request answered, a second to settle.
          await fetch(`${node.url}/UserService/users/1`);
          await new Promise((resolve) => setTimeout(resolve, 1000));
          const rssIdle = rssMiB(node.pid);
          const modes: Array<[string, number, number]> = [
            ['reads only, no list', 0, 0],
            [`${LISTS} in a row`, 1, LISTS],
          ];
          if (build.parallel && PARALLEL_SIZES.includes(size))
            modes.push([`${PARALLEL} at once`, PARALLEL, 1]);
          for (const [mode, concurrent, sequential] of modes) {
            const figures = await phase(node, redis, redisProc.pid, size, concurrent, sequential, rssIdle);
            rows.push({ size, build: build.name, mode, figures });
            console.log(table(rows.slice(-1)).split('\n').at(-1));
            write();
          }
        } finally {
          await node.stop();
        }
      }
      // Data from before the index: the hash alone; each build starts on it and builds the index in steps.
      for (const build of builds) {
        if (size > build.maxSize || !OLD_DATA_SIZES.includes(size)) continue;
        await redis.del(USER_KEYS.ids, USER_KEYS.idsComplete);
        await watchRedis(redis);
        const preemptedBefore = preemptions(redisProc.pid);
        const node = await startNode(
          build.name,
          build.script,
          await freePort(),
          { REDIS_URL: redisProc.url, LOG_LEVEL },
          NODE_FLAGS,
        );
        try {
          const figures = await phase(
            node,
            redis,
            redisProc.pid,
            size,
            1,
            1,
            rssMiB(node.pid),
            preemptedBefore,
            true,
          );
          rows.push({ size, build: build.name, mode: 'data without the index: 1 list', figures });
          console.log(table(rows.slice(-1)).split('\n').at(-1));
          write();
        } finally {
          await node.stop();
        }
      }
      const digests = new Set(
        rows
          .filter((r) => r.size === size)
          .flatMap((r) => r.figures.lists.filter((l) => l.complete).map((l) => l.sha256)),
      );
      console.log(
        `${fmt(size)} users: ${digests.size === 1 ? 'every complete list had the same bytes' : `DIFFERENT bytes: ${[...digests].join(', ')}`}`,
      );
    } finally {
      redis.disconnect();
      await redisProc.stop();
    }
  }
  write();
  console.log(`\n${table(rows)}\n\nwritten to reports/bench/scale.{json,md}`);
}

runBenchMain('bench-scale', main, 3 * 60 * 60_000);
