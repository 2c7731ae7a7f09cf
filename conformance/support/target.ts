/**
 * Where the suite sends its requests, and how it gets fresh instances.
 *
 * - CONFORMANCE_BASE_URL: a running implementation (its {base_url}). Nothing is started.
 * - CONFORMANCE_START_COMMAND: a shell command with {port} and {data} placeholders. The suite starts
 *   instances itself (a free port, a fresh data folder), waits until they answer, stops them with
 *   SIGTERM. Used for the shared target when no URL is given, and for every fresh or restarted instance.
 * - Neither: the reference server of this repository on its own Redis (testcontainers where a container
 *   runtime answers, else a local redis-server on a free port).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type Mode = 'reference' | 'command' | 'url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const START_TIMEOUT_MS = Number(process.env.CONFORMANCE_START_TIMEOUT_MS || 30_000);

export interface Instance {
  url: string;
  /** Stops the process (SIGTERM) and starts it again on the same port with the same data. */
  restart(): Promise<void>;
  /** Stops the process and removes what was created for it. */
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Resolves once the base URL answers any HTTP response (on a path that touches no collection). */
export async function waitUntilAnswering(
  baseUrl: string,
  timeoutMs = START_TIMEOUT_MS,
  exited?: () => string | undefined,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  for (;;) {
    const gone = exited?.();
    if (gone) throw new Error(gone);
    try {
      const res = await fetch(`${baseUrl.replace(/\/$/, '')}/conformance-readiness-probe`, {
        signal: AbortSignal.timeout(2000),
      });
      await res.arrayBuffer();
      return;
    } catch (err) {
      lastError = (err as Error).message;
    }
    if (Date.now() > deadline)
      throw new Error(`${baseUrl} did not answer within ${timeoutMs} ms (${lastError})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Spawned {
  child: ChildProcess;
  output: () => string;
  exitMessage: () => string | undefined;
}

function spawnShell(command: string, env: NodeJS.ProcessEnv): Spawned {
  // Own process group, so SIGTERM reaches the implementation and not only the shell.
  const child = spawn('/bin/sh', ['-c', command], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.on('error', (err) => keep(Buffer.from(String(err))));
  return {
    child,
    output: () => output,
    exitMessage: () =>
      child.exitCode !== null || child.signalCode !== null
        ? `the command exited (${child.exitCode ?? child.signalCode}) before answering: ${command}\n${output}`
        : undefined,
  };
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = once(child, 'exit');
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), signal);
    } catch {
      child.kill(signal);
    }
  };
  signalGroup('SIGTERM');
  const timer = setTimeout(() => signalGroup('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts `command` through the shell with {port} and {data} replaced; `env` is added to its
 * environment. `onStop` runs after the final stop (for example to stop a Redis).
 */
export async function startCommandInstance(
  template: string,
  env: NodeJS.ProcessEnv = {},
  onStop?: () => Promise<void>,
): Promise<Instance> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-data-'));
  let port = 0;
  let current: Spawned | undefined;
  const launch = async () => {
    const command = template.replaceAll('{port}', String(port)).replaceAll('{data}', dataDir);
    current = spawnShell(command, { PORT: String(port), DATA_DIR: dataDir, ...env });
    try {
      await waitUntilAnswering(`http://127.0.0.1:${port}`, START_TIMEOUT_MS, current.exitMessage);
      // An answer from a process that has already exited came from somebody else on that port.
      const gone = current.exitMessage();
      if (gone) throw new Error(gone);
    } catch (err) {
      await terminate(current.child);
      throw err;
    }
  };
  // The port was free a moment ago; if the implementation could not have it, try once more with another.
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      await launch();
      break;
    } catch (err) {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (attempt >= 2) throw err;
      fs.mkdirSync(dataDir); // empty again: the next attempt is a fresh instance too
    }
  }
  return {
    url: `http://127.0.0.1:${port}`,
    async restart() {
      if (current) await terminate(current.child);
      await launch();
    },
    async stop() {
      if (current) await terminate(current.child);
      current = undefined;
      fs.rmSync(dataDir, { recursive: true, force: true });
      await onStop?.();
    },
  };
}

/** The reference server of this repository on a Redis of its own. */
export async function startReferenceInstance(): Promise<Instance> {
  const built = path.join(REPO_ROOT, 'dist/server/src/main.js');
  const command = fs.existsSync(built) ? `exec node "${built}"` : 'exec tsx server/src/main.ts';
  const { startTestRedis } = await import('../../server/test/support/redis.ts');
  const redis = await startTestRedis();
  try {
    return await startCommandInstance(
      command,
      { HOST: '127.0.0.1', REDIS_URL: redis.url, LOG_LEVEL: process.env.CONFORMANCE_LOG_LEVEL || 'warn' },
      () => redis.stop(),
    );
  } catch (err) {
    await redis.stop();
    throw err;
  }
}

export interface ResolvedTarget {
  mode: Mode;
  baseUrl: string;
  description: string;
  /** Why fresh instances cannot be had; undefined when they can. */
  noFreshReason: string | undefined;
}

/** Read in the workers: global setup resolved the target and left it in the environment. */
export function resolvedTarget(): ResolvedTarget {
  const baseUrl = process.env.CONFORMANCE_RESOLVED_URL;
  const mode = process.env.CONFORMANCE_RESOLVED_MODE as Mode | undefined;
  if (!baseUrl || !mode)
    throw new Error('the conformance target is not resolved (run through playwright.config.ts)');
  return {
    mode,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    description: process.env.CONFORMANCE_RESOLVED_DESCRIPTION || baseUrl,
    noFreshReason: canStartFresh()
      ? undefined
      : 'needs an instance the suite starts itself (fresh, or to restart): the target is only a URL; set CONFORMANCE_START_COMMAND (with {port} and {data})',
  };
}

export function canStartFresh(): boolean {
  return !process.env.CONFORMANCE_BASE_URL || Boolean(process.env.CONFORMANCE_START_COMMAND);
}

/** A fresh instance: from the start command when given, else the reference server on a new Redis. */
export function startFreshInstance(): Promise<Instance> {
  const command = process.env.CONFORMANCE_START_COMMAND;
  if (command) return startCommandInstance(command);
  if (process.env.CONFORMANCE_BASE_URL) throw new Error('no way to start a fresh instance');
  return startReferenceInstance();
}
