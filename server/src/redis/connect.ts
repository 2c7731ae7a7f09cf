import { Redis, type RedisOptions } from 'ioredis';

/** Where a Redis is: a URL (`redis://`, `rediss://` with TLS, credentials allowed) or a unix socket path. */
export type RedisTarget = { url: string } | { path: string; password?: string };

/**
 * Options shared by every connection the server opens. Commands fail fast while Redis is down
 * (no offline queue, a command timeout) so that requests answer 503 instead of hanging, and
 * commands are never re-sent after a reconnect, so that a write answered 503 cannot take effect later.
 */
const COMMON_OPTIONS: RedisOptions = {
  enableOfflineQueue: false,
  autoResendUnfulfilledCommands: false,
  maxRetriesPerRequest: 0,
  commandTimeout: 2000,
  connectTimeout: 2000,
  retryStrategy: (attempt) => Math.min(50 * 2 ** attempt, 1000),
  lazyConnect: true,
};

export function createRedisClient(target: RedisTarget, extra: RedisOptions = {}): Redis {
  const options = { ...COMMON_OPTIONS, ...extra };
  return 'url' in target ? new Redis(target.url, options) : new Redis({ ...options, ...target });
}

/** Resolves once the client is connected and ready, or rejects after `timeoutMs`. */
export async function waitUntilReady(client: Redis, timeoutMs = 10_000): Promise<void> {
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

const UNAVAILABLE_MESSAGE =
  /Connection is closed|Stream isn't writeable|Command timed out|ECONNREFUSED|ECONNRESET|ENOENT|EPIPE|ETIMEDOUT|LOADING|MISCONF|READONLY|shutting down/i;

/** True for the errors ioredis raises when Redis is down, restarting, or cannot write. */
export function isRedisUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return (
    err.name === 'MaxRetriesPerRequestError' ||
    err.name === 'AbortError' ||
    UNAVAILABLE_MESSAGE.test(err.message)
  );
}

/**
 * True for the errors after which a command may have run on Redis although no reply came back: the
 * connection closed with the command already sent (ioredis rejects those with MaxRetriesPerRequestError
 * or AbortError and, with autoResendUnfulfilledCommands off, never resends them), or it timed out.
 * "Stream isn't writeable" (never sent) is not one of them.
 */
export function mayHaveBeenApplied(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return (
    err.name === 'MaxRetriesPerRequestError' ||
    err.name === 'AbortError' ||
    /Connection is closed|Command timed out|aborted due to connection close/i.test(err.message)
  );
}
