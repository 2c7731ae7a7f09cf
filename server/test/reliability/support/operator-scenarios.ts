import { Redis } from 'ioredis';
import { FORM_TYPE, formBody } from '../../../../testing/form.ts';
import { createAgent, request } from '../../../../testing/http.ts';
import { startLocalRedis } from '../../../../testing/redis.ts';
import { disposeChildServer, sleep, startChildServer } from './child-server.ts';
import { tally } from './history.ts';

/**
 * The two scenarios of issue 23 as an operator ran them, against the real server process on its own
 * external Redis (REDIS_URL, a redis-server on a free loopback port):
 * - `stall`: 64 connections updating 400 users while redis-server is paused with SIGSTOP `stalls` times
 *   for `stallMs`, `gapMs` apart; `settleMs` after the last pause, with Redis healthy, 20 sequential and
 *   30 concurrent updates, and when updates all succeeded again;
 * - `oom`: Redis at its maxmemory with noeviction: what a create, an update, a delete, a domain create,
 *   a worker create, reads and /readyz answer, and whether writes come back once memory is freed.
 * Run by hand: `node --import tsx server/test/reliability/run-operator-scenario.ts stall|oom` (prints JSON;
 * STALLS, STALL_MS, GAP_MS, SETTLE_MS change the stall run).
 */
export interface StallOptions {
  connections?: number;
  users?: number;
  stalls?: number;
  stallMs?: number;
  gapMs?: number;
  settleMs?: number;
}

export interface StallFigures {
  duringLoad: Record<string, number>;
  readyzDuringStalls: Record<string, number>;
  afterSettle: { sequentialOk: number; sequential: number; concurrentOk: number; concurrent: number };
  readyzAfterSettle: number;
  /** From the last SIGCONT to the end of the last update that did not answer 200 (no 200-streak before it). */
  lastFailedUpdateAfterLastStallMs: number;
  /** /readyz said 503 at some point while updates were failing after the last stall. */
  readyz503WhileUpdatesFailed: boolean;
}

const users = (base: string) => `${base}/UserService/users`;

export async function runStallScenario(options: StallOptions = {}): Promise<StallFigures> {
  const {
    connections = 64,
    users: userCount = 400,
    stalls = 10,
    stallMs = 3000,
    gapMs = 2000,
    settleMs = 5000,
  } = options;
  const redis = await startLocalRedis();
  const server = await startChildServer({ env: { REDIS_URL: redis.url } });
  try {
    const agent = createAgent(connections);
    const ids = Array.from({ length: userCount }, (_, i) => 10_000 + i);
    for (let i = 0; i < ids.length; i += 50) {
      await Promise.all(
        ids.slice(i, i + 50).map((id) =>
          request(users(server.url), {
            method: 'PUT',
            headers: { 'Content-Type': FORM_TYPE },
            body: formBody({ id, name: 'seed', profession: 'seed' }),
            agent,
          }),
        ),
      );
    }
    const update = async (id: number, n: number) => {
      const start = performance.now();
      try {
        const reply = await request(users(server.url), {
          method: 'POST',
          headers: { 'Content-Type': FORM_TYPE },
          body: formBody({ id, name: `u${n}`, profession: 'p' }),
          agent,
          timeoutMs: 10_000,
        });
        return { status: String(reply.status), start, end: performance.now() };
      } catch (err) {
        return { status: (err as Error).message, start, end: performance.now() };
      }
    };
    const answers: Array<{ status: string; start: number; end: number }> = [];
    const readyz: Array<{ at: number; end: number; status: string }> = [];
    let stopped = false;
    let n = 0;
    const loops = Array.from({ length: connections }, async () => {
      while (!stopped) {
        const answer = await update(ids[Math.floor(Math.random() * ids.length)]!, n++);
        answers.push(answer);
        if (answer.status !== '200') await sleep(20);
      }
    });
    const poller = (async () => {
      while (!stopped) {
        const at = performance.now();
        const status = await request(`${server.url}/readyz`, { timeoutMs: 3000 })
          .then((r) => String(r.status))
          .catch((err: Error) => err.message);
        readyz.push({ at, end: performance.now(), status });
        await sleep(100);
      }
    })();
    await sleep(1000);
    const stallWindows: Array<[number, number]> = [];
    for (let i = 0; i < stalls; i++) {
      const pid = redis.pid!;
      process.kill(pid, 'SIGSTOP');
      const from = performance.now();
      await sleep(stallMs);
      process.kill(pid, 'SIGCONT');
      stallWindows.push([from, performance.now()]);
      if (i < stalls - 1) await sleep(gapMs);
    }
    const lastCont = stallWindows[stallWindows.length - 1]![1];
    await sleep(settleMs);
    stopped = true;
    await Promise.all([...loops, poller]);

    const sequential: string[] = [];
    for (let i = 0; i < 20; i++) sequential.push((await update(ids[i]!, n++)).status);
    const concurrent = (await Promise.all(ids.slice(0, 30).map((id) => update(id, n++)))).map(
      (a) => a.status,
    );
    const readyzAfterSettle = (await request(`${server.url}/readyz`, { timeoutMs: 3000 })).status;

    const after = answers.filter((a) => a.start >= lastCont);
    const lastFailed = after.filter((a) => a.status !== '200').reduce((t, a) => Math.max(t, a.end), lastCont);
    const readyz503WhileUpdatesFailed = readyz.some(
      (r) => r.at >= lastCont && r.at <= lastFailed && r.status === '503',
    );
    const inStall = (t: number) => stallWindows.some(([a, b]) => t >= a && t <= b);
    return {
      duringLoad: tally(answers, (a) => a.status),
      readyzDuringStalls: tally(
        readyz.filter((r) => inStall(r.end)),
        (r) => r.status,
      ),
      afterSettle: {
        sequentialOk: sequential.filter((s) => s === '200').length,
        sequential: sequential.length,
        concurrentOk: concurrent.filter((s) => s === '200').length,
        concurrent: concurrent.length,
      },
      readyzAfterSettle,
      lastFailedUpdateAfterLastStallMs: Math.round(lastFailed - lastCont),
      readyz503WhileUpdatesFailed,
    };
  } finally {
    await disposeChildServer(server);
    await redis.stop();
  }
}

export interface OomFigures {
  full: Record<string, string>;
  afterFreeing: Record<string, string>;
}

/** Fills Redis up to a small maxmemory (noeviction), then tries one request of each kind; frees memory and tries again. */
export async function runOomScenario(): Promise<OomFigures> {
  const redis = await startLocalRedis({ appendOnly: false });
  const server = await startChildServer({ env: { REDIS_URL: redis.url } });
  const admin = new Redis(redis.url);
  try {
    const post = (url: string, body: string, method = 'POST', type = FORM_TYPE) =>
      request(url, { method, headers: { 'Content-Type': type }, body, timeoutMs: 5000 });
    for (const id of [7, 17])
      await post(users(server.url), formBody({ id, name: 'seed', profession: 'p' }), 'PUT');
    const filler = 'x'.repeat(10_000);
    for (let i = 0; i < 200; i++) await admin.set(`filler:${i}`, filler);
    // Below what Redis already uses: every command that may grow memory is refused (OOM).
    const used = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))?.[1]);
    await admin.config('SET', 'maxmemory-policy', 'noeviction');
    await admin.config('SET', 'maxmemory', String(used - 500_000));
    const app = `${server.url}/apps/oom-app`;
    const tryAll = async (userId: number): Promise<Record<string, string>> => {
      const show = (r: { status: number; body: string }) => `${r.status} ${r.body.slice(0, 220)}`;
      return {
        'GET user': show(await request(`${users(server.url)}/${userId}`)),
        'PUT create': show(
          await post(users(server.url), formBody({ id: userId + 1, name: 'new', profession: 'p' }), 'PUT'),
        ),
        'POST update': show(
          await post(users(server.url), formBody({ id: userId, name: 'changed', profession: 'p' })),
        ),
        'DELETE user': show(await request(`${users(server.url)}/${userId}`, { method: 'DELETE' })),
        'GET list': `${(await request(users(server.url))).status}`,
        'POST domain': show(
          await post(
            `${app}/domains`,
            JSON.stringify({ hostname: 'example.com' }),
            'POST',
            'application/json',
          ),
        ),
        'POST worker': show(
          await post(`${app}/workers`, JSON.stringify({ command: 'run' }), 'POST', 'application/json'),
        ),
        'GET domains': `${(await request(`${app}/domains`)).status}`,
        readyz: show(await request(`${server.url}/readyz`)),
      };
    };
    const full = await tryAll(7);
    await admin.config('SET', 'maxmemory', '0');
    await sleep(1500);
    const afterFreeing = await tryAll(17);
    return { full, afterFreeing };
  } finally {
    admin.disconnect();
    await disposeChildServer(server);
    await redis.stop();
  }
}
