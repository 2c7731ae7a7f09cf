/**
 * Every operating number of the server in one place: timeouts, limits, pool sizes, intervals. The
 * environment variables are in config.ts; these are not settings, but the code, the error messages and
 * the OpenAPI description all read them from here, so a number is changed once.
 */
export const DEFAULTS = {
  // HTTP (app.ts, http/body.ts, http/stream.ts)
  /** A request body larger than this is answered 413 and the connection closed. */
  bodyLimitBytes: 64 * 1024,
  /** The longest name or profession, in characters (code points): longer is 400 `invalid_field`. */
  userTextMaxChars: 256,
  /** The request line and headers must arrive within this (408 otherwise). */
  headersTimeoutMs: 10_000,
  /** The whole request must arrive within this (408 otherwise). */
  requestTimeoutMs: 30_000,
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: 5_000,
  /** How often Node checks the two timeouts above. */
  connectionsCheckingIntervalMs: 1_000,
  /** A client that takes nothing of a streamed body for this long is dropped. */
  streamStallTimeoutMs: 30_000,
  /** How long SIGTERM lets in-flight requests finish before every connection is cut (docs/security.md). */
  drainTimeoutMs: 8_000,

  // Logging (logging.ts)
  /** Log lines are written together at most this long after the first of them (a crash loses no more). */
  logFlushIntervalMs: 20,

  // Redis connections (redis/connect.ts, redis/connections.ts)
  /** A command without an answer within this fails (503, or 504 for a change that was sent). */
  redisCommandTimeoutMs: 2_000,
  redisConnectTimeoutMs: 2_000,
  /** The longest pause between two reconnection attempts (they start at 50 ms and double). */
  redisMaxRetryDelayMs: 1_000,
  /** How often a Cluster client reloads the slot map when nothing failed. */
  clusterSlotsRefreshMs: 2_000,
  /** How long the start waits for Redis before listening anyway (answering 503 until Redis is there). */
  redisStartWaitMs: 5_000,
  /** The blocking connection's longest silence before ioredis presumes it dead. */
  blockingTimeoutMs: 60_000,

  // Transaction pool (redis/pool.ts) and readiness (health/readiness.ts)
  poolMaxSize: 8,
  /** Longest wait for a free transaction connection before the request is answered 503. */
  poolWaitLimitMs: 1_500,
  poolConnectTimeoutMs: 2_000,
  /** Longest time a /readyz probe may take: the pool's wait limit (an update then waits as long). */
  readinessProbeTimeoutMs: 1_500,
  /** A change that keeps losing to other instances' changes gives up (503) after this. */
  conflictRetryBudgetMs: 2_000,

  // Users (users/list.ts, users/store.ts)
  /** Users per Redis read of a list: half the longest Redis command for about the same list time (docs/benchmarks.md). */
  listChunkSize: 500,
  /** The largest list document kept in memory for the next lists. */
  listMaxCachedBytes: 4 * 1024 * 1024,
  /**
   * Chunks rendered in one turn of the event loop, all lists together: a single-user read arriving while
   * many lists stream waits behind at most this many (measured: docs/listing.md).
   */
  listChunksPerTurn: 1,
  /** How long a list waits for the same document being built by another list before it reads its own. */
  listBuildWaitMs: 1_000,
  /** Users per step of the id index build: small, so that no step holds Redis long (measured: docs/listing.md). */
  indexStep: 50,

  // Worker removal runner (apps/workers/removal.ts)
  /** A pending job is taken over once idle for the grace period plus this. */
  removalClaimMarginMs: 5_000,
  removalClaimIntervalMs: 1_000,
  removalBlockMs: 2_000,
  removalMaxInFlight: 100,
  removalRetryMs: 500,
  /** Consumers of past runs idle this long with nothing pending leave the group. */
  removalForgetConsumersAfterMs: 3_600_000,

  // Processes (processes.ts, metrics/cluster.ts)
  /**
   * A worker or embedded redis-server that dies is started again after restartFirstDelayMs, doubling up
   * to restartMaxDelayMs; one that lived restartStableAfterMs is not part of a crash loop (the backoff starts again).
   */
  restartFirstDelayMs: 100,
  restartMaxDelayMs: 5_000,
  restartStableAfterMs: 10_000,
  /** A worker that has not exited this long after SIGTERM is killed (it drains within drainTimeoutMs). */
  processStopTimeoutMs: 15_000,
  /** How long the primary waits for each worker's metrics in a scrape. */
  metricsWorkerWaitMs: 6_000,

  // Embedded Redis (redis/embedded.ts)
  embeddedReadyTimeoutMs: 30_000,
  /** How long a redis-server may take to stop after SIGTERM before SIGKILL. */
  embeddedStopTimeoutMs: 10_000,
} as const;

/** `10000` → `10 s`, `1500` → `1.5 s`: a duration in prose. */
export function seconds(ms: number): string {
  return `${ms / 1000} s`;
}

/** `65536` → `64 KiB`. */
export function kib(bytes: number): string {
  return `${bytes / 1024} KiB`;
}
