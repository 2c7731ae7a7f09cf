/**
 * Processes the benchmark starts and owns: redis-servers in temporary folders (TCP on a free loopback
 * port or a unix socket, never the shared 6379) and Node servers. Every one is stopped by its pid.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startLocalRedis } from '../testing/redis.ts';
import { stopChildProcess } from '../testing/redis-server.ts';

const children = new Set<ChildProcess>();

/** Kills every child this process started (by pid), e.g. on Ctrl-C or a watchdog. */
export function killAllChildren(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/**
 * Runs a bench's `main` as the whole process: every child it started is killed when main ends, fails,
 * is interrupted, or runs past `watchdogMs` (a hung bench must not leave servers behind).
 */
export function runBenchMain(name: string, main: () => Promise<void>, watchdogMs: number): void {
  const watchdog = setTimeout(() => {
    console.error(`${name}: watchdog expired, stopping`);
    killAllChildren();
    process.exit(2);
  }, watchdogMs);
  watchdog.unref();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      killAllChildren();
      process.exit(130);
    });
  }
  main().then(
    () => {
      killAllChildren();
      process.exit(0);
    },
    (err) => {
      console.error(err);
      killAllChildren();
      process.exit(1);
    },
  );
}

export type Fsync = 'off' | 'everysec' | 'always';

export interface BenchRedis {
  /** redis://127.0.0.1:port or the unix socket path (ioredis accepts both as a URL). */
  url: string;
  host: string;
  port: number;
  socketPath: string | undefined;
  pid: number;
  stop(): Promise<void>;
}

/** A fresh redis-server in its own temporary folder (the kit's launcher). `fsync: 'off'` = no append-only file. */
export async function startRedis(options: { fsync: Fsync; unixSocket?: boolean }): Promise<BenchRedis> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'usersvc-bench-redis-'));
  const redis = await startLocalRedis({
    dir,
    appendOnly: options.fsync !== 'off',
    ...(options.fsync === 'off' ? {} : { appendFsync: options.fsync }),
    unixSocket: options.unixSocket,
    readyTimeoutMs: 10_000,
    killAfterMs: 10_000,
    onSpawn: (proc) => {
      children.add(proc);
      proc.once('exit', () => children.delete(proc));
    },
  }).catch((err) => {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  return {
    url: redis.url,
    host: redis.host,
    port: redis.port,
    socketPath: redis.socketPath,
    pid: redis.pid as number,
    async stop() {
      await redis.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface NodeServer {
  name: string;
  url: string;
  pid: number;
  /** The child itself: with `ipc`, its message channel (process.send / 'message'). */
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `node [flags] script` with env and waits until it answers HTTP on `port`; `ipc`: with a message channel. */
export async function startNode(
  name: string,
  script: string,
  port: number,
  env: Record<string, string>,
  nodeFlags: string[] = [],
  options: { ipc?: boolean } = {},
): Promise<NodeServer> {
  const proc = spawn(process.execPath, [...nodeFlags, script], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: options.ipc ? ['ignore', 'ignore', 'pipe', 'ipc'] : ['ignore', 'ignore', 'pipe'],
  });
  children.add(proc);
  let stderr = '';
  proc.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${name} exited with ${proc.exitCode}:\n${stderr}`);
    try {
      await fetch(`${url}/bench-probe`, { signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${name} did not answer on ${url}:\n${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { name, url, pid: proc.pid as number, child: proc, stop: () => stopChild(proc) };
}

/** A numeric field of /proc/<pid>/status (Linux; NaN elsewhere, or when the process is gone). */
function statusField(pid: number, name: string): number {
  try {
    const match = new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Resident set size of a process in MiB (Linux /proc; NaN elsewhere). */
export const rssMiB = (pid: number): number => statusField(pid, 'VmRSS') / 1024;

/** Times the kernel took a process's core while it had work so far (involuntary context switches). */
export const preemptions = (pid: number): number => statusField(pid, 'nonvoluntary_ctxt_switches');

/** CPU time (user + system) a process has used so far, in ms (Linux /proc; NaN elsewhere). */
export function cpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command: state is field 3, utime field 14 and stime field 15 (in clock ticks of 10 ms).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** The processes `pid` started (children, grandchildren, …), from the parent pids in /proc (Linux). */
export function descendantPids(pid: number): number[] {
  const parentOf = new Map<number, number>();
  try {
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      } catch {
        // ended meanwhile
      }
    }
  } catch {
    return [];
  }
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of parentOf) {
      if (ppid !== parent) continue;
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

/**
 * Runs `load` and adds the CPU time the process `pid` (or the processes, summed) spent per request,
 * in µs. A process that ends during the load takes its CPU time with it (the figure is then low).
 */
export async function withCpuPerRequest<R extends { requests: { total: number } }>(
  pid: number | number[],
  load: () => Promise<R>,
): Promise<{ result: R; cpuUsPerReq: number }> {
  const pids = typeof pid === 'number' ? [pid] : pid;
  const total = () => pids.reduce((sum, p) => sum + cpuMs(p), 0);
  const before = total();
  const result = await load();
  return { result, cpuUsPerReq: ((total() - before) * 1000) / Math.max(1, result.requests.total) };
}

async function stopChild(proc: ChildProcess): Promise<void> {
  await stopChildProcess(proc, 'SIGTERM', 10_000);
  children.delete(proc);
}
