import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { DEFAULTS } from '../defaults.ts';

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

/** The embedded Redis cannot start, for a reason the operator must fix: its message says how. */
export class EmbeddedRedisStartError extends Error {}

export class RedisBinaryMissingError extends EmbeddedRedisStartError {
  constructor(bin: string) {
    super(
      `could not run "${bin}". Install Redis (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis), ` +
        'point REDIS_SERVER_BIN at the binary, or set REDIS_URL to use a Redis you run yourself.',
    );
  }
}

const PID_FILE = 'embedded-redis.pid';

/**
 * Starts a redis-server child that keeps its data in `dir` with `appendfsync always` (every
 * acknowledged write is on disk) and listens only on a unix socket in a private 0700 folder.
 * If the child dies unexpectedly it is restarted with backoff; clients reconnect to the same socket.
 */
export async function startEmbeddedRedis(options: EmbeddedRedisOptions): Promise<EmbeddedRedis> {
  const { bin, logger } = options;
  const dir = path.resolve(options.dir);
  secureDataDir(dir);
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
    // Keeps the command line as given, so it names this folder (--dir): see reclaimDataDir.
    '--set-proc-title', 'no',
  ];

  let child: ChildProcess | undefined;
  let stopping = false;
  let restarts = 0;
  let restartTimer: NodeJS.Timeout | undefined;

  const launch = async (): Promise<void> => {
    // Redis creates its files with the umask it inherits: 077 makes the data 0600.
    const umask = process.umask(0o077);
    let proc: ChildProcess;
    try {
      proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    } finally {
      process.umask(umask);
    }
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
    await Promise.race([waitForPong(socketPath, DEFAULTS.embeddedReadyTimeoutMs), spawnFailed, exitedEarly]);
    writePidFile(dir, `${proc.pid} ${process.pid}\n`);
    proc.on('exit', (code, signal) => {
      if (stopping || child !== proc) return;
      const delay = Math.min(DEFAULTS.restartFirstDelayMs * 2 ** restarts, DEFAULTS.restartMaxDelayMs);
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
        }, DEFAULTS.restartStableAfterMs).unref();
      },
      (err) => {
        if (stopping) return;
        const delay = Math.min(DEFAULTS.restartFirstDelayMs * 2 ** restarts++, DEFAULTS.restartMaxDelayMs);
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
        const timer = setTimeout(() => proc.kill('SIGKILL'), DEFAULTS.embeddedStopTimeoutMs);
        await exited;
        clearTimeout(timer);
      }
      fs.rmSync(socketDir, { recursive: true, force: true });
      fs.rmSync(path.join(dir, PID_FILE), { force: true });
    },
  };
}

const currentUid = () => process.getuid?.();

/**
 * The folder holds the data and the pid file the next start acts on, so nobody else may have had a
 * hand in it: created 0700; refused when it is a symbolic link, belongs to another user, or is
 * writable by group or others (someone could have planted an append-only file or a pid file).
 * A folder of an earlier version (0755, files 0644) is tightened to 0700 and 0600.
 */
export function secureDataDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const refuse = (what: string, why: string) => {
    throw new EmbeddedRedisStartError(
      `refusing to use the embedded Redis folder: ${what} ${why}. It holds the data and the pid file ` +
        'of the embedded Redis, so nobody else may be able to change it: point DATA_DIR at a folder of ' +
        'your own (or remove this one), or set REDIS_URL to use a Redis you run yourself.',
    );
  };
  const check = (file: string, isRoot: boolean) => {
    const stat = fs.lstatSync(file);
    if (stat.isSymbolicLink()) refuse(file, 'is a symbolic link');
    const uid = currentUid();
    if (uid !== undefined && stat.uid !== uid)
      refuse(file, `belongs to uid ${stat.uid}, not to this user (uid ${uid})`);
    if (isRoot && (stat.mode & 0o022) !== 0)
      refuse(file, `is writable by group or others (mode ${(stat.mode & 0o777).toString(8)})`);
    const mode = stat.isDirectory() ? 0o700 : 0o600;
    if ((stat.mode & 0o777) !== mode) fs.chmodSync(file, mode);
    return stat;
  };
  check(dir, true);
  for (const entry of fs.readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (check(full, false).isDirectory())
      for (const inner of fs.readdirSync(full)) check(path.join(full, inner), false);
  }
}

/** The pid file is written and read without following a symbolic link (O_NOFOLLOW). */
function writePidFile(dir: string, content: string): void {
  const { O_WRONLY, O_CREAT, O_TRUNC, O_NOFOLLOW } = fs.constants;
  const fd = fs.openSync(path.join(dir, PID_FILE), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0o600);
  try {
    fs.writeSync(fd, content);
  } finally {
    fs.closeSync(fd);
  }
}

function readPidFile(dir: string): string | undefined {
  let fd: number;
  try {
    fd = fs.openSync(path.join(dir, PID_FILE), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') {
      throw new EmbeddedRedisStartError(
        `refusing to use the embedded Redis folder: ${path.join(dir, PID_FILE)} is a symbolic link. Remove it.`,
      );
    }
    throw err;
  }
  try {
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A server killed with SIGKILL leaves its redis-server running on the data folder. Stop that orphan
 * (gracefully, so its writes are flushed) before starting ours; refuse if its owner is still alive.
 * A recorded pid is acted on only when that process is a redis-server of this very folder: a stale or
 * planted pid file must not make the start stop an unrelated process.
 */
async function reclaimDataDir(dir: string, logger: Logger): Promise<void> {
  const content = readPidFile(dir);
  if (content === undefined) return;
  const [redisPid, ownerPid] = content.trim().split(/\s+/).map(Number);
  if (!redisPid || !Number.isInteger(redisPid) || redisPid <= 1 || !isAlive(redisPid)) return;
  if (!isRedisOfFolder(redisPid, dir)) {
    logger.warn(
      { pid: redisPid },
      'ignoring the pid file: that process is not an embedded redis of this folder',
    );
    return;
  }
  if (ownerPid && ownerPid !== process.pid && isAlive(ownerPid)) {
    throw new EmbeddedRedisStartError(`the data folder ${dir} is in use by another server (pid ${ownerPid})`);
  }
  logger.warn({ pid: redisPid }, 'stopping an orphaned embedded redis left by a previous run');
  process.kill(redisPid, 'SIGTERM');
  for (let waited = 0; isAlive(redisPid); waited += 50) {
    if (waited > DEFAULTS.embeddedStopTimeoutMs) process.kill(redisPid, 'SIGKILL');
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

/**
 * True when `pid` is a redis-server whose command line names `dir` (`--dir <dir>`, as this module
 * starts it). A redis-server of an earlier version, which rewrote its command line, is recognised by
 * its working folder, which Redis sets to its `dir`.
 */
export function isRedisOfFolder(pid: number, dir: string): boolean {
  const args = commandLine(pid);
  if (!args.some((arg) => arg.includes('redis-server'))) return false;
  const at = args.indexOf('--dir');
  if (at !== -1) return args[at + 1] === dir;
  try {
    return fs.realpathSync(`/proc/${pid}/cwd`) === fs.realpathSync(dir);
  } catch {
    return false;
  }
}

function commandLine(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    // No /proc (macOS): ps prints the arguments joined by spaces (a folder with a space will not match).
    try {
      return execFileSync('ps', ['-ww', '-o', 'command=', '-p', String(pid)], { encoding: 'utf8' })
        .trim()
        .split(' ');
    } catch {
      return [];
    }
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
