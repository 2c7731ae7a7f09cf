import cluster from 'node:cluster';
import path from 'node:path';
import type { Logger } from 'pino';
import { createApp } from './app.ts';
import { domainRoutes } from './apps/domains/routes.ts';
import { DomainStore } from './apps/domains/store.ts';
import { RemovalRunner } from './apps/workers/removal.ts';
import { workerRoutes } from './apps/workers/routes.ts';
import { WorkerStore } from './apps/workers/store.ts';
import type { Config } from './config.ts';
import { Readiness } from './health/readiness.ts';
import { healthRoutes } from './health/routes.ts';
import { trackConnections } from './http/connections.ts';
import type { AccessLog } from './logging.ts';
import { clusterScrape } from './metrics/cluster.ts';
import { metricsRoutes } from './metrics/routes.ts';
import { ServiceMetrics } from './metrics/service-metrics.ts';
import { openApiRoutes } from './openapi/routes.ts';
import {
  createRedisClient,
  createTransactionClient,
  type RedisTarget,
  targetFromConfig,
  waitUntilReady,
} from './redis/connect.ts';
import { type EmbeddedRedis, startEmbeddedRedis } from './redis/embedded.ts';
import { ConnectionPool } from './redis/pool.ts';
import { Replication } from './redis/replication.ts';
import { UserList } from './users/list.ts';
import { userRoutes } from './users/routes.ts';
import { UserStore } from './users/store.ts';

export interface RunningService {
  /** Base URL, e.g. http://127.0.0.1:8080 */
  url: string;
  port: number;
  embeddedRedis: EmbeddedRedis | undefined;
  /** The worker removal job runner of this instance (its consumer name and removal count). */
  workerRemovals: RemovalRunner;
  /** Every route the server registered, as method and restify path (the OpenAPI tests compare them). */
  routes: Array<{ method: string; path: string }>;
  /** Stops accepting, lets in-flight requests finish, closes Redis, stops the embedded Redis. */
  close(): Promise<void>;
}

/** How long SIGTERM lets in-flight requests finish before every connection is cut (docs/security.md). */
const DRAIN_TIMEOUT_MS = 8_000;

/**
 * The composition root: builds Redis, stores and the app from the config, and starts listening.
 * `accessLog` writes the line per request (default: `logger.info`; main.ts passes the faster one).
 * `runningRedis`: a Redis someone else owns (the cluster primary's embedded one), used instead of the config's.
 */
export async function startService(
  config: Config,
  logger: Logger,
  accessLog?: AccessLog,
  runningRedis?: RedisTarget,
): Promise<RunningService> {
  let embeddedRedis: EmbeddedRedis | undefined;
  let target: RedisTarget | undefined = runningRedis ?? targetFromConfig(config);
  if (!target) {
    const dir = path.join(config.dataDir, 'redis');
    embeddedRedis = await startEmbeddedRedis({ bin: config.redisServerBin, dir, logger });
    target = { path: embeddedRedis.socketPath };
  }

  const redis = createRedisClient(target, { enableAutoPipelining: true, lazyConnect: false });
  redis.on('error', (err) => logger.warn({ err: err.message }, 'redis connection error'));
  // A WAIT may hold its connection for REDIS_WAIT_TIMEOUT_MS: commands on such a connection get that much longer.
  const waiting = { commandTimeout: 2000 + config.redisWaitTimeoutMs };
  // Changes always have a connection of their own: a change Redis holds (CLIENT PAUSE WRITE, a WAIT)
  // must not hold up the reads queued behind it on the shared connection.
  const writer = createRedisClient(target, {
    ...(config.redisWaitReplicas > 0 ? waiting : {}),
    enableAutoPipelining: true,
    lazyConnect: false,
  });
  writer.on('error', () => {}); // the shared connection reports the same outage
  try {
    await Promise.all([waitUntilReady(redis, 5_000), waitUntilReady(writer, 5_000)]);
  } catch {
    logger.warn('Redis is not reachable yet; answering 503 until it is');
  }
  const metrics = config.metrics ? new ServiceMetrics() : undefined;
  metrics?.watchRedis('shared', redis);
  if (writer !== redis) metrics?.watchRedis('writer', writer);
  const replication = new Replication(writer, config.redisWaitReplicas, config.redisWaitTimeoutMs, () =>
    metrics?.waitTimedOut(),
  );
  const redisTarget = target;
  const transactions = new ConnectionPool(
    () => {
      const conn = createTransactionClient(redisTarget, writer, waiting);
      conn.on('error', () => {}); // reported through the request that used it
      return conn;
    },
    { logger },
  );

  const contention = metrics?.contention;
  const users = new UserStore(redis, transactions, replication, contention);
  const userList = new UserList(users);
  // Data stored before the list's id index existed is indexed now, in small steps (lists wait for it).
  users
    .ensureIndex()
    .catch((err: unknown) =>
      logger.warn(
        { err: (err as Error).message },
        'the user id index could not be built yet; the next list tries again',
      ),
    );
  const domains = new DomainStore(redis, replication, contention);
  const workers = new WorkerStore(redis, replication, config.workerStopGraceMs, contention);
  const workerRemovals = new RemovalRunner({
    // Its commands change the removal stream: on the changes' connection, not ahead of reads.
    redis: writer,
    target,
    store: workers,
    logger,
    stopGraceMs: config.workerStopGraceMs,
  });
  metrics?.watchPool(() => transactions.stats());
  metrics?.watchRemovals(() => workerRemovals.backlog());
  const readiness = new Readiness(redis, writer, transactions);
  // A cluster worker answers /metrics for every worker (the primary sums them); a single process for itself.
  const scrape =
    metrics && (cluster.isWorker ? clusterScrape(metrics.registry) : () => metrics.registry.metrics());
  const app = createApp({
    logger,
    accessLog,
    groups: [
      healthRoutes(readiness),
      openApiRoutes(),
      ...(scrape ? [metricsRoutes(scrape)] : []),
      userRoutes(users, userList),
      domainRoutes(domains),
      workerRoutes(workers),
    ],
    apiToken: config.apiToken,
    allowedHosts: config.allowedHosts,
    metrics: metrics && { requests: metrics.requests, public: config.metricsPublic },
  });

  const connections = trackConnections(app.server);
  await new Promise<void>((resolve, reject) => {
    app.server.once('error', reject);
    app.listen(config.port, config.host, () => resolve());
  });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  const topology =
    'sentinels' in target
      ? 'sentinel'
      : 'cluster' in target
        ? 'cluster'
        : embeddedRedis
          ? 'embedded'
          : 'external';
  logger.info({ url, redis: topology, waitReplicas: config.redisWaitReplicas }, 'user service listening');
  workerRemovals.start();

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      const drained = new Promise<void>((resolve) => app.server.close(() => resolve()));
      app.server.closeIdleConnections();
      const timer = setTimeout(() => {
        app.server.closeAllConnections();
        connections.destroyAll();
      }, DRAIN_TIMEOUT_MS);
      await drained;
      clearTimeout(timer);
      await workerRemovals.stop();
      await transactions.close();
      await writer.quit().catch(() => writer.disconnect());
      await redis.quit().catch(() => redis.disconnect());
      await embeddedRedis?.stop();
      logger.info('user service stopped');
    })();
    return closing;
  };

  const routes = Object.values(
    (app.router as unknown as { getRoutes(): Record<string, { method: string; path: string }> }).getRoutes(),
  ).map(({ method, path }) => ({ method, path }));
  return { url, port, embeddedRedis, workerRemovals, routes, close };
}
