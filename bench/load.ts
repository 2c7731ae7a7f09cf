/** One measured run of a scenario against one target (autocannon), and the summary of a target's rounds. */
import { createRequire } from 'node:module';
import autocannon from 'autocannon';
import type { Redis } from 'ioredis';
import { CONNECTIONS } from './options.ts';
import { type BenchRedis, type NodeServer, rssMiB, withCpuPerRequest } from './procs.ts';
import type { Scenario } from './scenarios.ts';
import { seedUsers } from './seed.ts';
import { median, type RoundsSummary, summariseRounds } from './stats.ts';

/**
 * autocannon's HTTP parser (http-parser-js) cannot know that a HEAD answer has no body: it waits for
 * Content-Length bytes that never come. While `skipBodies` is set (a `headOnly` scenario), the
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

/** One side of the A/B: a server process on its own Redis, and a client to seed that Redis. */
export interface Target {
  key: 'server' | 'baseline';
  node: NodeServer;
  redis: BenchRedis;
  client: Redis;
}

export interface RunFigures {
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

export function cannon(
  url: string,
  requests: autocannon.Request[],
  seconds: number,
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections: CONNECTIONS, duration: seconds, requests, timeout: 10 },
      (err: Error | null, result: autocannon.Result) => (err ? reject(err) : resolve(result)),
    );
  });
}

/** The figures of one autocannon run against the process `pid`. */
export function figuresOf(result: autocannon.Result, pid: number, cpuUsPerReq: number): RunFigures {
  return {
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors + result.timeouts + result.non2xx,
    requests: result.requests.total,
    rssMiB: rssMiB(pid),
    cpuUsPerReq,
  };
}

async function seed(target: Target, scenario: Scenario): Promise<void> {
  await seedUsers(target.client, scenario.seed);
  await scenario.seedMore?.(target.client);
}

export async function runOnce(target: Target, scenario: Scenario, seconds: number): Promise<RunFigures> {
  await seed(target, scenario);
  skipBodies = scenario.headOnly === true;
  const { result, cpuUsPerReq } = await withCpuPerRequest(target.node.pid, () =>
    cannon(target.node.url, scenario.requests(), seconds).finally(() => {
      skipBodies = false;
    }),
  );
  return figuresOf(result, target.node.pid, cpuUsPerReq);
}

export interface Summary extends RoundsSummary {
  errors: number;
  requests: number;
  rssMiB: number;
  rssByRound: number[];
  cpuUsPerReq: number;
  runs: RunFigures[];
}

export function summarise(runs: RunFigures[], others: RunFigures[] = []): Summary {
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
