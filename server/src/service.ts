import cluster from 'node:cluster';
import type { Logger } from 'pino';
import { createApp } from './app.ts';
import { domainRoutes } from './apps/domains/routes.ts';
import { DomainStore } from './apps/domains/store.ts';
import { RemovalRunner } from './apps/workers/removal.ts';
import { workerRoutes } from './apps/workers/routes.ts';
import { WorkerStore } from './apps/workers/store.ts';
import type { Config } from './config.ts';
import { DEFAULTS } from './defaults.ts';
import { Readiness } from './health/readiness.ts';
import { healthRoutes } from './health/routes.ts';
import { trackConnections } from './http/connections.ts';
import { describeGroups, type ResourceGroup } from './http/groups.ts';
import { registeredRoutes } from './http/restify.ts';
import type { AccessLog } from './logging.ts';
import { clusterScrape } from './metrics/cluster.ts';
import { metricsRoutes } from './metrics/routes.ts';
import { ServiceMetrics } from './metrics/service-metrics.ts';
import type { Json } from './openapi/describe.ts';
import { buildOpenApiDocument } from './openapi/document.ts';
import { openApiRoutes } from './openapi/routes.ts';
import type { RedisTarget } from './redis/connect.ts';
import { openRedisConnections } from './redis/connections.ts';
import type { EmbeddedRedis } from './redis/embedded.ts';
import { Replication } from './redis/replication.ts';
import { FAILURE_STATUSES, type FailureStatuses } from './users/failure-status.ts';
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

export interface ServiceOptions {
  config: Config;
  logger: Logger;
  /** Writes the line per request (default: `logger.info`; main.ts passes the faster one). */
  accessLog?: AccessLog;
  /** A Redis someone else owns (the cluster primary's embedded one), used instead of the config's. */
  redis?: RedisTarget;
}

/** The composition root: opens Redis, builds the stores and the app from the config, and starts listening. */
export async function startService({
  config,
  logger,
  accessLog,
  redis,
}: ServiceOptions): Promise<RunningService> {
  const connections = await openRedisConnections(config, logger, redis);
  const { target, embedded: embeddedRedis } = connections;
  const metrics = config.metrics ? new ServiceMetrics() : undefined;
  metrics?.watchRedis('shared', connections.reads);
  metrics?.watchRedis('writer', connections.changes); // the label predates the name "changes"
  const replication = new Replication(config.redisWaitReplicas, config.redisWaitTimeoutMs, () =>
    metrics?.waitTimedOut(),
  );

  const contention = metrics?.contention;
  const users = new UserStore(connections, replication, contention);
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
  const domains = new DomainStore(connections, replication, contention);
  const workers = new WorkerStore(connections, replication, config.workerStopGraceMs, contention);
  const workerRemovals = new RemovalRunner({
    changes: connections.changes,
    blocking: connections.removals,
    store: workers,
    logger,
    stopGraceMs: config.workerStopGraceMs,
  });
  metrics?.watchPool(() => connections.transactions.stats());
  metrics?.watchRemovals(() => workerRemovals.backlog());
  const readiness = new Readiness(connections);
  // A cluster worker answers /metrics for every worker (the primary sums them); a single process for itself.
  const scrape =
    metrics && (cluster.isWorker ? clusterScrape(metrics.registry) : () => metrics.registry.metrics());
  const app = createApp({
    logger,
    accessLog,
    groups: serviceGroups({
      readiness,
      scrape,
      users,
      userList,
      failureStatus: FAILURE_STATUSES[config.failureStatus],
      domains,
      workers,
    }),
    apiToken: config.apiToken,
    allowedHosts: config.allowedHosts,
    metrics: metrics && { requests: metrics.requests, public: config.metricsPublic },
  });

  const clients = trackConnections(app.server);
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
        clients.destroyAll();
      }, DEFAULTS.drainTimeoutMs);
      await drained;
      clearTimeout(timer);
      await workerRemovals.stop();
      await connections.close();
      logger.info('user service stopped');
    })();
    return closing;
  };

  const routes = registeredRoutes(app);
  return { url, port, embeddedRedis, workerRemovals, routes, close };
}

/** What the groups of the service serve from. */
interface ServiceParts {
  readiness: Readiness;
  /** Absent with METRICS=0: no /metrics. */
  scrape: (() => Promise<string>) | undefined;
  users: UserStore;
  userList: UserList;
  failureStatus: FailureStatuses;
  domains: DomainStore;
  workers: WorkerStore;
}

/** Every resource group of the service, in the order they are mounted; /openapi.json describes these same groups. */
function serviceGroups(parts: ServiceParts): ResourceGroup[] {
  const groups: ResourceGroup[] = [
    healthRoutes(parts.readiness),
    openApiRoutes(() => buildOpenApiDocument(describeGroups(groups))),
    ...(parts.scrape ? [metricsRoutes(parts.scrape)] : []),
    userRoutes(parts.users, parts.userList, parts.failureStatus),
    domainRoutes(parts.domains),
    workerRoutes(parts.workers),
  ];
  return groups;
}

/**
 * The /openapi.json of a service with every group (METRICS on), without starting one: for the tests
 * and tools that check answers against it. Describing a group runs none of its handlers, so the parts
 * they would serve from are never touched (one that is would throw).
 */
export function describeService(): Json {
  const untouched = new Proxy(
    {},
    {
      get() {
        throw new Error('describing the service used what its routes serve from');
      },
    },
  ) as never;
  const groups = serviceGroups({
    readiness: untouched,
    scrape: untouched,
    users: untouched,
    userList: untouched,
    failureStatus: FAILURE_STATUSES.http,
    domains: untouched,
    workers: untouched,
  });
  return buildOpenApiDocument(describeGroups(groups));
}
