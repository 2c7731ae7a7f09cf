import os from 'node:os';
import path from 'node:path';

export interface Config {
  host: string;
  port: number;
  /** Connect to this Redis; when absent the server starts and owns an embedded redis-server. */
  redisUrl: string | undefined;
  /** Root of local state: the embedded Redis keeps its append-only file in `<dataDir>/redis`. */
  dataDir: string;
  redisServerBin: string;
  logLevel: string;
  /** How long a stopping worker stays visible before the removal job deletes it. */
  workerStopGraceMs: number;
  /** When set, every request except OPTIONS and health checks needs `Authorization: Bearer <token>`. */
  apiToken: string | undefined;
  /** Server processes sharing the port (node:cluster); 1 = a single process, no cluster primary. */
  workers: number;
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

/** `WORKERS`: a count, or `auto` for one process per core. */
function workersFrom(env: NodeJS.ProcessEnv): number {
  if (env.WORKERS === 'auto') return os.availableParallelism();
  try {
    return intFrom(env, 'WORKERS', 1, 1, 256);
  } catch (err) {
    throw new Error(`${(err as Error).message} (or "auto", one per core)`);
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    host: env.HOST || '127.0.0.1',
    port: intFrom(env, 'PORT', 8080, 0, 65535),
    redisUrl: env.REDIS_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR || 'data'),
    redisServerBin: env.REDIS_SERVER_BIN || 'redis-server',
    logLevel: env.LOG_LEVEL || 'info',
    workerStopGraceMs: intFrom(env, 'WORKER_STOP_GRACE_MS', 1000, 0, 24 * 3600 * 1000),
    apiToken: env.API_TOKEN || undefined,
    workers: workersFrom(env),
  };
}
