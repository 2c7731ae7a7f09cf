import calculateSlot from 'cluster-key-slot';
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { Config } from '../config.ts';
import { DEFAULTS } from '../defaults.ts';
import { HASH_TAG } from './keys.ts';

export interface RedisAddress {
  host: string;
  port: number;
}

/**
 * Where Redis is, as plain data (it can be handed to another process): a URL (`redis://`, `rediss://`
 * with TLS, credentials allowed), a unix socket path, Sentinel (the sentinels and the master's name)
 * or Cluster (seed nodes).
 */
export type RedisTarget =
  | { url: string }
  | { path: string; password?: string }
  | { sentinels: RedisAddress[]; name: string; password?: string; sentinelPassword?: string }
  | { cluster: RedisAddress[]; password?: string };

/** Every key carries the hash tag, so all of the service's data lives in this one slot of a Cluster. */
const SERVICE_SLOT = calculateSlot(HASH_TAG);

function parseAddress(text: string): RedisAddress {
  const colon = text.lastIndexOf(':');
  return { host: text.slice(0, colon).replace(/^\[|\]$/g, ''), port: Number(text.slice(colon + 1)) };
}

/** The Redis the configuration names; undefined when the server is to start its embedded one. */
export function targetFromConfig(config: Config): RedisTarget | undefined {
  const password = config.redisPassword ? { password: config.redisPassword } : {};
  if (config.redisSentinels) {
    return {
      sentinels: config.redisSentinels.map(parseAddress),
      name: config.redisSentinelName,
      ...password,
      ...(config.redisSentinelPassword ? { sentinelPassword: config.redisSentinelPassword } : {}),
    };
  }
  if (config.redisClusterNodes) return { cluster: config.redisClusterNodes.map(parseAddress), ...password };
  return config.redisUrl ? { url: config.redisUrl } : undefined;
}

/**
 * Options shared by every connection the server opens. Commands fail fast while Redis is down
 * (no offline queue, a command timeout) so that requests answer 503 instead of hanging, and
 * commands are never re-sent after a reconnect, so that a write answered 503 cannot take effect later.
 */
const COMMON_OPTIONS: RedisOptions = {
  enableOfflineQueue: false,
  autoResendUnfulfilledCommands: false,
  maxRetriesPerRequest: 0,
  commandTimeout: DEFAULTS.redisCommandTimeoutMs,
  connectTimeout: DEFAULTS.redisConnectTimeoutMs,
  retryStrategy: (attempt) => Math.min(50 * 2 ** attempt, DEFAULTS.redisMaxRetryDelayMs),
  lazyConnect: true,
};

/** A master demoted to replica answers READONLY: reconnect (through Sentinel, to the new master); the command is not re-sent. */
const reconnectOnReadOnly = (err: Error) => err.message.startsWith('READONLY');

/**
 * A client for the target. For a Cluster this is ioredis' Cluster client, typed as Redis: it answers
 * the same commands (every key is in one slot); `isCluster` tells the few places that must know.
 */
export function createRedisClient(target: RedisTarget, extra: RedisOptions = {}): Redis {
  const options = { ...COMMON_OPTIONS, ...extra };
  if ('url' in target) return new Redis(target.url, options);
  if ('path' in target) return new Redis({ ...options, ...target });
  if ('sentinels' in target) {
    // failoverDetector: the sentinels' +switch-master closes the connection to a master that was replaced.
    return new Redis({
      ...options,
      ...target,
      failoverDetector: true,
      reconnectOnError: reconnectOnReadOnly,
    });
  }
  const { enableAutoPipelining, lazyConnect, retryStrategy, ...nodeOptions } = options;
  const cluster = new Cluster(target.cluster, {
    enableOfflineQueue: false,
    enableAutoPipelining: enableAutoPipelining ?? false,
    lazyConnect: lazyConnect ?? true,
    clusterRetryStrategy: (attempt) => retryStrategy?.(attempt) ?? DEFAULTS.redisMaxRetryDelayMs,
    // Node connections reconnect on their own: then a command that was sent when a node died fails with
    // MaxRetriesPerRequestError (504 for a change) instead of "Connection is closed", which ioredis
    // Cluster would re-send to the next master: a change must never be applied twice.
    clusterNodeRetryStrategy: retryStrategy,
    // Also learn a new slot owner when nothing failed on this client (a pooled transaction connection opens where it says).
    slotsRefreshInterval: DEFAULTS.clusterSlotsRefreshMs,
    redisOptions: { ...nodeOptions, ...(target.password ? { password: target.password } : {}) },
  });
  return cluster as unknown as Redis;
}

/** The socket ioredis writes each command to as it is issued (ready and writable), else undefined. */
function writingSocket(client: Redis): Redis['stream'] | undefined {
  return client.status === 'ready' && client.stream?.writable ? client.stream : undefined;
}

/**
 * A client shared by every request (reads, or changes): the commands sent in one event-loop turn leave
 * in one write, as ioredis' auto-pipelining sends them, but without its pipelines, whose objects per
 * command outlived young collections and filled the old generation under load (docs/benchmarks.md,
 * 2026-11-26). The socket is corked at the turn's first command and uncorked once the turn's I/O is
 * done. On a Cluster (many sockets, opened and replaced by ioredis) it is ioredis' auto-pipelining.
 */
export function createSharedClient(target: RedisTarget, extra: RedisOptions = {}): Redis {
  if ('cluster' in target) return createRedisClient(target, { ...extra, enableAutoPipelining: true });
  const client = createRedisClient(target, extra);
  const send = client.sendCommand;
  let corked: Redis['stream'] | undefined;
  const uncork = () => {
    const socket = corked;
    corked = undefined;
    socket?.uncork();
  };
  client.sendCommand = function sendCommand(this: Redis, ...args: Parameters<Redis['sendCommand']>) {
    const socket = corked === undefined ? writingSocket(this) : undefined;
    if (socket) {
      corked = socket;
      socket.cork();
      setImmediate(uncork);
    }
    return send.apply(this, args);
  };
  return client;
}

/**
 * Runs `send`, whose commands ioredis writes to the socket as they are issued, with the socket corked:
 * they leave in one write instead of one each. Before the connection is ready they wait in ioredis'
 * offline queue as usual.
 */
export function inOneWrite<T>(client: Redis, send: () => T): T {
  const socket = writingSocket(client);
  socket?.cork();
  try {
    return send();
  } finally {
    socket?.uncork();
  }
}

export function isCluster(client: Redis): boolean {
  return (client as unknown as { isCluster?: boolean }).isCluster === true;
}

/**
 * The connection to the master that owns the service's slot, as the Cluster client knows it now: the
 * one its commands for that slot go through. Undefined when the slot's owner is not known yet.
 */
export function serviceSlotConnection(cluster: Redis): Redis | undefined {
  const owner = (cluster as unknown as Cluster).slots[SERVICE_SLOT]?.[0];
  if (owner === undefined) return undefined;
  return (cluster as unknown as Cluster)
    .nodes('master')
    .find((node) => `${node.options.host}:${node.options.port}` === owner);
}

/**
 * A dedicated connection for WATCH/MULTI/EXEC. On a Cluster: a plain connection to the master that owns
 * the service's slot, as `cluster` knows it now, never reconnected. ioredis Cluster routes each command
 * by the slot map of the moment, so a WATCH and its EXEC could reach two masters during a failover and
 * the EXEC would run unwatched; on one plain connection they cannot. A connection to a master that
 * lost the slot gets MOVED (503), and the pool replaces connections that dropped.
 */
export function createTransactionClient(
  target: RedisTarget,
  cluster: Redis,
  extra: RedisOptions = {},
): Redis {
  if (!('cluster' in target)) return createRedisClient(target, extra);
  const owner = (cluster as unknown as Cluster).slots[SERVICE_SLOT]?.[0];
  if (owner === undefined)
    throw new Error("Cluster isn't ready: the master of the service slot is not known");
  return new Redis({
    ...COMMON_OPTIONS,
    ...extra,
    ...parseAddress(owner),
    ...(target.password ? { password: target.password } : {}),
    retryStrategy: () => null,
  });
}

/** Resolves once the client is connected and ready, or rejects after `timeoutMs`. */
export async function waitUntilReady(client: Redis, timeoutMs: number): Promise<void> {
  if (client.status === 'ready') return;
  if (client.status === 'wait') client.connect().catch(() => {});
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`Redis was not ready within ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      clearTimeout(timer);
      client.off('ready', onReady);
    };
    client.on('ready', onReady);
  });
}
