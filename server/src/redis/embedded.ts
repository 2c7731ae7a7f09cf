import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';

export interface EmbeddedRedisOptions {
  bin: string;
  /** Folder for the append-only file; created when missing. */
  dir: string;
  logger: Logger;
}

export interface EmbeddedRedis {
  readonly socketPath: string;
  readonly pid: number | undefined;
  /** Stops supervision, lets Redis finish its last fsync, and removes the socket folder. */
  stop(): Promise<void>;
}

export class RedisBinaryMissingError extends Error {
  constructor(bin: string) {
    super(
      `could not run "${bin}". Install Redis (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis), ` +
        'point REDIS_SERVER_BIN at the binary, or set REDIS_URL to use a Redis you run yourself.',
    );
  }
}

const PID_FILE = 'embedded-redis.pid';
const READY_TIMEOUT_MS = 30_000;

/**
 * Starts a redis-server child that keeps its data in `dir` with `appendfsync always` (every
 * acknowledged write is on disk) and listens only on a unix socket in a private 0700 folder.
 * If the child dies unexpectedly it is restarted with backoff; clients reconnect to the same socket.
 */
export async function startEmbeddedRedis(options: EmbeddedRedisOptions): Promise<EmbeddedRedis> {
  const { bin, dir, logger } = options;
  fs.mkdirSync(dir, { recursive: true });
  await reclaimDataDir(dir, logger);

  const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'usersvc-redis-'));
  fs.chmodSync(socketDir, 0o700);
  const socketPath = path.join(socketDir, 'redis.sock');
  // biome-ignore format: flag and value pairs read best one pair a line
  const args = [
    '--port', '0',
    '--unixsocket', socketPath,
    '--unixsocketperm', '700',
    '--dir', dir,
    '--appendonly', 'yes',
    '--appendfsync', 'always',
    '--save', '',
    '--daemonize', 'no',
    '--logfile', '',
    '--loglevel', 'warning',
  ];

  let child: ChildProcess | undefined;
  let stopping = false;
  let restarts = 0;
  let restartTimer: NodeJS.Timeout | undefined;

  const launch = async (): Promise<void> => {
    const proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    proc.stdout?.on('data', (chunk: Buffer) =>
      logger.debug({ redis: chunk.toString().trim() }, 'embedded redis'),
    );
    proc.stderr?.on('data', (chunk: Buffer) =>
      logger.warn({ redis: chunk.toString().trim() }, 'embedded redis'),
    );
    const spawnFailed = once(proc, 'error').then(([err]) => {
      throw (err as NodeJS.ErrnoException).code === 'ENOENT' ? new RedisBinaryMissingError(bin) : err;
    });
    const exitedEarly = once(proc, 'exit').then(([code]) => {
      throw new Error(`redis-server exited with code ${code} while starting; see the log above`);
    });
    await Promise.race([waitForPong(socketPath, READY_TIMEOUT_MS), spawnFailed, exitedEarly]);
    fs.writeFileSync(path.join(dir, PID_FILE), `${proc.pid} ${process.pid}\n`);
    proc.on('exit', (code, signal) => {
      if (stopping || child !== proc) return;
      const delay = Math.min(100 * 2 ** restarts, 5000);
      restarts++;
      logger.error({ code, signal, restartInMs: delay }, 'embedded redis exited unexpectedly; restarting');
      restartTimer = setTimeout(() => relaunch(), delay);
    });
  };

  const relaunch = (): void => {
    launch().then(
      () => {
        logger.info('embedded redis is back');
        // Reset the backoff once Redis stayed up for a while.
        setTimeout(() => {
          restarts = 0;
        }, 10_000).unref();
      },
      (err) => {
        if (stopping) return;
        const delay = Math.min(100 * 2 ** restarts++, 5000);
        logger.error({ err, restartInMs: delay }, 'embedded redis failed to restart');
        restartTimer = setTimeout(relaunch, delay);
      },
    );
  };

  try {
    await launch();
  } catch (err) {
    child?.kill('SIGKILL');
    fs.rmSync(socketDir, { recursive: true, force: true });
    throw err;
  }
  logger.info({ dir, socketPath }, 'embedded redis started');

  return {
    socketPath,
    get pid() {
      return child?.pid;
    },
    async stop() {
      stopping = true;
      clearTimeout(restartTimer);
      const proc = child;
      if (proc && proc.exitCode === null && proc.signalCode === null) {
        // SIGTERM makes Redis fsync the append-only file and exit cleanly.
        const exited = once(proc, 'exit');
        proc.kill('SIGTERM');
        const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      fs.rmSync(socketDir, { recursive: true, force: true });
      fs.rmSync(path.join(dir, PID_FILE), { force: true });
    },
  };
}

/**
 * A server killed with SIGKILL leaves its redis-server running on the data folder. Stop that orphan
 * (gracefully, so its writes are flushed) before starting ours; refuse if its owner is still alive.
 */
async function reclaimDataDir(dir: string, logger: Logger): Promise<void> {
  let content: string;
  try {
    content = fs.readFileSync(path.join(dir, PID_FILE), 'utf8');
  } catch {
    return;
  }
  const [redisPid, ownerPid] = content.trim().split(/\s+/).map(Number);
  if (!redisPid || !isRedisProcess(redisPid)) return;
  if (ownerPid && ownerPid !== process.pid && isAlive(ownerPid)) {
    throw new Error(`the data folder ${dir} is in use by another server (pid ${ownerPid})`);
  }
  logger.warn({ pid: redisPid }, 'stopping an orphaned embedded redis left by a previous run');
  process.kill(redisPid, 'SIGTERM');
  for (let waited = 0; isAlive(redisPid); waited += 50) {
    if (waited > 10_000) process.kill(redisPid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isRedisProcess(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('redis-server');
  } catch {
    return isAlive(pid); // no /proc (macOS): trust the pid file
  }
}

/** Polls the socket with PING until Redis answers PONG (it answers LOADING while replaying the AOF). */
async function waitForPong(socketPath: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await pingOnce(socketPath)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`redis-server did not answer on ${socketPath} within ${timeoutMs} ms`);
}

function pingOnce(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}
