import os from 'node:os';
import path from 'node:path';
import { ALLOWED_HOST_ENTRY } from './http/host.ts';

export interface Config {
  host: string;
  port: number;
  /** Connect to this Redis; when absent (and no Sentinel or Cluster is set) the server starts and owns an embedded redis-server. */
  redisUrl: string | undefined;
  /** Redis Sentinel: the sentinels' addresses (`host:port`) and the name of the master they watch. */
  redisSentinels: string[] | undefined;
  redisSentinelName: string;
  /** Password of the sentinels themselves (`requirepass` in sentinel.conf), if any. */
  redisSentinelPassword: string | undefined;
  /** Redis Cluster: seed nodes (`host:port`); the rest of the cluster is discovered from them. */
  redisClusterNodes: string[] | undefined;
  /** Password of the Redis servers behind Sentinel or in the Cluster (REDIS_URL carries its own). */
  redisPassword: string | undefined;
  /** A change is acknowledged once this many replicas have it (WAIT); 0 = as soon as the master has it. */
  redisWaitReplicas: number;
  /** How long WAIT may take before the change is answered 504 outcome_unknown. */
  redisWaitTimeoutMs: number;
  /** Root of local state: the embedded Redis keeps its append-only file in `<dataDir>/redis`. */
  dataDir: string;
  redisServerBin: string;
  logLevel: string;
  /** How long a stopping worker stays visible before the removal job deletes it. */
  workerStopGraceMs: number;
  /** When set, every request except OPTIONS and health checks needs `Authorization: Bearer <token>`. */
  apiToken: string | undefined;
  /** Server processes sharing the port (node:cluster); 1 = a single process, no cluster primary. */
  processes: number;
  /**
   * Host names a request's Host header may name (ALLOWED_HOSTS; IP addresses always pass): a guard
   * against DNS rebinding. Undefined: any name.
   */
  allowedHosts: readonly string[] | undefined;
  /** METRICS=0 turns the Prometheus metrics off (no /metrics, nothing counted); on by default. */
  metrics: boolean;
  /** METRICS_PUBLIC=1: /metrics needs no bearer token even when API_TOKEN is set. */
  metricsPublic: boolean;
}

export const BODY_LIMIT_BYTES = 64 * 1024;

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** A 0/1 switch (`true`/`false` accepted too). */
function flagFrom(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === '1' || raw === 'true') return true;
  if (raw === '0' || raw === 'false') return false;
  throw new Error(`${name} must be 0 or 1, got ${JSON.stringify(raw)}`);
}

/**
 * `PROCESSES`: server processes sharing the port, a count or `auto` for one per core. `WORKERS` is its
 * older name, still read (deployments set it); both set to different values is refused.
 */
function processesFrom(env: NodeJS.ProcessEnv): number {
  const name = env.PROCESSES !== undefined && env.PROCESSES !== '' ? 'PROCESSES' : 'WORKERS';
  if (
    name === 'PROCESSES' &&
    env.WORKERS !== undefined &&
    env.WORKERS !== '' &&
    env.WORKERS !== env.PROCESSES
  )
    throw new Error(
      `PROCESSES (${env.PROCESSES}) and its older name WORKERS (${env.WORKERS}) disagree: set one`,
    );
  if (env[name] === 'auto') return os.availableParallelism();
  try {
    return intFrom(env, name, 1, 1, 256);
  } catch (err) {
    throw new Error(`${(err as Error).message} (or "auto", one per core)`);
  }
}

/** `host:port,host:port` (IPv6 as `[::1]:26379`); undefined when unset. */
function addressesFrom(env: NodeJS.ProcessEnv, name: string): string[] | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const list = raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  for (const item of list) {
    if (!/^(\[[0-9a-fA-F:.]+\]|[^:[\]\s]+):\d{1,5}$/.test(item)) {
      throw new Error(`${name} must be a comma-separated list of host:port, got ${JSON.stringify(item)}`);
    }
  }
  return list;
}

const isLoopback = (host: string) =>
  host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);

/**
 * `ALLOWED_HOSTS`: `*` (any name), or names separated by commas. Unset: `localhost` when the server
 * listens on a loopback address only (a workstation, where a browser page could rebind its name to
 * 127.0.0.1), any name otherwise (a server reached by names only its operator knows).
 */
function allowedHostsFrom(env: NodeJS.ProcessEnv, host: string): readonly string[] | undefined {
  const raw = env.ALLOWED_HOSTS?.trim();
  if (raw === '*') return undefined;
  if (raw === undefined || raw === '') return isLoopback(host) ? ['localhost'] : undefined;
  const names = raw
    .split(',')
    .map((item) => item.trim().toLowerCase().replace(/\.$/, ''))
    .filter((item) => item !== '');
  for (const name of names) {
    if (!ALLOWED_HOST_ENTRY.test(name)) {
      throw new Error(
        `ALLOWED_HOSTS must be "*" or a comma-separated list of host names (".example.com" for a domain and its subdomains), got ${JSON.stringify(name)}`,
      );
    }
  }
  return names;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const redisUrl = env.REDIS_URL || undefined;
  const redisSentinels = addressesFrom(env, 'REDIS_SENTINELS');
  const redisClusterNodes = addressesFrom(env, 'REDIS_CLUSTER_NODES');
  const chosen = [
    redisUrl && 'REDIS_URL',
    redisSentinels && 'REDIS_SENTINELS',
    redisClusterNodes && 'REDIS_CLUSTER_NODES',
  ];
  if (chosen.filter(Boolean).length > 1) {
    throw new Error(
      `set only one of REDIS_URL, REDIS_SENTINELS, REDIS_CLUSTER_NODES (got ${chosen.filter(Boolean).join(', ')})`,
    );
  }
  // Sentinel and Cluster exist to fail over to a replica, so they have one: wait for it by default.
  const replicated = redisSentinels !== undefined || redisClusterNodes !== undefined;
  const host = env.HOST || '127.0.0.1';
  return {
    host,
    port: intFrom(env, 'PORT', 8080, 0, 65535),
    redisUrl,
    redisSentinels,
    redisSentinelName: env.REDIS_SENTINEL_NAME || 'mymaster',
    redisSentinelPassword: env.REDIS_SENTINEL_PASSWORD || undefined,
    redisClusterNodes,
    redisPassword: env.REDIS_PASSWORD || undefined,
    redisWaitReplicas: intFrom(env, 'REDIS_WAIT_REPLICAS', replicated ? 1 : 0, 0, 100),
    redisWaitTimeoutMs: intFrom(env, 'REDIS_WAIT_TIMEOUT_MS', 1000, 1, 60_000),
    dataDir: path.resolve(env.DATA_DIR || 'data'),
    redisServerBin: env.REDIS_SERVER_BIN || 'redis-server',
    logLevel: env.LOG_LEVEL || 'info',
    workerStopGraceMs: intFrom(env, 'WORKER_STOP_GRACE_MS', 1000, 0, 24 * 3600 * 1000),
    apiToken: env.API_TOKEN || undefined,
    processes: processesFrom(env),
    allowedHosts: allowedHostsFrom(env, host),
    metrics: flagFrom(env, 'METRICS', true),
    metricsPublic: flagFrom(env, 'METRICS_PUBLIC', false),
  };
}
