/**
 * The single-user reads that `make bench-scale` runs beside each phase, in a worker thread of their own:
 * the lists' bytes are taken in (and hashed) on the main thread, and a read's latency must not include
 * the time that thread was busy with them. Reads until told `stop`, then posts the figures.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';

/** autocannon's own aggregation (exported, not in its type declarations). */
const aggregateResult = (
  autocannon as unknown as {
    aggregateResult(results: unknown[], opts: autocannon.Options): autocannon.Result;
  }
).aggregateResult;

export interface ReadsBesideOptions {
  url: string;
  users: number;
  connections: number;
}

export interface ReadsBeside {
  reqPerSec: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
}

/** Runs the reads until `stop` resolves. Ids spread over the whole collection (a stride prime to any size). */
export function readsBeside(
  { url, users, connections }: ReadsBesideOptions,
  stop: Promise<void>,
): Promise<ReadsBeside> {
  let n = 0;
  const options: autocannon.Options = {
    url,
    connections,
    duration: 3600,
    timeout: 10,
    requests: [
      {
        method: 'GET',
        setupRequest: (req) => ({ ...req, path: `/UserService/users/${1 + ((n++ * 7919) % users)}` }),
      },
    ],
  };
  return new Promise((resolve) => {
    const reads = autocannon(options, (_err, raw) => {
      // In a worker thread autocannon leaves its result unaggregated (it expects a manager of its own workers).
      const result = isMainThread ? raw : aggregateResult([raw], options);
      resolve({
        // Completed requests over the time they ran (the per-second histogram is empty in a worker thread).
        reqPerSec: result.requests.total / result.duration,
        p99: result.latency.p99,
        max: result.latency.max,
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts,
      });
    });
    stop.then(() => reads.stop());
  });
}

if (parentPort && workerData) {
  const port = parentPort;
  const stop = new Promise<void>((resolve) => port.once('message', () => resolve()));
  readsBeside(workerData as ReadsBesideOptions, stop).then((figures) => port.postMessage(figures));
}
