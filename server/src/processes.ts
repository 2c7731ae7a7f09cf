import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';
import type { Logger } from 'pino';
import { AggregatorRegistry } from 'prom-client';
import type { Config } from './config.ts';
import { DEFAULTS } from './defaults.ts';
import type { AccessLog } from './logging.ts';
import { answerClusterScrapes, joinClusterScrapes } from './metrics/cluster.ts';
import type { RedisTarget } from './redis/connect.ts';
import { provideRedis } from './redis/connections.ts';
import { startService } from './service.ts';

/** How the primary hands the Redis it owns to the workers it forks: a RedisTarget as JSON. */
const PRIMARY_REDIS_ENV = 'USERSVC_PRIMARY_REDIS';

/**
 * One server process: the whole service (PROCESSES=1), or a cluster worker using the primary's Redis.
 * Resolves once it listens; SIGTERM or SIGINT drain it and end the process.
 */
export async function runServer(config: Config, logger: Logger, accessLog: AccessLog): Promise<void> {
  const primaryRedis = process.env[PRIMARY_REDIS_ENV];
  const redis = cluster.isWorker && primaryRedis ? (JSON.parse(primaryRedis) as RedisTarget) : undefined;
  if (cluster.isWorker && config.metrics) joinClusterScrapes();
  const service = await startService({ config, logger, accessLog, redis });
  // A worker is stopped by its primary, which also forces the end (a worker exits when its primary
  // does): a Ctrl-C reaches the primary and the workers alike, so a worker may see two signals.
  onStopSignal(logger, { forceOnSecondSignal: !cluster.isWorker }, async () => {
    await service.close();
    return 0;
  });
}

/**
 * The cluster primary (PROCESSES > 1): owns the embedded Redis (when no Redis is configured), forks the
 * workers, which share its port (node:cluster hands each new connection to the next worker), and
 * replaces a worker that dies. On SIGTERM or SIGINT every worker drains and exits, then the embedded
 * Redis stops. Serves no request itself.
 */
export async function runPrimary(config: Config, logger: Logger): Promise<void> {
  // The workers open their connections to the Redis the primary provides (its embedded one, if it started one).
  const { target, embedded: embeddedRedis } = await provideRedis(config, logger);
  const env: Record<string, string> = embeddedRedis ? { [PRIMARY_REDIS_ENV]: JSON.stringify(target) } : {};

  // A scrape reaching any worker is answered with the sum over all of them (metrics/cluster.ts).
  if (config.metrics) answerClusterScrapes(new AggregatorRegistry());
  const pool = new ProcessPool(config.processes, env, logger);
  try {
    const url = await pool.start();
    logger.info({ url, processes: config.processes }, 'user service listening (cluster)');
  } catch (err) {
    await pool.stop();
    await embeddedRedis?.stop();
    throw err;
  }
  onStopSignal(logger, { forceOnSecondSignal: true }, async () => {
    const allDrained = await pool.stop();
    await embeddedRedis?.stop();
    logger.info('user service stopped (cluster)');
    return allDrained ? 0 : 1;
  });
}

/**
 * The primary's server processes (node:cluster calls them workers): started together, replaced with
 * backoff when one dies, stopped together.
 */
class ProcessPool {
  private readonly workers = new Set<Worker>();
  private readonly bornAt = new Map<Worker, number>();
  private stopping = false;
  /** Deaths in a row of workers that did not live DEFAULTS.restartStableAfterMs: the exponent of the restart delay. */
  private quickDeaths = 0;
  private readonly restartTimers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly size: number,
    private readonly env: Record<string, string>,
    private readonly logger: Logger,
  ) {}

  /**
   * Forks every worker and resolves with the URL once all of them listen. A worker that exits before
   * then fails the start (a port in use, a bad setting): the same error would only repeat.
   */
  async start(): Promise<string> {
    const listening = new Promise<string>((resolve, reject) => {
      let count = 0;
      const onListening = (_worker: Worker, address: { address: string | null; port: number }) => {
        if (++count < this.size) return;
        cleanup();
        const host = address.address ?? '127.0.0.1';
        resolve(`http://${host.includes(':') ? `[${host}]` : host}:${address.port}`);
      };
      const onExit = (worker: Worker, code: number | null, signal: string | null) => {
        cleanup();
        reject(new Error(`worker ${worker.process.pid} exited (${code ?? signal}) while starting`));
      };
      const cleanup = () => {
        cluster.off('listening', onListening);
        cluster.off('exit', onExit);
      };
      cluster.on('listening', onListening);
      cluster.on('exit', onExit);
    });
    for (let i = 0; i < this.size; i++) this.fork();
    const url = await listening;
    cluster.on('exit', (worker, code, signal) => this.onExit(worker, code, signal));
    return url;
  }

  /** Drains every worker (SIGTERM: each answers its in-flight requests); true if all exited 0. */
  async stop(): Promise<boolean> {
    this.stopping = true;
    for (const timer of this.restartTimers) clearTimeout(timer);
    const alive = [...this.workers].filter((worker) => !worker.isDead());
    const exits = alive.map(async (worker) => {
      const [code, signal] = (await once(worker, 'exit')) as [number | null, string | null];
      // Ended by the SIGTERM itself: the worker was still starting (no handler yet), nothing to drain.
      return code === 0 || signal === 'SIGTERM';
    });
    for (const worker of alive) worker.process.kill('SIGTERM');
    const force = setTimeout(() => {
      for (const worker of alive) if (!worker.isDead()) worker.process.kill('SIGKILL');
    }, DEFAULTS.processStopTimeoutMs);
    const drained = await Promise.all(exits);
    clearTimeout(force);
    return drained.every(Boolean);
  }

  private fork(): void {
    const worker = cluster.fork(this.env);
    this.workers.add(worker);
    this.bornAt.set(worker, Date.now());
    worker.once('exit', () => {
      this.workers.delete(worker);
    });
  }

  private onExit(worker: Worker, code: number | null, signal: string | null): void {
    const bornAt = this.bornAt.get(worker) ?? 0;
    this.bornAt.delete(worker);
    if (this.stopping) return;
    if (Date.now() - bornAt >= DEFAULTS.restartStableAfterMs) this.quickDeaths = 0;
    const delay = Math.min(DEFAULTS.restartFirstDelayMs * 2 ** this.quickDeaths, DEFAULTS.restartMaxDelayMs);
    this.quickDeaths++;
    this.logger.error(
      { pid: worker.process.pid, code, signal, restartInMs: delay },
      'a worker exited unexpectedly; starting another',
    );
    const timer = setTimeout(() => {
      this.restartTimers.delete(timer);
      if (!this.stopping) this.fork();
    }, delay);
    this.restartTimers.add(timer);
  }
}

/** The first SIGTERM or SIGINT runs `stop` and exits with its code; a second one may force the exit. */
function onStopSignal(
  logger: Logger,
  options: { forceOnSecondSignal: boolean },
  stop: () => Promise<number>,
): void {
  let signals = 0;
  const shutdown = (signal: string) => {
    if (++signals > 1) {
      if (options.forceOnSecondSignal) process.exit(1);
      return;
    }
    logger.info({ signal }, 'shutting down');
    stop().then(
      (code) => process.exit(code),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}
