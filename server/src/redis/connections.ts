import path from 'node:path';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { DEFAULTS } from '../defaults.ts';
import {
  createRedisClient,
  createSharedClient,
  createTransactionClient,
  type RedisTarget,
  targetFromConfig,
  waitUntilReady,
} from './connect.ts';
import { type EmbeddedRedis, startEmbeddedRedis } from './embedded.ts';
import { ConnectionPool } from './pool.ts';

/** The Redis a process uses, and the embedded one it started for it (which it stops), if any. */
export interface ProvidedRedis {
  target: RedisTarget;
  embedded: EmbeddedRedis | undefined;
}

/**
 * Every Redis connection of one server process, each with one role. Opened by `openRedisConnections`,
 * closed by `close`; the stores, the readiness check and the removal runner are handed the ones they use.
 */
export interface RedisConnections extends ProvidedRedis {
  /** Auto-pipelined, shared by every read (and the short commands that hold nothing up). */
  reads: Redis;
  /**
   * Every change (and its WAIT): a change Redis holds (CLIENT PAUSE WRITE, a WAIT for replicas) must
   * not hold up the reads queued behind it on the shared connection.
   */
  changes: Redis;
  /** Dedicated connections for WATCH/MULTI/EXEC (a WATCH belongs to its connection). */
  transactions: ConnectionPool;
  /** The worker removal runner's blocking XREADGROUP (a blocked read holds its connection). */
  removals: Redis;
  /** Closes every connection (the pool's included), then stops the embedded Redis. */
  close(): Promise<void>;
}

/**
 * The one place that decides which Redis a process uses: `given` (a Redis another process owns, e.g.
 * the cluster primary's embedded one), else the configuration's (URL, Sentinel or Cluster), else an
 * embedded redis-server started now in DATA_DIR/redis.
 */
export async function provideRedis(
  config: Config,
  logger: Logger,
  given?: RedisTarget,
): Promise<ProvidedRedis> {
  const target = given ?? targetFromConfig(config);
  if (target) return { target, embedded: undefined };
  const dir = path.join(config.dataDir, 'redis');
  const embedded = await startEmbeddedRedis({ bin: config.redisServerBin, dir, logger });
  return { target: { path: embedded.socketPath }, embedded };
}

/**
 * A connection for the removal runner's blocking reads: no command timeout (a blocked XREADGROUP is not
 * a slow command); ioredis' blocking timeout still ends a read whose connection silently died.
 */
export function openBlockingConnection(target: RedisTarget): Redis {
  const conn = createRedisClient(target, {
    commandTimeout: undefined,
    blockingTimeout: DEFAULTS.blockingTimeoutMs,
    lazyConnect: false,
  });
  conn.on('error', () => {}); // retried by the read loop
  return conn;
}

/**
 * Opens every connection the service needs for `config` (starting the embedded Redis when no Redis is
 * configured or `given`). Waits a little for Redis to be ready, but starts anyway: requests answer 503
 * until it is.
 */
export async function openRedisConnections(
  config: Config,
  logger: Logger,
  given?: RedisTarget,
): Promise<RedisConnections> {
  const { target, embedded } = await provideRedis(config, logger, given);
  const reads = createSharedClient(target, { lazyConnect: false });
  reads.on('error', (err) => logger.warn({ err: err.message }, 'redis connection error'));
  // A WAIT may hold its connection for REDIS_WAIT_TIMEOUT_MS: commands on such a connection get that much longer.
  const waiting = { commandTimeout: DEFAULTS.redisCommandTimeoutMs + config.redisWaitTimeoutMs };
  const changes = createSharedClient(target, {
    ...(config.redisWaitReplicas > 0 ? waiting : {}),
    lazyConnect: false,
  });
  changes.on('error', () => {}); // the shared connection reports the same outage
  try {
    await Promise.all([
      waitUntilReady(reads, DEFAULTS.redisStartWaitMs),
      waitUntilReady(changes, DEFAULTS.redisStartWaitMs),
    ]);
  } catch {
    logger.warn('Redis is not reachable yet; answering 503 until it is');
  }
  const transactions = new ConnectionPool(
    () => {
      // On a Cluster, opened to the master the changes' connection knows as the slot's owner.
      const conn = createTransactionClient(target, changes, waiting);
      conn.on('error', () => {}); // reported through the request that used it
      return conn;
    },
    { logger },
  );
  const removals = openBlockingConnection(target);

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      removals.disconnect();
      await transactions.close();
      await changes.quit().catch(() => changes.disconnect());
      await reads.quit().catch(() => reads.disconnect());
      await embedded?.stop();
    })();
    return closing;
  };
  return { target, embedded, reads, changes, transactions, removals, close };
}
