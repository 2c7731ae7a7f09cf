import type { Cluster, Redis } from 'ioredis';
import { AggregatorRegistry, Counter, collectDefaultMetrics, Gauge } from 'prom-client';
import type { PoolStats } from '../redis/pool.ts';
import { RequestMetrics } from './requests.ts';

/** The `what` that the stores give retryOnConflict. */
const CONTENDED_RESOURCES = ['user', 'domain', 'worker'];

/** The worker-removal stream, as its consumer group sees it. */
export interface RemovalBacklog {
  /** Jobs delivered to a consumer and not yet acknowledged. */
  pending: number;
  /** Jobs in the stream not yet delivered to any consumer (null when Redis cannot say). */
  lag: number | null;
}

/** Told by retryOnConflict (concurrency/conflict-retry.ts) of each conflict, retry and give-up (a 503). */
export interface ContentionObserver {
  conflict(resource: string): void;
  retry(resource: string): void;
  gaveUp(resource: string): void;
}

/**
 * The metrics of one server process, on a registry of its own (built by startService and passed
 * down; nothing global). With PROCESSES=N the primary sums the registries of every worker at each
 * scrape (see cluster.ts); `aggregator` says how a value of several processes combines: counters and
 * the pool add up, the removal stream is one shared stream, so its gauges take the maximum.
 * Metric names and what to alert on: docs/operations.md.
 */
export class ServiceMetrics {
  /** An AggregatorRegistry is a Registry; as one, a cluster worker's registry also answers the primary. */
  readonly registry = new AggregatorRegistry();
  readonly requests = new RequestMetrics();
  private readonly conflicts: Counter<'resource'>;
  private readonly retries: Counter<'resource'>;
  private readonly contention503: Counter<'resource'>;
  private readonly waitTimeouts: Counter;
  private readonly reconnects: Counter<'connection'>;
  private readonly redisClients = new Map<string, Redis | Cluster>();
  private poolStats: (() => PoolStats) | undefined;
  private removalBacklog: (() => Promise<RemovalBacklog>) | undefined;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.registry.registerMetric(this.requests.requestsMetric as never);
    this.registry.registerMetric(this.requests.latencyMetric as never);

    this.conflicts = new Counter({
      name: 'usersvc_update_conflicts_total',
      help: 'Optimistic updates that found the record changed by another writer (nothing applied).',
      labelNames: ['resource'],
      registers,
    });
    this.retries = new Counter({
      name: 'usersvc_update_retries_total',
      help: 'Updates tried again after a conflict.',
      labelNames: ['resource'],
      registers,
    });
    this.contention503 = new Counter({
      name: 'usersvc_update_contention_503_total',
      help: 'Updates answered 503 because the record kept changing for the whole retry budget.',
      labelNames: ['resource'],
      registers,
    });
    // Every series exists from the start (at 0), so rate() and alerts see the first increase.
    for (const resource of CONTENDED_RESOURCES) {
      for (const counter of [this.conflicts, this.retries, this.contention503]) counter.inc({ resource }, 0);
    }
    this.waitTimeouts = new Counter({
      name: 'usersvc_redis_wait_timeouts_total',
      help: 'Changes whose WAIT did not confirm REDIS_WAIT_REPLICAS replicas in time (answered 504 outcome_unknown).',
      registers,
    });
    this.reconnects = new Counter({
      name: 'usersvc_redis_reconnects_total',
      help: 'Reconnection attempts of the Redis connections, by connection.',
      labelNames: ['connection'],
      registers,
    });
    const clients = this.redisClients;
    new Gauge({
      name: 'usersvc_redis_connected',
      help: 'Whether the Redis connection is ready (1) or not (0), by connection; summed over processes.',
      labelNames: ['connection'],
      registers,
      collect() {
        for (const [name, client] of clients)
          this.set({ connection: name }, client.status === 'ready' ? 1 : 0);
      },
    });
    const readPool = () => this.poolStats?.();
    const poolGauge = (field: keyof PoolStats, name: string, help: string) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const stats = readPool();
          if (stats) this.set(stats[field]);
        },
      });
    poolGauge(
      'size',
      'usersvc_redis_transaction_pool_size',
      'Open connections of the transaction pool (WATCH/MULTI/EXEC).',
    );
    poolGauge('inUse', 'usersvc_redis_transaction_pool_in_use', 'Transaction connections lent to a request.');
    poolGauge('idle', 'usersvc_redis_transaction_pool_idle', 'Transaction connections open and free.');
    poolGauge(
      'waiting',
      'usersvc_redis_transaction_pool_waiting',
      'Requests waiting for a free transaction connection.',
    );
    const poolCounter = (field: keyof PoolStats, name: string, help: string) =>
      new Counter({
        name,
        help,
        registers,
        collect() {
          const stats = readPool();
          if (!stats) return;
          this.reset();
          this.inc(stats[field]);
        },
      });
    poolCounter('opened', 'usersvc_redis_transaction_pool_opened_total', 'Transaction connections opened.');
    poolCounter(
      'discarded',
      'usersvc_redis_transaction_pool_discarded_total',
      'Transaction connections dropped after an error.',
    );
    poolCounter(
      'timedOut',
      'usersvc_redis_transaction_pool_wait_timeouts_total',
      'Requests answered 503 because no transaction connection came free in time.',
    );

    const readBacklog = () => this.removalBacklog?.();
    const backlogGauge = (field: keyof RemovalBacklog, name: string, help: string) =>
      new Gauge({
        name,
        help,
        registers,
        // One stream shared by every process: each reports the same value, so the sum would multiply it.
        aggregator: 'max',
        async collect() {
          try {
            const backlog = await readBacklog();
            const value = backlog?.[field];
            if (typeof value === 'number') this.set(value);
          } catch {
            // Redis unreachable: the gauge keeps its last value; usersvc_redis_connected says why.
          }
        },
      });
    backlogGauge(
      'pending',
      'usersvc_worker_removals_pending',
      "Worker-removal jobs delivered to a server process and not yet done (the stream consumer group's pending entries).",
    );
    backlogGauge(
      'lag',
      'usersvc_worker_removals_lag',
      "Worker-removal jobs in the stream not yet delivered to any server process (the consumer group's lag).",
    );
  }

  /** The transaction pool, read at each scrape. */
  watchPool(stats: () => PoolStats): void {
    this.poolStats = stats;
  }

  /** The removal stream's backlog, asked of Redis at each scrape. */
  watchRemovals(backlog: () => Promise<RemovalBacklog>): void {
    this.removalBacklog = backlog;
  }

  /** A Redis connection: its state at each scrape, and its reconnection attempts as they happen. */
  watchRedis(connection: string, client: Redis | Cluster): void {
    this.redisClients.set(connection, client);
    this.reconnects.inc({ connection }, 0);
    client.on('reconnecting', () => this.reconnects.inc({ connection }));
  }

  readonly contention: ContentionObserver = {
    conflict: (resource) => this.conflicts.inc({ resource }),
    retry: (resource) => this.retries.inc({ resource }),
    gaveUp: (resource) => this.contention503.inc({ resource }),
  };

  /** WAIT confirmed too few replicas, or failed: the change is answered 504. */
  waitTimedOut(): void {
    this.waitTimeouts.inc();
  }
}
