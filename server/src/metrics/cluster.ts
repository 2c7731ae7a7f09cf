import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry, type RegistryContentType } from 'prom-client';
import { DEFAULTS } from '../defaults.ts';

/**
 * With PROCESSES=N, a scrape reaches one worker (the primary serves no request). That worker asks the
 * primary, which asks every worker for its registry (prom-client's AggregatorRegistry, over the
 * cluster IPC channel) and answers with their sum; so one scrape covers every process.
 */
const ASK = 'usersvc:metrics-ask';
const ANSWER = 'usersvc:metrics-answer';
/** prom-client gives up on a silent worker after 5 s; a little more, so its error is the one seen. */
const WORKER_WAIT_MS = DEFAULTS.metricsWorkerWaitMs;

interface Ask {
  type: typeof ASK;
  id: number;
}
interface Answer {
  type: typeof ANSWER;
  id: number;
  text?: string;
  error?: string;
}

/**
 * In a worker, first thing: answers the primary's requests for its metrics from the start (with none
 * until its registry is set, see clusterScrape). prom-client's primary asks every connected worker and
 * waits for all: a worker still starting (connecting to Redis) would otherwise hold every scrape up
 * for 5 s and fail it.
 */
export function joinClusterScrapes(): void {
  AggregatorRegistry.setRegistries([]);
  new AggregatorRegistry(); // its constructor adds the worker's listener (once per process)
}

/** In the primary: answers the workers' requests for the metrics of all of them. */
export function answerClusterScrapes(aggregator: AggregatorRegistry<RegistryContentType>): void {
  cluster.on('message', (worker, message: Ask) => {
    if (message?.type !== ASK) return;
    aggregator.clusterMetrics().then(
      (text: string) => worker.send({ type: ANSWER, id: message.id, text } satisfies Answer),
      (err: Error) => worker.send({ type: ANSWER, id: message.id, error: err.message } satisfies Answer),
    );
  });
}

/**
 * In a worker: makes `registry` the one this process reports to the primary, and returns the scrape
 * that asks the primary for the sum over every worker.
 */
export function clusterScrape(registry: Registry<RegistryContentType>): () => Promise<string> {
  AggregatorRegistry.setRegistries([registry]);
  let nextId = 0;
  const waiting = new Map<number, { resolve: (text: string) => void; reject: (err: Error) => void }>();
  process.on('message', (message: Answer) => {
    if (message?.type !== ANSWER) return;
    const pending = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error !== undefined) pending?.reject(new Error(message.error));
    else pending?.resolve(message.text ?? '');
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error('the cluster primary did not answer the metrics request'));
      }, WORKER_WAIT_MS);
      waiting.set(id, {
        resolve: (text) => {
          clearTimeout(timer);
          resolve(text);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      });
      process.send?.({ type: ASK, id } satisfies Ask);
    });
}
