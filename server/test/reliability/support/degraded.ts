import { expect } from 'chai';
import { FORM_TYPE, formBody } from '../../../../testing/form.ts';
import { createAgent, request } from '../../../../testing/http.ts';
import { sleep } from './child-server.ts';
import { describeAnomalies, maxOf, ms, printFigures } from './figures.ts';
import { tally } from './history.ts';
import { range, readFinalState, restrict, runWorkload } from './workload.ts';

/**
 * The harness of the degraded-Redis fault matrix (issue 23): a mixed read/write workload on the users
 * API against a running server, /readyz polled every 100 ms, a fault played by the caller, then a
 * recovery check: every kind of request (list, get, create, update, delete of users; create and list
 * of domains and workers) must succeed within RECOVERY_LIMIT_MS of the fault's end, and /readyz must
 * say 200 by then too. The operation log is checked (0 lost acknowledged writes, 0 resurrected users,
 * 0 duplicate creates, only documented answers) and the figures printed.
 */
export const RECOVERY_LIMIT_MS = 10_000;

export interface FaultWindow {
  from: number;
  to: number;
}

export interface DegradedCase {
  title: string;
  /** Base URL of the server under test. */
  url: string;
  /** Plays the fault; returns the windows during which it was on (performance.now() times). */
  fault: () => Promise<FaultWindow[]>;
  /** The fault makes changes impossible for a while: /readyz must have said 503 at some point during it. */
  expectNotReady: boolean;
  /** Concurrent clients of the workload (default 12). */
  clients?: number;
  /** First of the 40 user ids of the workload. */
  idsFrom: number;
}

export interface DegradedFigures {
  during: Record<string, number>;
  readyzDuring: Record<string, number>;
  recoveredAfterMs: number;
  readyzOkAfterMs: number;
  anomalies: number;
}

interface Sample {
  start: number;
  end: number;
  status: string;
  body: string;
}

export async function runDegradedCase(c: DegradedCase): Promise<DegradedFigures> {
  const ids = range(c.idsFrom, 40);
  let stopLoad!: () => void;
  const stop = new Promise<void>((resolve) => {
    stopLoad = resolve;
  });
  const load = runWorkload({
    base: c.url,
    clients: c.clients ?? 12,
    durationMs: 180_000,
    maxOps: 2_000_000,
    userIds: ids,
    backoffMs: 20,
    timeoutMs: 15_000,
    stop,
  });
  const readyz: Sample[] = [];
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const start = performance.now();
      const sample = await request(`${c.url}/readyz`, { timeoutMs: 5000 })
        .then((r) => ({ status: String(r.status), body: r.body }))
        .catch((err: Error) => ({ status: err.message, body: '' }));
      readyz.push({ start, end: performance.now(), ...sample });
      await sleep(100);
    }
  })();
  await sleep(1500);
  const windows = await c.fault();
  const faultEnd = windows[windows.length - 1]?.to ?? performance.now();
  const recovery = await recoveryCheck(c.url, faultEnd);
  await sleep(1000);
  polling = false;
  stopLoad();
  await poller;
  const readyzOk = readyz.find((s) => s.start >= faultEnd && s.status === '200');
  const { history } = await load;

  const final = restrict(await readFinalState(c.url), ids);
  const anomalies = history.check(final);
  const ops = history.ops;
  const inFault = (t: number) => windows.some((w) => t >= w.from && t <= w.to);
  const during = ops.filter((op) => inFault(op.start));
  const failed = during.filter((op) => op.outcome !== 'ok' && op.outcome !== 'rejected');
  const readyzDuring = readyz.filter((s) => inFault(s.end));
  const figures: DegradedFigures = {
    during: tally(during, (op) => (op.status ? String(op.status) : (op.detail ?? op.outcome))),
    readyzDuring: tally(readyzDuring, (s) => s.status),
    recoveredAfterMs: ms(recovery.after),
    readyzOkAfterMs: readyzOk ? ms(readyzOk.end - faultEnd) : -1,
    anomalies: anomalies.length,
  };
  printFigures(c.title, {
    'fault windows ms': windows.map((w) => ms(w.to - w.from)),
    operations: ops.length,
    'answers by status during the fault': figures.during,
    '503/504 latency max ms': ms(maxOf(failed.map((op) => op.end - op.start))),
    '/readyz during the fault': figures.readyzDuring,
    '/readyz 503 reasons': [
      ...new Set(readyzDuring.filter((s) => s.status === '503').map((s) => reason(s.body))),
    ].slice(0, 3),
    'fault end → every kind of request succeeds ms': figures.recoveredAfterMs,
    'recovery attempts': recovery.attempts,
    'fault end → /readyz 200 ms': figures.readyzOkAfterMs,
    'outcomes (whole run)': tally(ops, (op) => op.outcome),
    anomalies: anomalies.length,
  });

  expect(anomalies, describeAnomalies(anomalies, 20)).to.deep.equal([]);
  expect(
    ops
      .filter((op) => op.outcome === 'indeterminate' && op.detail !== 'outcome_unknown')
      .map((op) => op.detail),
    'every request was answered (no client timeout or reset)',
  ).to.deep.equal([]);
  expect(recovery.after, `every kind of request succeeds within ${RECOVERY_LIMIT_MS} ms`).to.be.below(
    RECOVERY_LIMIT_MS,
  );
  expect(readyzOk, '/readyz says 200 again after the fault').to.not.equal(undefined);
  if (c.expectNotReady) {
    expect(
      figures.readyzDuring['503'] ?? 0,
      '/readyz said 503 while changes could not be served',
    ).to.be.above(0);
  }
  return figures;
}

const reason = (body: string) => /<message>([^<]*)<\/message>/.exec(body)?.[1] ?? body.slice(0, 120);

/**
 * Tries one request of every kind until all of them succeed in one round; resolves with the time from
 * `since` to the end of that round. Ids 900000+ are outside every workload's ids.
 */
export async function recoveryCheck(
  url: string,
  since: number,
): Promise<{ after: number; attempts: number }> {
  const agent = createAgent(4);
  const users = `${url}/UserService/users`;
  const app = `${url}/apps/recovery`;
  const json = 'application/json';
  let attempts = 0;
  while (performance.now() - since < RECOVERY_LIMIT_MS * 2) {
    attempts++;
    const id = 900_000 + attempts;
    const call = (u: string, method = 'GET', body?: string, type = FORM_TYPE) =>
      request(u, {
        method,
        agent,
        timeoutMs: 5000,
        ...(body ? { body, headers: { 'Content-Type': type } } : {}),
      })
        .then((r) => r.status)
        .catch(() => 0);
    const results = [
      (await call(users)) === 200,
      (await call(users, 'PUT', formBody({ id, name: 'r', profession: 'r' }))) === 200,
      (await call(`${users}/${id}`)) === 200,
      (await call(users, 'POST', formBody({ id, name: 'r2', profession: 'r2' }))) === 200,
      (await call(`${users}/${id}`, 'DELETE')) === 200,
      (await call(`${app}/domains`, 'POST', JSON.stringify({ hostname: `r${id}.example` }), json)) === 201,
      (await call(`${app}/domains`)) === 200,
      (await call(`${app}/workers`, 'POST', JSON.stringify({ command: 'run' }), json)) === 201,
      (await call(`${app}/workers`)) === 200,
    ];
    if (results.every(Boolean)) {
      agent.destroy();
      return { after: performance.now() - since, attempts };
    }
    await sleep(100);
  }
  agent.destroy();
  return { after: Number.POSITIVE_INFINITY, attempts };
}

/** Stops a process with SIGSTOP for each of `durations` ms, `gapMs` apart. */
export async function stallProcess(pid: number, durations: number[], gapMs: number): Promise<FaultWindow[]> {
  const windows: FaultWindow[] = [];
  for (const [i, duration] of durations.entries()) {
    if (i > 0) await sleep(gapMs);
    process.kill(pid, 'SIGSTOP');
    const from = performance.now();
    try {
      await sleep(duration);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    windows.push({ from, to: performance.now() });
  }
  return windows;
}

/** `STALLS_MS=1000,5000,...` for longer runs; short and few by default (CI). */
export function stallDurations(defaults: number[]): number[] {
  const spec = process.env.STALLS_MS;
  return spec ? spec.split(',').map(Number) : defaults;
}
