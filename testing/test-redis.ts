// What both paths of the test Redis give (redis.ts, redis-container.ts): apart, so that neither imports the other.

/**
 * A real Redis for tests: in a container (testcontainers) or a local `redis-server` on a free loopback
 * port, as TEST_REDIS says (auto | container | local, see redis-path.ts). Never the shared instance on
 * 6379, never a fake.
 */
export interface TestRedis {
  url: string;
  host: string;
  port: number;
  /** How it runs: 'container' or 'local'. */
  kind: 'container' | 'local';
  /** PID of the local redis-server (undefined in a container). */
  readonly pid: number | undefined;
  /** Id of the container (undefined for a local redis-server). */
  readonly containerId?: string;
  /** Stops Redis but keeps its data, so `start()` brings the same data back on the same port. */
  stopTemporarily(signal?: NodeJS.Signals): Promise<void>;
  start(): Promise<void>;
  /** Stops Redis and removes its data (unless the caller gave the data folder). */
  stop(): Promise<void>;
}

export interface TestRedisOptions {
  /** Append-only file with fsync on every write (default true: tests of durability need it). */
  appendOnly?: boolean;
  password?: string;
  /**
   * The folder where Redis keeps its data (`--dir` locally; bind-mounted at /data in a container, so the
   * append-only file outlives the container). Created when missing; stop() leaves it. Default: a
   * temporary folder that stop() removes.
   */
  dir?: string;
}
