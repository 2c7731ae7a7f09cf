/**
 * The one launcher of `redis-server` for tests, benches and topologies: starts the binary
 * (REDIS_SERVER_BIN or the one on PATH) with the caller's arguments, waits until it is ready, and stops it
 * by its pid. What to start (ports, data folder, append-only file, sentinel, cluster) is the caller's.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';

/** The redis-server binary: REDIS_SERVER_BIN, else the one on PATH. */
export const redisServerBin = (): string => process.env.REDIS_SERVER_BIN || 'redis-server';

/** What `redis-server --version` says its version is ('unknown' when it cannot be run). */
export function redisServerVersion(): Promise<string> {
  return new Promise((resolve) =>
    execFile(redisServerBin(), ['--version'], (_err, stdout) =>
      resolve(/v=(\S+)/.exec(stdout ?? '')?.[1] ?? 'unknown'),
    ),
  );
}

export interface RedisServerProcess {
  readonly proc: ChildProcess;
  readonly pid: number | undefined;
  /** Its standard output and error so far (empty of the log when it logs to a --logfile). */
  output(): string;
  /** Sends `signal` (default SIGTERM) and resolves once it has exited; SIGKILL after `killAfterMs` if given. */
  stop(signal?: NodeJS.Signals, killAfterMs?: number): Promise<void>;
}

export interface LaunchOptions {
  cwd?: string;
  /**
   * When it counts as ready: 'output' (default), once it prints "ready to accept connections"; a port,
   * once it answers PING on 127.0.0.1 at that port (for a process that logs to a --logfile).
   */
  readyOn?: 'output' | { port: number };
  /** Gives up (SIGKILL) after this long without being ready; default: as long as it runs. */
  timeoutMs?: number;
  /** Named in the error when it gives up (default: `redis-server`). */
  what?: string;
  /** Called with the child as soon as it is spawned (e.g. to be killed with the caller's other children). */
  onSpawn?: (proc: ChildProcess) => void;
}

/** redis-server exited, or was not ready in time, before it was ready; `output` says why (e.g. "Address already in use"). */
export class RedisStartError extends Error {
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(message);
  }
}

/** Redis 7 says `Ready to accept connections tcp`, or with a unix socket alone `… now ready to accept connections at …`. */
const READY = /ready to accept connections/i;

/**
 * Starts `redis-server ...args` and resolves once it is ready. Rejects with a RedisStartError (the
 * process stopped with SIGKILL) when it exits or times out first, or with an Error when the binary cannot
 * be run.
 */
export async function launchRedisServer(
  args: string[],
  options: LaunchOptions = {},
): Promise<RedisServerProcess> {
  const bin = redisServerBin();
  const proc = spawn(bin, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  options.onSpawn?.(proc);
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk;
  };
  proc.stdout?.on('data', collect);
  proc.stderr?.on('data', collect);
  const handle: RedisServerProcess = {
    proc,
    pid: proc.pid,
    output: () => output,
    stop: (signal = 'SIGTERM', killAfterMs) => stopChildProcess(proc, signal, killAfterMs),
  };
  const readyOn = options.readyOn ?? 'output';
  const ready = await Promise.race([
    readyOn === 'output'
      ? waitForOutput(proc, () => output, READY, options.timeoutMs)
      : waitForPing(proc, readyOn.port, options.timeoutMs),
    once(proc, 'error').then(([err]) => {
      throw new Error(
        `could not start ${bin}: ${(err as Error).message}. Install redis-server or set REDIS_SERVER_BIN.`,
      );
    }),
  ]);
  if (ready === 'ready') return handle;
  await handle.stop('SIGKILL');
  const what = options.what ?? 'redis-server';
  const why =
    ready === 'exited'
      ? `exited (${proc.exitCode ?? proc.signalCode})`
      : `timed out after ${options.timeoutMs} ms`;
  throw new RedisStartError(`${what} did not start: ${why}:\n${output}`, output);
}

type Readiness = 'ready' | 'exited' | 'timeout';

const hasExited = (proc: ChildProcess) => proc.exitCode !== null || proc.signalCode !== null;

/** Resolves 'ready' once `marker` appears in the output, 'exited' if the process exits first. */
function waitForOutput(
  proc: ChildProcess,
  output: () => string,
  marker: RegExp,
  timeoutMs: number | undefined,
): Promise<Readiness> {
  return new Promise((resolve) => {
    const finish = (readiness: Readiness) => {
      proc.stdout?.off('data', check);
      proc.off('exit', onExit);
      clearTimeout(timer);
      resolve(readiness);
    };
    const check = () => {
      if (marker.test(output())) finish('ready');
    };
    const onExit = () => finish('exited');
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => finish('timeout'), timeoutMs);
    proc.stdout?.on('data', check);
    proc.on('exit', onExit);
    check();
  });
}

async function waitForPing(
  proc: ChildProcess,
  port: number,
  timeoutMs: number | undefined,
): Promise<Readiness> {
  const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
  for (;;) {
    if (hasExited(proc)) return 'exited';
    if (await pingRedis('127.0.0.1', port)) return 'ready';
    if (Date.now() > deadline) return 'timeout';
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Whether a Redis answers PING (or asks for a password) on host:port within a second. */
export function pingRedis(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (answered: boolean) => {
      socket.destroy();
      resolve(answered);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('close', () => done(false));
    socket.once('data', (data) => done(/^(\+PONG|-NOAUTH)/.test(data.toString())));
    socket.write('PING\r\n');
  });
}

/** Sends `signal` to a child and resolves once it has exited; SIGKILL after `killAfterMs` if given. */
export async function stopChildProcess(
  proc: ChildProcess,
  signal: NodeJS.Signals = 'SIGTERM',
  killAfterMs?: number,
): Promise<void> {
  if (hasExited(proc)) return;
  const exited = once(proc, 'exit');
  proc.kill(signal);
  const timer = killAfterMs === undefined ? undefined : setTimeout(() => proc.kill('SIGKILL'), killAfterMs);
  await exited;
  clearTimeout(timer);
}
