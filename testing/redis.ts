import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.ts';

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

export async function startLocalRedis(options: TestRedisOptions = {}): Promise<TestRedis> {
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'usersvc-test-redis-'));
  fs.mkdirSync(dir, { recursive: true });
  const bin = process.env.REDIS_SERVER_BIN || 'redis-server';
  let port = 0;
  let child: ChildProcess | undefined;

  const launch = async (): Promise<void> => {
    for (let attempt = 0; ; attempt++) {
      port ||= await freePort();
      const args = redisServerArgs(port, dir);
      args.push('--appendonly', options.appendOnly === false ? 'no' : 'yes', '--appendfsync', 'always');
      if (options.password) args.push('--requirepass', options.password);
      const proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      proc.stdout?.on('data', (chunk) => {
        output += chunk;
      });
      const ready = await Promise.race([
        waitForOutput(proc, () => output, 'Ready to accept connections'),
        once(proc, 'error').then(([err]) => {
          throw new Error(
            `could not start ${bin}: ${(err as Error).message}. Install redis-server or set REDIS_SERVER_BIN.`,
          );
        }),
      ]);
      if (ready) {
        child = proc;
        return;
      }
      if (attempt >= 5 || !/Address already in use/.test(output)) {
        throw new Error(`redis-server did not start on port ${port}:\n${output}`);
      }
      port = 0; // somebody took the port: pick another
    }
  };

  await launch();
  const url = options.password
    ? `redis://:${options.password}@127.0.0.1:${port}`
    : `redis://127.0.0.1:${port}`;
  const kill = async (signal: NodeJS.Signals) => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = once(proc, 'exit');
    proc.kill(signal);
    await exited;
  };
  return {
    url,
    host: '127.0.0.1',
    get port() {
      return port;
    },
    kind: 'local',
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

/** Resolves true once `marker` appears in the output, false if the process exits first. */
function waitForOutput(proc: ChildProcess, output: () => string, marker: string): Promise<boolean> {
  return new Promise((resolve) => {
    const check = () => {
      if (output().includes(marker)) {
        cleanup();
        resolve(true);
      }
    };
    const onExit = () => {
      cleanup();
      resolve(false);
    };
    const cleanup = () => {
      proc.stdout?.off('data', check);
      proc.off('exit', onExit);
    };
    proc.stdout?.on('data', check);
    proc.on('exit', onExit);
    check();
  });
}
