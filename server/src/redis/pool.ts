import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { DEFAULTS } from '../defaults.ts';
import { ServiceUnavailableError } from '../errors.ts';

/** The pool's figures, for /metrics and the debug log. `size` = idle + inUse + connections being opened. */
export interface PoolStats {
  size: number;
  idle: number;
  inUse: number;
  /** Acquirers queued for a connection. */
  waiting: number;
  /** Connections opened since the start (attempts, failed ones included). */
  opened: number;
  /** Connections closed by the pool (failed to open, broken, discarded after an error, at close). */
  discarded: number;
  /** Acquirers answered 503 because no connection became free within their limit. */
  timedOut: number;
}

export interface PoolOptions {
  maxSize?: number;
  /** Longest wait for a free connection before the request is answered 503 (nothing was sent). */
  waitLimitMs?: number;
  /** Longest time to open a connection (TCP, AUTH, ready check); a stalled Redis accepts TCP but never answers. */
  connectTimeoutMs?: number;
  logger?: Logger;
}

interface Waiter {
  resolve: (conn: Redis) => void;
  reject: (err: unknown) => void;
  timer: NodeJS.Timeout;
}

/**
 * A small pool of dedicated connections for WATCH/MULTI/EXEC. WATCH is per connection, so a
 * transaction must never share the connections that serve everything else (reads, other changes).
 *
 * Every connection is in exactly one place: `idle`, `inUse`, or being opened (`opening` counts those);
 * a connection leaving all three is disconnected. `size` is computed from the three, so it cannot
 * drift. A connection becomes available in one function only (`offer`), which hands it to the first
 * acquirer still queued (a timed-out acquirer has left the queue synchronously) or makes it idle: a
 * connection can never be handed to an acquirer that has given up. One open is started per queued
 * acquirer (up to the maximum), and a failed open answers one acquirer 503 instead of trying again,
 * so a Redis that refuses connections is not hammered in a loop.
 */
export class ConnectionPool {
  private readonly idle: Redis[] = [];
  private readonly inUse = new Set<Redis>();
  private opening = 0;
  private readonly waiters: Waiter[] = [];
  private opened = 0;
  private discarded = 0;
  private timedOut = 0;
  private closed = false;
  private readonly maxSize: number;
  private readonly waitLimitMs: number;
  private readonly connectTimeoutMs: number;
  private readonly logger: Logger | undefined;

  constructor(
    private readonly open: () => Redis,
    options: PoolOptions = {},
  ) {
    this.maxSize = options.maxSize ?? DEFAULTS.poolMaxSize;
    this.waitLimitMs = options.waitLimitMs ?? DEFAULTS.poolWaitLimitMs;
    this.connectTimeoutMs = options.connectTimeoutMs ?? DEFAULTS.poolConnectTimeoutMs;
    this.logger = options.logger;
  }

  stats(): PoolStats {
    return {
      size: this.idle.length + this.inUse.size + this.opening,
      idle: this.idle.length,
      inUse: this.inUse.size,
      waiting: this.waiters.length,
      opened: this.opened,
      discarded: this.discarded,
      timedOut: this.timedOut,
    };
  }

  /** The connections the pool holds, by state (for tests and debugging). */
  connections(): { idle: readonly Redis[]; inUse: readonly Redis[] } {
    return { idle: [...this.idle], inUse: [...this.inUse] };
  }

  async withConnection<T>(work: (conn: Redis) => Promise<T>, waitLimitMs?: number): Promise<T> {
    const conn = await this.acquire(waitLimitMs);
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

  /** A ready connection, now in use: give it back with `release` or `discard`. */
  acquire(waitLimitMs = this.waitLimitMs): Promise<Redis> {
    if (this.closed) return Promise.reject(new ServiceUnavailableError('the server is shutting down'));
    this.dropBrokenIdle();
    const conn = this.idle.pop();
    if (conn) {
      this.inUse.add(conn);
      return Promise.resolve(conn);
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: setTimeout(() => {
          const index = this.waiters.indexOf(waiter);
          if (index === -1) return; // already served or answered
          this.waiters.splice(index, 1);
          this.timedOut++;
          this.debug('no transaction connection became free in time');
          reject(new ServiceUnavailableError('the data store is too slow to answer; try again shortly'));
        }, waitLimitMs),
      };
      this.waiters.push(waiter);
      this.grow();
    });
  }

  /** Gives back a healthy connection (one in use; anything else is ignored). */
  release(conn: Redis): void {
    if (!this.inUse.delete(conn)) return;
    this.offer(conn);
  }

  /** Closes a connection in use that must not be used again; a queued acquirer gets a new one. */
  discard(conn: Redis): void {
    if (!this.inUse.delete(conn)) return;
    this.destroy(conn, 'discarded after an error');
    this.grow();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.reject(new ServiceUnavailableError('the server is shutting down'));
    }
    const idle = this.idle.splice(0);
    this.discarded += idle.length;
    await Promise.all(idle.map((conn) => conn.quit().catch(() => conn.disconnect())));
    // Connections in use and being opened are closed when they come back (see offer).
  }

  /** The one place a connection becomes available: to the first queued acquirer, or idle. */
  private offer(conn: Redis): void {
    if (this.closed) {
      this.destroy(conn, 'pool closed');
      return;
    }
    if (conn.status !== 'ready') {
      this.destroy(conn, 'connection lost');
      this.grow();
      return;
    }
    const waiter = this.waiters.shift();
    if (!waiter) {
      this.idle.push(conn);
      return;
    }
    clearTimeout(waiter.timer);
    this.inUse.add(conn);
    waiter.resolve(conn);
  }

  /** Starts one open per queued acquirer not already covered by an open in flight, up to the maximum. */
  private grow(): void {
    while (
      !this.closed &&
      this.opening < this.waiters.length &&
      this.idle.length + this.inUse.size + this.opening < this.maxSize
    ) {
      this.openOne();
    }
  }

  private openOne(): void {
    this.opening++;
    this.opened++;
    let conn: Redis;
    try {
      conn = this.open();
    } catch (err) {
      this.opening--;
      this.discarded++;
      this.openFailed(err);
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('connect timed out')), this.connectTimeoutMs);
    });
    const connecting = conn.connect();
    connecting.catch(() => {}); // raced below; after a timeout it rejects when disconnected
    Promise.race([connecting, timeout]).then(
      () => {
        clearTimeout(timer);
        this.opening--;
        this.offer(conn);
      },
      (err: unknown) => {
        clearTimeout(timer);
        this.opening--;
        this.destroy(conn, 'could not connect');
        this.openFailed(err);
      },
    );
  }

  /** The open was started for the first queued acquirer: answer it 503 now rather than retry in a loop. */
  private openFailed(err: unknown): void {
    if (this.waiters.length <= this.opening) return; // the opens still in flight cover everyone queued
    const waiter = this.waiters.shift();
    if (!waiter) return;
    clearTimeout(waiter.timer);
    this.logger?.debug({ err: (err as Error)?.message, pool: this.stats() }, 'transaction pool');
    waiter.reject(new ServiceUnavailableError());
  }

  private dropBrokenIdle(): void {
    const broken = this.idle.filter((conn) => conn.status !== 'ready');
    if (broken.length === 0) return;
    this.idle.splice(0, this.idle.length, ...this.idle.filter((conn) => conn.status === 'ready'));
    for (const conn of broken) this.destroy(conn, 'idle connection lost');
  }

  private destroy(conn: Redis, why: string): void {
    this.discarded++;
    conn.disconnect();
    this.debug(why);
  }

  private debug(event: string): void {
    this.logger?.debug({ pool: this.stats() }, `transaction pool: ${event}`);
  }
}
