/**
 * The processes of an implementation the suite starts: a shell command in a process group of its own.
 * What a stop and a start may be trusted for rests here:
 *
 * - stop: SIGTERM to the whole group, then wait (bounded) until no process of the group is left and
 *   the port refuses connections. Past the bound, SIGKILL, and the stop reports that it had to.
 * - start: the port refuses connections before the launch, and once it answers, the listening socket
 *   belongs to a process of the new group (on Linux, read from /proc; elsewhere: the group is alive).
 *   So an old instance still shutting down, or a stranger on the port, is never taken for the new one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';

const HAS_PROC = fs.existsSync('/proc/self/stat');

export interface Launched {
  child: ChildProcess;
  /** Process group id (the shell's pid: it is started as a group leader). */
  pgid: number;
  command: string;
  /** The last few kilobytes of its stdout and stderr. */
  output(): string;
}

export function launch(command: string, env: NodeJS.ProcessEnv, cwd: string): Launched {
  const child = spawn('/bin/sh', ['-c', command], {
    cwd,
    env: { ...process.env, ...env },
    detached: true, // a process group of its own: signals reach the implementation, not only the shell
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.on('error', (err) => keep(Buffer.from(String(err))));
  if (child.pid === undefined) throw new Error(`could not start: ${command}`);
  return { child, pgid: child.pid, command, output: () => output };
}

interface ProcInfo {
  pid: number;
  name: string;
}

/** The live processes of a group (zombies, which hold no port and run no code, are not counted). */
export function groupMembers(pgid: number): ProcInfo[] {
  if (!HAS_PROC) {
    try {
      process.kill(-pgid, 0);
      return [{ pid: pgid, name: '(process group)' }];
    } catch {
      return [];
    }
  }
  const found: ProcInfo[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
    const close = stat.lastIndexOf(')');
    const [state, , pgrp] = stat.slice(close + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X')
      found.push({ pid: Number(entry), name: stat.slice(stat.indexOf('(') + 1, close) });
  }
  return found;
}

/** True when something accepts a TCP connection on 127.0.0.1:port. */
export function portAccepting(port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const done = (accepting: boolean) => {
      socket.destroy();
      resolve(accepting);
    };
    socket.setTimeout(timeoutMs, () => done(true)); // no refusal: something holds the port
    socket.once('connect', () => done(true));
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code !== 'ECONNREFUSED'));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: nothing left in the group
  }
}

const listed = (members: ProcInfo[]) => members.map((m) => `${m.pid} (${m.name})`).join(', ');

/** Polls until the group is empty and the port refuses; returns what was still there at the deadline. */
async function waitGone(pgid: number, port: number, timeoutMs: number): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const members = groupMembers(pgid);
    const accepting = members.length === 0 ? await portAccepting(port) : true;
    if (members.length === 0 && !accepting) return undefined;
    if (Date.now() >= deadline) {
      const parts = [];
      if (members.length) parts.push(`processes still running: ${listed(members)}`);
      if (await portAccepting(port)) parts.push(`port ${port} still accepts connections`);
      return parts.join('; ') || 'not gone';
    }
    await sleep(50);
  }
}

export interface StopOutcome {
  /** Set when SIGTERM was not enough: what was left at the bound, before the SIGKILL. */
  forced?: string;
}

/**
 * Stops every process of the group: SIGTERM, then up to `graceMs` for the group to end and the port
 * to refuse; then SIGKILL. Throws when even that leaves the port answered (a process outside the group
 * holds it: the implementation left its process group, and the suite cannot stop it).
 */
export async function stopGroup(launched: Launched, port: number, graceMs: number): Promise<StopOutcome> {
  signalGroup(launched.pgid, 'SIGTERM');
  const left = await waitGone(launched.pgid, port, graceMs);
  if (!left) return {};
  signalGroup(launched.pgid, 'SIGKILL');
  const still = await waitGone(launched.pgid, port, 5000);
  if (still)
    throw new Error(
      `could not stop \`${launched.command}\`: after SIGTERM and ${graceMs} ms, then SIGKILL: ${still}. ` +
        'A process outside its process group holds the port (does the command detach with setsid or a daemon?)',
    );
  return {
    forced: `the stop needed SIGKILL: ${graceMs} ms after SIGTERM, ${left} (\`${launched.command}\`)`,
  };
}

/** Inodes of the sockets listening on `port` (any address), from /proc/net/tcp and tcp6. */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      if (cols[1]?.endsWith(`:${hexPort}`) && cols[3] === '0A' && cols[9]) inodes.add(cols[9]);
    }
  }
  return inodes;
}

function holdsSocket(pid: number, inodes: Set<string>): boolean {
  let fds: string[];
  try {
    fds = fs.readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  for (const fd of fds) {
    try {
      const link = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
      if (inode && inodes.has(inode)) return true;
    } catch {}
  }
  return false;
}

/**
 * Whether the listener on `port` belongs to the group: 'yes'; 'no' with the process that holds it; or
 * 'unknown' where /proc does not say (another OS, a listener we may not inspect, such as the proxy of a
 * container runtime).
 */
export function listenerOwner(
  port: number,
  pgid: number,
): { owner: 'yes' | 'unknown' } | { owner: 'no'; holder: string } {
  if (!HAS_PROC) return { owner: 'unknown' };
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return { owner: 'unknown' };
  if (groupMembers(pgid).some((m) => holdsSocket(m.pid, inodes))) return { owner: 'yes' };
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || !holdsSocket(Number(entry), inodes)) continue;
    let name = '?';
    try {
      name = fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
    } catch {}
    return { owner: 'no', holder: `${entry} (${name})` };
  }
  return { owner: 'unknown' };
}

/** One HTTP request on a new connection (no pooled socket to an earlier process): any status will do. */
export function probe(baseUrl: string, timeoutMs = 2000): Promise<void> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${baseUrl.replace(/\/$/, '')}/conformance-readiness-probe`);
    const req = http.get(
      url,
      { agent: false, timeout: timeoutMs, headers: { Connection: 'close' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve());
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
  });
}
