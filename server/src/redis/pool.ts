import type { Redis } from 'ioredis';
import { ServiceUnavailableError } from '../errors.ts';
import type { PoolStats } from '../metrics/service-metrics.ts';

/** Longest wait for a free connection before the request is answered 503 (nothing was sent). */
const WAIT_LIMIT_MS = 1500;

/**
 * A small pool of dedicated connections for WATCH/MULTI/EXEC. WATCH is per connection, so a
 * transaction must never share the auto-pipelined connection that serves everything else.
 */
export class ConnectionPool {
  private readonly idle: Redis[] = [];
  private readonly waiters: Array<{ resolve: (conn: Redis) => void; reject: (err: unknown) => void }> = [];
  private size = 0;
  private closed = false;
  private opened = 0;
  private discarded = 0;
  private timedOut = 0;

  constructor(
    private readonly open: () => Redis,
    private readonly maxSize = 8,
  ) {}

  async withConnection<T>(work: (conn: Redis) => Promise<T>): Promise<T> {
    const conn = await this.acquire();
    try {
      const result = await work(conn);
      this.release(conn);
      return result;
    } catch (err) {
      // The connection may hold a WATCH or a half-sent transaction: never hand it out again.
      this.discard(conn);
      throw err;
    }
  }

  private async acquire(): Promise<Redis> {
    if (this.closed) throw new ServiceUnavailableError('the server is shutting down');
    const ready = this.idle.find((conn) => conn.status === 'ready');
    if (ready) {
      this.idle.splice(this.idle.indexOf(ready), 1);
      return ready;
    }
    // Idle connections that lost Redis are reconnecting on their own; while the pool is full, replace
    // one instead of queueing behind connections that may never be released (a request would hang).
    const stale = this.idle.findIndex((conn) => conn.status !== 'ready');
    if (stale !== -1 && this.size >= this.maxSize) {
      this.idle.splice(stale, 1)[0]?.disconnect();
      this.size--;
    }
    if (this.size < this.maxSize) {
      this.size++;
      let conn: Redis | undefined;
      try {
        conn = this.open();
        this.opened++;
        await conn.connect();
        return conn;
      } catch {
        this.size--;
        conn?.disconnect();
        throw new ServiceUnavailableError();
      }
    }
    // Every connection is busy: wait for one, but not longer than a request should take to fail.
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: (conn: Redis) => {
          clearTimeout(timer);
          resolve(conn);
        },
        reject: (err: unknown) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      const timer = setTimeout(() => {
        this.timedOut++;
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new ServiceUnavailableError());
      }, WAIT_LIMIT_MS);
      this.waiters.push(waiter);
    });
  }

  private release(conn: Redis): void {
    const next = this.waiters.shift();
    if (next) next.resolve(conn);
    else this.idle.push(conn);
  }

  private discard(conn: Redis): void {
    this.discarded++;
    conn.disconnect();
    this.size--;
    // A waiter was counting on this connection: open a fresh one for it.
    const next = this.waiters.shift();
    if (next) this.acquire().then(next.resolve, next.reject);
  }

  /** What the pool holds now, and what it did since the start (read by the metrics at each scrape). */
  stats(): PoolStats {
    const idle = this.idle.length;
    return {
      size: this.size,
      idle,
      inUse: this.size - idle,
      waiting: this.waiters.length,
      opened: this.opened,
      discarded: this.discarded,
      timedOut: this.timedOut,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiters.splice(0))
      waiter.reject(new ServiceUnavailableError('the server is shutting down'));
    await Promise.all(this.idle.splice(0).map((conn) => conn.quit().catch(() => conn.disconnect())));
  }
}
