import fs from 'node:fs';
import { expect } from 'chai';
import { FORM_TYPE, formBody } from '../../../testing/form.ts';
import { request } from '../../../testing/http.ts';
import {
  type ChildServer,
  disposeChildServer,
  isAlive,
  serverCommand,
  startChildServer,
} from './support/child-server.ts';
import { descriptorCount, descriptorCountBesidesUnixSockets, exchange } from './support/exchange.ts';
import { ms, printFigures } from './support/figures.ts';
import { type FuzzCase, fuzzCase } from './support/http-grammar.ts';

/** CI runs a fixed seed for a bounded time; FUZZ_SECONDS / FUZZ_SEED run it longer or elsewhere. */
const SEED = Number(process.env.FUZZ_SEED ?? 22);
const SECONDS = Number(process.env.FUZZ_SECONDS ?? 45);
/** Replays one case (its index in the stream of FUZZ_SEED). */
const ONLY_CASE = process.env.FUZZ_CASE === undefined ? undefined : Number(process.env.FUZZ_CASE);
/** The server answers a complete request at once and closes a half-closed connection after it. */
const ANSWER_TIMEOUT_MS = 5_000;
/** Descriptors of a closed connection may take a moment to be released. */
const DESCRIPTORS_SETTLE_MS = 3_000;
/** docs/security.md: SIGTERM drains for at most 8 s, then cuts every connection and stops Redis. */
const EXIT_LIMIT_MS = 10_000;
const MAX_VIOLATIONS = 25;

interface Violation {
  kind: string;
  index: number;
  summary: string;
  detail: string;
  bytes: string;
}

/** Processes whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

interface Baseline {
  /** Every descriptor. */
  all: number;
  /** Every descriptor but unix sockets (the Redis connections). */
  besidesUnix: number;
}

/**
 * Waits until the process holds no more descriptors than at the baseline; more unix sockets only (a
 * Redis connection pool that grew) raise the baseline instead. False if other descriptors stay open.
 */
async function descriptorsSettled(pid: number, baseline: Baseline): Promise<boolean> {
  const until = performance.now() + DESCRIPTORS_SETTLE_MS;
  for (;;) {
    const all = descriptorCount(pid);
    if (all <= baseline.all) return true;
    if (descriptorCountBesidesUnixSockets(pid) <= baseline.besidesUnix) {
      baseline.all = all;
      return true;
    }
    if (performance.now() > until) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Sends cases `last`-4 … `last` one at a time, each followed by a pause; the first one after which the process is dead. */
async function findKiller(server: ChildServer, last: number): Promise<{ index?: number; crash: string }> {
  for (let index = Math.max(0, last - 4); index <= last; index++) {
    const c = fuzzCase(SEED, index, server.port);
    await exchange(
      server.port,
      c.bytes,
      c.requests.map((r) => r.method),
      ANSWER_TIMEOUT_MS,
    );
    await new Promise((r) => setTimeout(r, 300));
    if (server.proc.exitCode !== null || server.proc.signalCode !== null) {
      return { index, crash: /\n(\w*Error[^\n]*)/.exec(server.output())?.[1] ?? server.output().slice(-200) };
    }
  }
  return { crash: '' };
}

/** The server as `make run` starts it (embedded Redis, no token), warmed up: every connection pool open. */
async function startTarget(): Promise<{ server: ChildServer; baseline: Baseline }> {
  const server = await startChildServer();
  const users = `${server.url}/UserService/users`;
  await request(users);
  const put = {
    method: 'PUT',
    headers: { 'Content-Type': FORM_TYPE },
    body: formBody({ id: 9, name: 'a', profession: 'b' }),
  };
  await request(users, put);
  await request(users, { ...put, method: 'POST' });
  await request(`${users}/9`, { method: 'DELETE' });
  const json = { method: 'POST', headers: { 'Content-Type': 'application/json' } };
  await request(`${server.url}/apps/warm/domains`, { ...json, body: '{"hostname":"a.example"}' });
  await request(`${server.url}/apps/warm/workers`, { ...json, body: '{"command":"run"}' });
  await new Promise((r) => setTimeout(r, 200));
  return {
    server,
    baseline: {
      all: descriptorCount(server.pid),
      besidesUnix: descriptorCountBesidesUnixSockets(server.pid),
    },
  };
}

/**
 * Issue 22: a process-level fuzzer of the HTTP layer. Raw requests from a grammar (support/http-grammar.ts)
 * go to a real server process, one connection per case. After each case: the process is alive; the
 * connection got well-formed answers or was closed, within the time limit; the descriptor count is back
 * to its baseline; no answer is a 5xx other than 503/504. At the end, SIGTERM ends the process within the
 * drain time and leaves no child behind. A violation is recorded and the run goes on (a dead server is
 * started again), so one run reports every kind it found, with the first case of each.
 */
describe(`fuzz: raw HTTP against the server process (seed ${SEED}, ${ONLY_CASE === undefined ? `${SECONDS} s` : `case ${ONLY_CASE}`})`, function () {
  this.timeout((SECONDS + 90) * 1000);
  let target: { server: ChildServer; baseline: Baseline } | undefined;
  after(() => disposeChildServer(target?.server));

  it('holds every invariant after each case and at SIGTERM', async () => {
    target = await startTarget();
    const violations: Violation[] = [];
    const byStatus: Record<string, number> = {};
    let cases = 0;
    let restarts = 0;
    let slowest = 0;
    const record = (c: FuzzCase, kind: string, detail: string) =>
      violations.push({
        kind,
        index: c.index,
        summary: c.summary,
        detail,
        bytes: JSON.stringify(c.bytes.toString('latin1').slice(0, 300)),
      });

    const started = performance.now();
    const deadline = started + SECONDS * 1000;
    for (let index = ONLY_CASE ?? 0; ; index++) {
      if (ONLY_CASE !== undefined ? index > ONLY_CASE : performance.now() > deadline) break;
      if (violations.length >= MAX_VIOLATIONS) break;
      const { server } = target;
      const c = fuzzCase(SEED, index, server.port);
      const got = await exchange(
        server.port,
        c.bytes,
        c.requests.map((r) => r.method),
        ANSWER_TIMEOUT_MS,
      );
      cases++;
      slowest = Math.max(slowest, got.ms);
      for (const answer of got.answers) byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
      if (got.answers.length === 0) byStatus['closed, no answer'] = (byStatus['closed, no answer'] ?? 0) + 1;

      const alive = server.proc.exitCode === null && server.proc.signalCode === null && isAlive(server.pid);
      if (!alive) {
        await new Promise((r) => setTimeout(r, 100));
        // The crash may land after the connection of a later case closed: replay the last few cases one
        // at a time on a fresh server to name the one that kills it.
        await disposeChildServer(server);
        target = await startTarget();
        const killer = await findKiller(target.server, index);
        const culprit = fuzzCase(SEED, killer.index ?? index, target.server.port);
        record(
          culprit,
          'process died',
          killer.index === undefined ? `not reproduced alone (detected after case ${index})` : killer.crash,
        );
        const { server: replayed } = target;
        await disposeChildServer(replayed);
        target = await startTarget();
        restarts++;
        continue;
      }
      if (got.malformed)
        record(c, 'malformed answer', `${got.malformed}; received ${JSON.stringify(got.head)}`);
      if (!got.closed) {
        record(
          c,
          'neither answered and closed in time',
          `${got.answers.length} answers, ${got.received} bytes in ${ANSWER_TIMEOUT_MS} ms`,
        );
      }
      const bad = got.answers.filter((a) => a.status >= 500 && a.status !== 503 && a.status !== 504);
      if (bad.length > 0) record(c, '5xx answer', bad.map((a) => a.status).join(', '));
      if (!(await descriptorsSettled(server.pid, target.baseline))) {
        const besidesUnix = descriptorCountBesidesUnixSockets(server.pid);
        record(
          c,
          'descriptors not back to baseline',
          `${besidesUnix} open besides unix sockets, baseline ${target.baseline.besidesUnix}`,
        );
        // one held socket is one violation, not one per following case
        target.baseline = { all: descriptorCount(server.pid), besidesUnix };
      }
    }
    const fuzzMs = performance.now() - started;

    // The end: SIGTERM drains and exits within the limit, and no child process is left behind.
    const { server } = target;
    const children = childrenOf(server.pid);
    const signalledAt = performance.now();
    server.kill('SIGTERM');
    const exit = await Promise.race([
      server.exited,
      new Promise<undefined>((r) => setTimeout(() => r(undefined), EXIT_LIMIT_MS + 5_000)),
    ]);
    const exitMs = performance.now() - signalledAt;
    await new Promise((r) => setTimeout(r, 200));
    const leftBehind = children.filter(isAlive);

    const kinds: Record<string, string> = {};
    for (const v of violations)
      kinds[v.kind] ??= `first at case ${v.index} (${violations.filter((w) => w.kind === v.kind).length}×)`;
    printFigures('fuzz: raw HTTP against the server process', {
      command: serverCommand().label,
      seed: SEED,
      seconds: Math.round(fuzzMs / 1000),
      cases,
      'cases/s': Math.round((cases / fuzzMs) * 1000),
      'answers by status': byStatus,
      'slowest case ms': ms(slowest),
      'server restarts after a death': restarts,
      violations: violations.length === 0 ? 'none' : kinds,
      'SIGTERM to exit ms': ms(exitMs),
      'exit code': exit ? (exit.code ?? exit.signal) : 'still running',
      'children before SIGTERM': children.length,
      'children left behind': leftBehind.length,
    });
    for (const v of violations.slice(0, 8)) {
      console.log(
        `      case ${v.index} [${v.kind}] ${v.summary}: ${v.detail.slice(0, 900)}\n        bytes: ${v.bytes}`,
      );
    }

    expect(violations.map((v) => `case ${v.index}: ${v.kind}`)).to.deep.equal([]);
    expect(exit, 'the process ended after SIGTERM').to.not.equal(undefined);
    expect(exit?.code).to.equal(0);
    expect(exitMs).to.be.below(EXIT_LIMIT_MS);
    expect(leftBehind, 'no child process left behind').to.deep.equal([]);
    if (ONLY_CASE === undefined) expect(cases).to.be.at.least(100);
  });
});
