/** The figures beside the A/B (`make bench` without BENCH_SKIP_EXTRAS): the cost of fsync, and Redis's own ceiling. */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { freePort } from '../testing/free-port.ts';
import { cannon, figuresOf, type RunFigures, type Summary, summarise } from './load.ts';
import { CONNECTIONS, DURATION, LOG_LEVEL, ROUNDS } from './options.ts';
import { startNode, startRedis } from './procs.ts';
import { SCENARIOS, type Scenario } from './scenarios.ts';

/**
 * PUT create on the server as it ships (embedded redis-server, appendfsync always, unix socket) against
 * the same server on a redis-server with the same settings but appendfsync everysec.
 */
export async function fsyncFigure(serverScript: string): Promise<Record<string, Summary>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'usersvc-bench-data-'));
  const everysecRedis = await startRedis({ fsync: 'everysec', unixSocket: true });
  const always = await startNode('server (embedded, always)', serverScript, await freePort(), {
    DATA_DIR: dataDir,
    LOG_LEVEL,
  });
  const everysec = await startNode('server (everysec)', serverScript, await freePort(), {
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
        results[key]?.push(figuresOf(result, node.pid, Number.NaN));
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

export interface RedisBenchmarkLine {
  test: string;
  rps: number;
  p50Ms: number;
  p99Ms: number;
}

/** The ceiling: redis-benchmark's HSET and HGET on a redis-server of its own, plain and pipelined. */
export async function redisBenchmark(): Promise<RedisBenchmarkLine[]> {
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
