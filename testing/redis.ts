import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.ts';
import { launchRedisServer, type RedisServerProcess, RedisStartError } from './redis-server.ts';
import type { TestRedis, TestRedisOptions } from './test-redis.ts';

export type { TestRedis, TestRedisOptions } from './test-redis.ts';

/** A Redis on the path TEST_REDIS chose for this process (the choice is printed once). */
export async function startTestRedis(options: TestRedisOptions = {}): Promise<TestRedis> {
  const { chooseRedisPath } = await import('./redis-path.ts');
  const chosen = await chooseRedisPath();
  if (chosen.kind === 'local') return startLocalRedis(options);
  const { startContainerRedis } = await import('./redis-container.ts');
  return startContainerRedis(chosen.client, chosen.image, options);
}

/** The arguments every local redis-server here starts with: loopback only, data in `dir`, no RDB snapshots. */
export function redisServerArgs(port: number, dir: string): string[] {
  return ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--daemonize', 'no'];
}

/** What only a local redis-server can be asked for (the benches' needs). */
export interface LocalRedisOptions extends TestRedisOptions {
  /** How often the append-only file is synced (default 'always'). */
  appendFsync?: 'always' | 'everysec';
  /** A unix socket in the data folder instead of TCP (port 0); `url` is then the socket's path. */
  unixSocket?: boolean;
  /** Gives up on a start after this long without being ready (default: no limit). */
  readyTimeoutMs?: number;
  /** SIGKILL when it has not exited this long after the stop signal (default: wait). */
  killAfterMs?: number;
  /** Called with each redis-server process as it is spawned. */
  onSpawn?: (proc: ChildProcess) => void;
}

export interface LocalRedis extends TestRedis {
  /** The unix socket it listens on (with `unixSocket`), else undefined. */
  readonly socketPath: string | undefined;
}

export async function startLocalRedis(options: LocalRedisOptions = {}): Promise<LocalRedis> {
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'usersvc-test-redis-'));
  fs.mkdirSync(dir, { recursive: true });
  const socketPath = options.unixSocket ? path.join(dir, 'redis.sock') : undefined;
  let port = 0;
  let child: RedisServerProcess | undefined;

  const launch = async (): Promise<void> => {
    for (let attempt = 0; ; attempt++) {
      if (!socketPath) port ||= await freePort();
      const args = redisServerArgs(port, dir);
      if (socketPath) args.push('--unixsocket', socketPath, '--unixsocketperm', '700');
      if (options.appendOnly === false) args.push('--appendonly', 'no');
      else args.push('--appendonly', 'yes', '--appendfsync', options.appendFsync ?? 'always');
      if (options.password) args.push('--requirepass', options.password);
      try {
        child = await launchRedisServer(args, {
          timeoutMs: options.readyTimeoutMs,
          onSpawn: options.onSpawn,
        });
        return;
      } catch (err) {
        if (!(err instanceof RedisStartError)) throw err;
        if (attempt >= 5 || !/Address already in use/.test(err.output)) {
          throw new Error(`redis-server did not start on ${socketPath ?? `port ${port}`}:\n${err.output}`);
        }
        port = 0; // somebody took the port: pick another
      }
    }
  };

  await launch();
  const auth = options.password ? `:${options.password}@` : '';
  const url = socketPath ?? `redis://${auth}127.0.0.1:${port}`;
  const kill = async (signal: NodeJS.Signals) => {
    const proc = child;
    child = undefined;
    await proc?.stop(signal, options.killAfterMs);
  };
  return {
    url,
    host: '127.0.0.1',
    get port() {
      return port;
    },
    kind: 'local',
    socketPath,
    get pid() {
      return child?.pid;
    },
    stopTemporarily: (signal = 'SIGTERM') => kill(signal),
    start: launch,
    async stop() {
      await kill('SIGTERM');
      if (!options.dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
