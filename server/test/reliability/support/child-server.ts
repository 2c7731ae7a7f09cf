import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../../../testing/free-port.ts';
import { waitForStatus } from '../../../../testing/http.ts';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const DIST_MAIN = path.join(ROOT, 'dist/server/src/main.js');
const BUILD_STAMP = path.join(ROOT, 'dist/.build-stamp');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * The command `make run` execs (`node dist/server/src/main.js`) when the build is current; the same
 * program from the TypeScript sources (`node --import tsx`, one process) when it is not.
 */
export function serverCommand(): { args: string[]; label: string } {
  try {
    if (fs.statSync(BUILD_STAMP).mtimeMs >= newestSource(path.join(ROOT, 'server/src'))) {
      return { args: [DIST_MAIN], label: 'node dist/server/src/main.js' };
    }
  } catch {
    // no build
  }
  return {
    args: ['--import', 'tsx', path.join(ROOT, 'server/src/main.ts')],
    label: 'node --import tsx server/src/main.ts',
  };
}

export interface ChildServer {
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly proc: ChildProcess;
  readonly pid: number;
  /** Output of the process so far (pino JSON lines). */
  output(): string;
  /** `[redisPid, serverPid]` from the embedded Redis pid file. */
  pidFile(): [number, number] | undefined;
  /** Resolves with the exit code/signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
}

export interface ChildServerOptions {
  port?: number;
  dataDir?: string;
  env?: Record<string, string>;
  readyTimeoutMs?: number;
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Starts the real server as a child process and waits until /readyz answers 200. */
export async function startChildServer(options: ChildServerOptions = {}): Promise<ChildServer> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? tempDir('usersvc-rel-data-');
  const { args } = serverCommand();
  const proc = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...(process.env.REDIS_SERVER_BIN ? { REDIS_SERVER_BIN: process.env.REDIS_SERVER_BIN } : {}),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout?.on('data', (c) => {
    out += c;
  });
  proc.stderr?.on('data', (c) => {
    out += c;
  });
  const exited = once(proc, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  const url = `http://127.0.0.1:${port}`;
  const child: ChildServer = {
    url,
    port,
    dataDir,
    proc,
    pid: proc.pid!,
    output: () => out,
    pidFile() {
      try {
        const [a, b] = fs
          .readFileSync(path.join(dataDir, 'redis', 'embedded-redis.pid'), 'utf8')
          .trim()
          .split(/\s+/)
          .map(Number);
        return a && b ? [a, b] : undefined;
      } catch {
        return undefined;
      }
    },
    exited,
    kill(signal) {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
    },
  };
  const died = exited.then(({ code, signal }) => {
    throw new Error(`server exited (${code ?? signal}) while starting:\n${out.slice(-2000)}`);
  });
  try {
    await Promise.race([waitForStatus(`${url}/readyz`, 200, options.readyTimeoutMs ?? 30_000), died]);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  died.catch(() => {});
  return child;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Stops a child server (SIGTERM, then SIGKILL), its embedded Redis if orphaned, and removes its data. */
export async function disposeChildServer(child: ChildServer | undefined, removeData = true): Promise<void> {
  if (!child) return;
  const redisPid = child.pidFile()?.[0];
  if (child.proc.exitCode === null && child.proc.signalCode === null) {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await child.exited;
    clearTimeout(timer);
  }
  if (redisPid && isRedis(redisPid)) process.kill(redisPid, 'SIGKILL');
  if (removeData) fs.rmSync(child.dataDir, { recursive: true, force: true });
}

export function isRedis(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('redis-server');
  } catch {
    return false;
  }
}

export async function sleep(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}
