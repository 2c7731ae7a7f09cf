/**
 * Where the suite sends its requests, and how it gets fresh instances.
 *
 * - CONFORMANCE_BASE_URL (--base-url): a running implementation (its {base_url}). Nothing is started.
 * - CONFORMANCE_START_COMMAND (--start): a shell command with {port} and {data} placeholders, run from
 *   the caller's working directory. The suite starts instances itself (a free port, a fresh data
 *   folder), waits until they answer, stops them (support/process.ts). Used for the shared target when
 *   no URL is given, and for every fresh or restarted instance.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setting } from './options.mjs';
import {
  groupMembers,
  type Launched,
  launch,
  listenerOwner,
  portAccepting,
  probe,
  stopGroup,
} from './process.ts';

export type Mode = 'command' | 'url';

const START_TIMEOUT_MS = Number(setting('CONFORMANCE_START_TIMEOUT_MS'));
/** How long a stopped implementation may take to end before it gets SIGKILL. */
const STOP_TIMEOUT_MS = Number(setting('CONFORMANCE_STOP_TIMEOUT_MS'));

/** A start that never answered: trying again on another port would only double the wait. */
class NoAnswer extends Error {}

/**
 * Groups started by this process and not stopped yet. Should a worker end without its cleanups (a rule
 * that timed out, a crash), they are killed with it rather than left running detached.
 */
const running = new Set<number>();
const killRunning = () => {
  for (const pgid of running) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {}
  }
};
process.once('exit', killRunning);
// A SIGTERM ends a process without running its 'exit' handlers. Where nothing else handles it (the
// runner, which holds the shared instance; Playwright's workers ignore the signal and end with the
// runner), the groups are killed first, then the process ends as the signal would have ended it. The
// listener stays until the groups are killed: a run ended by SIGTERM to its process group gets a second
// one from the CLI, which passes the signal on, and with no listener left that one ended the runner
// before its instance was killed (`once` removes the listener before calling it).
if (process.listenerCount('SIGTERM') === 0)
  process.on('SIGTERM', function endOnSigterm() {
    killRunning();
    process.off('SIGTERM', endOnSigterm);
    process.kill(process.pid, 'SIGTERM');
  });

/** Receives what a rule should report about its instance (a stop that needed SIGKILL). */
export type Warn = (text: string) => void;

export interface Instance {
  url: string;
  /** Stops every process of the instance and starts it again on the same port with the same data. */
  restart(): Promise<void>;
  /** Stops every process of the instance and removes its data folder. */
  stop(): Promise<void>;
  /** Set once the instance exited by itself, not stopped by the suite: what to report. */
  exited(): string | undefined;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * How long a base URL may refuse connections before the run gives up on it: a target said to be running
 * that nothing listens at is reported in seconds, not after CONFORMANCE_START_TIMEOUT_MS (which still
 * bounds a target that accepts connections and does not answer yet).
 */
export const REFUSED_GIVE_UP_MS = 5_000;

/** Resolves once the base URL answers any HTTP response (on a path that touches no collection). */
export async function waitUntilAnswering(
  baseUrl: string,
  timeoutMs = START_TIMEOUT_MS,
  refusedGiveUpMs = Number.POSITIVE_INFINITY,
): Promise<void> {
  const started = Date.now();
  const deadline = started + timeoutMs;
  let lastError = '';
  for (;;) {
    try {
      const res = await fetch(`${baseUrl.replace(/\/$/, '')}/conformance-readiness-probe`, {
        signal: AbortSignal.timeout(2000),
      });
      await res.arrayBuffer();
      return;
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      // A port on fetch's list of ports it never connects to (9, 25, 6000, ...): no wait makes it answer.
      if (cause?.message === 'bad port')
        throw new Error(
          `${baseUrl}: fetch never connects to this port (the Fetch standard's "bad ports"); use another`,
        );
      lastError = cause?.code ?? (err as Error).message;
      if (cause?.code === 'ECONNREFUSED' && Date.now() - started >= refusedGiveUpMs)
        throw new Error(
          `nothing accepts connections at ${baseUrl} (refused for ${refusedGiveUpMs / 1000} s)`,
        );
    }
    if (Date.now() > deadline)
      throw new Error(`${baseUrl} did not answer within ${timeoutMs} ms (${lastError})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The folder the start command runs in: the caller's (the CLI passes it on). */
export function commandCwd(): string {
  return process.env.CONFORMANCE_CWD || process.cwd();
}

/**
 * Launches the command on `port` and waits until the new process group answers there. The port must
 * refuse connections first; the answer must come from a listener of the new group.
 */
async function startOn(template: string, port: number, dataDir: string): Promise<Launched> {
  if (await portAccepting(port))
    throw new Error(`port ${port} accepts connections before the start: another process holds it`);
  const command = template.replaceAll('{port}', String(port)).replaceAll('{data}', dataDir);
  const launched = launch(command, { PORT: String(port), DATA_DIR: dataDir }, commandCwd());
  running.add(launched.pgid);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  let lastError = '';
  try {
    for (;;) {
      const { child } = launched;
      const ended = child.exitCode !== null || child.signalCode !== null;
      // The shell may hand over to a process it forked, but once no process of the group is left,
      // nothing of this start can answer any more.
      if (ended && !groupAlive(launched))
        throw new Error(
          `the command exited (${child.exitCode ?? child.signalCode}) before answering: ${command}\n${launched.output()}`,
        );
      const answered = await probe(url).then(
        () => true,
        (err: Error) => {
          lastError = err.message;
          return false;
        },
      );
      if (answered) {
        const found = listenerOwner(port, launched.pgid);
        if (found.owner === 'no')
          throw new Error(
            `port ${port} is answered by process ${found.holder}, which is not of the started command's process group: ${command}`,
          );
        if (found.owner === 'unknown' && !groupAlive(launched))
          throw new Error(
            `the command ended, yet port ${port} answers: not the started process (${command})`,
          );
        return launched;
      }
      if (Date.now() > deadline)
        throw new NoAnswer(
          `\`${command}\` did not answer on ${url} within ${START_TIMEOUT_MS} ms (${lastError})\n${launched.output()}`,
        );
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (err) {
    await stop(launched, port).catch(() => undefined);
    throw err;
  }
}

async function stop(launched: Launched, port: number): Promise<string | undefined> {
  const { forced } = await stopGroup(launched, port, STOP_TIMEOUT_MS);
  running.delete(launched.pgid);
  return forced;
}

const groupAlive = (launched: Launched) => groupMembers(launched.pgid).length > 0;

/**
 * Starts `template` through the shell with {port} (a free port) and {data} (a fresh empty folder)
 * replaced, also given as PORT and DATA_DIR. `warn` receives what the instance's rule should report.
 */
export async function startCommandInstance(
  template: string,
  warn: Warn = () => {},
  onExit: (text: string) => void = () => {},
): Promise<Instance> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-data-'));
  let port = 0;
  let current: Launched | undefined;
  // The port was free a moment ago; if somebody took it meanwhile, try once more on another.
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      current = await startOn(template, port, dataDir);
      break;
    } catch (err) {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (attempt >= 2 || err instanceof NoAnswer) throw err;
      fs.mkdirSync(dataDir); // empty again: the next attempt is a fresh instance too
    }
  }
  let exitNote: string | undefined;
  // An exit the suite did not ask for: the rules then say so rather than "connection refused".
  const watch = (launched: Launched) =>
    launched.child.once('exit', (code, signal) => {
      if (current !== launched) return;
      exitNote = `the implementation exited (${code !== null ? `code ${code}` : signal}) during the run`;
      onExit(exitNote);
    });
  watch(current);
  const stopCurrent = async () => {
    const launched = current;
    current = undefined;
    if (!launched) return;
    const forced = await stop(launched, port);
    if (forced) warn(forced);
  };
  return {
    url: `http://127.0.0.1:${port}`,
    async restart() {
      await stopCurrent();
      current = await startOn(template, port, dataDir);
      watch(current);
    },
    async stop() {
      try {
        await stopCurrent();
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    exited: () => exitNote,
  };
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
  if (!baseUrl || !mode) throw new Error('the conformance target is not resolved (run through the CLI)');
  return {
    mode,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    description: process.env.CONFORMANCE_RESOLVED_DESCRIPTION || baseUrl,
    noFreshReason: process.env.CONFORMANCE_START_COMMAND
      ? undefined
      : 'needs an instance the suite starts itself (fresh, or to restart): the target is only a URL; give a start command (--start or CONFORMANCE_START_COMMAND, with {port} and {data})',
  };
}

/** A fresh instance from the start command. */
export function startFreshInstance(warn?: Warn): Promise<Instance> {
  const command = process.env.CONFORMANCE_START_COMMAND;
  if (!command) throw new Error('no start command: no way to start a fresh instance');
  return startCommandInstance(command, warn);
}
