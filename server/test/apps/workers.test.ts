import { expect } from 'chai';
import { Redis } from 'ioredis';
import type { TestRedis } from '../../../testing/redis.ts';
import { APP_KEYS, REMOVAL_GROUP } from '../../src/apps/keys.ts';
import { startSuiteRedis, startTestService, type TestService } from '../support/service.ts';
import { call, expectError, expectJson, expectTimestamp, JSON_TYPE, UUID_V4, waitFor } from './helpers.ts';

const GRACE_MS = 200;
const WORKER_FIELDS = ['id', 'command', 'size', 'state', 'created_at', 'updated_at'];

type WorkerBody = {
  id: string;
  command: string;
  size: string;
  state: string;
  created_at: string;
  updated_at: string;
};

async function createWorker(
  url: string,
  app: string,
  body: Record<string, unknown> = { command: 'bin/work' },
): Promise<WorkerBody> {
  const answer = await call(url, 'POST', `/apps/${app}/workers`, body);
  expectJson(answer, 201);
  return answer.body;
}

/** Total entries ever added to the removal stream (unchanged by XDEL of finished jobs). */
async function jobsEnqueued(redis: Redis): Promise<number> {
  const info = (await redis.call('XINFO', 'STREAM', APP_KEYS.removals)) as unknown[];
  return Number(info[info.indexOf('entries-added') + 1]);
}

/** A 202 is exactly `{}` with the JSON content type. */
function expectAccepted(answer: { status: number; headers: Headers; text: string }): void {
  expect(answer.status).to.equal(202);
  expect(answer.headers.get('content-type')).to.equal(JSON_TYPE);
  expect(answer.text).to.equal('{}');
  expect(answer.headers.get('content-length')).to.equal('2');
}

/**
 * Stops a new worker of `app` with `stop` and checks the answers it gathered while the worker was
 * stopping. A worker only goes from stopping to removed, never back: if it is still there after `stop`,
 * it was stopping throughout, so `check` runs. If it is gone, its grace period ended before `stop` did
 * (a machine stalled for longer than it): the answers prove nothing, and a new worker is stopped again,
 * up to three rounds. Returns the worker that was checked.
 */
async function whileStopping(
  url: string,
  app: string,
  stop: (w: WorkerBody) => Promise<() => void | Promise<void>>,
): Promise<WorkerBody> {
  for (let round = 1; ; round++) {
    const w = await createWorker(url, app);
    const check = await stop(w);
    if ((await call(url, 'GET', `/apps/${app}/workers/${w.id}`)).status !== 404) {
      await check();
      return w;
    }
    expect(round, 'rounds whose worker was removed before their checks ended').to.be.below(3);
  }
}

describe('apps: workers /apps/{app_id}/workers', () => {
  let svc: TestService;
  let url: string;
  let redis: Redis;
  before(async () => {
    svc = await startTestService({ workerStopGraceMs: GRACE_MS });
    url = svc.url;
    redis = new Redis(svc.redis.url);
  });
  after(async () => {
    redis?.disconnect();
    await svc?.close();
  });

  it('POST creates a worker: 201, every field, size standard by default, state up, Location', async () => {
    const before = Date.now();
    const answer = await call(url, 'POST', '/apps/web/workers', { command: 'bundle exec sidekiq' });
    const after = Date.now();
    expectJson(answer, 201);
    expect(Object.keys(answer.body)).to.deep.equal(WORKER_FIELDS);
    expect(answer.body.id).to.match(UUID_V4);
    expect(answer.body).to.include({ command: 'bundle exec sidekiq', size: 'standard', state: 'up' });
    expectTimestamp(answer.body.created_at, before, after);
    expect(answer.body.updated_at).to.equal(answer.body.created_at);
    expect(answer.headers.get('location')).to.equal(`/apps/web/workers/${answer.body.id}`);

    const sized = await createWorker(url, 'web', { command: 'python worker.py --queue=a', size: 'large' });
    expect(sized).to.include({ size: 'large', state: 'up', command: 'python worker.py --queue=a' });
  });

  it("GET lists the app's workers oldest first and returns one by id", async () => {
    const a = await createWorker(url, 'list', { command: 'a' });
    const b = await createWorker(url, 'list', { command: 'b', size: 'small' });
    const list = await call(url, 'GET', '/apps/list/workers');
    expectJson(list, 200);
    const expected = [a, b].sort(
      (x, y) => x.created_at.localeCompare(y.created_at) || x.id.localeCompare(y.id),
    );
    expect(list.body).to.deep.equal(expected);
    const one = await call(url, 'GET', `/apps/list/workers/${b.id}`);
    expectJson(one, 200);
    expect(one.body).to.deep.equal(b);
    expect((await call(url, 'GET', '/apps/list-empty/workers')).text).to.equal('[]');
    expectError(await call(url, 'GET', `/apps/other/workers/${b.id}`), 404, 'not_found');
    expectError(await call(url, 'GET', '/apps/list/workers/not-a-uuid'), 404, 'not_found');
  });

  it('PATCH changes the size: 200, the full worker, created_at and command kept, updated_at strictly later', async () => {
    const w = await createWorker(url, 'resize');
    let previous = w;
    for (const size of ['large', 'small', 'small']) {
      const answer = await call(url, 'PATCH', `/apps/resize/workers/${w.id}`, { size });
      expectJson(answer, 200);
      expect(Object.keys(answer.body)).to.deep.equal(WORKER_FIELDS);
      expect(answer.body).to.include({
        id: w.id,
        command: w.command,
        size,
        state: 'up',
        created_at: w.created_at,
      });
      expectTimestamp(answer.body.updated_at, Date.parse(previous.updated_at) + 1, Date.now() + 5);
      previous = answer.body;
    }
    expect((await call(url, 'GET', `/apps/resize/workers/${w.id}`)).body).to.deep.equal(previous);
  });

  it('invalid worker input is 422 naming the field', async () => {
    const w = await createWorker(url, 'bad');
    const posts: Array<[Record<string, unknown>, string]> = [
      [{}, 'command'],
      [{ size: 'small' }, 'command'],
      [{ command: '' }, 'command'],
      [{ command: '   ' }, 'command'],
      [{ command: 42 }, 'command'],
      [{ command: null }, 'command'],
      [{ command: 'a\nb' }, 'command'],
      [{ command: 'x'.repeat(1001) }, 'command'],
      [{ command: 'x', size: 'huge' }, 'size'],
      [{ command: 'x', size: 'Standard' }, 'size'],
      [{ command: 'x', size: null }, 'size'],
    ];
    for (const [body, field] of posts) {
      expectError(await call(url, 'POST', '/apps/bad/workers', body), 422, 'invalid_params', field);
    }
    expect((await createWorker(url, 'bad-ok', { command: 'x'.repeat(1000) })).command).to.have.length(1000);
    const patches: Array<[Record<string, unknown>, string]> = [
      [{}, 'size'],
      [{ size: 'huge' }, 'size'],
      [{ size: 1 }, 'size'],
      [{ command: 'other' }, 'command'],
      [{ size: 'large', command: 'other' }, 'command'],
    ];
    for (const [body, field] of patches) {
      expectError(await call(url, 'PATCH', `/apps/bad/workers/${w.id}`, body), 422, 'invalid_params', field);
    }
    expect((await call(url, 'GET', '/apps/bad/workers')).body).to.deep.equal([w]);
    expectError(
      await call(url, 'PATCH', '/apps/bad/workers/00000000-0000-4000-8000-000000000000', { size: 'large' }),
      404,
      'not_found',
    );
  });

  it('DELETE is 202 `{}`; the worker is stopping at once, then removed after the grace period (404)', async () => {
    let sentAt = 0;
    const w = await whileStopping(url, 'stop', async (w) => {
      const enqueuedBefore = await jobsEnqueued(redis).catch(() => 0);
      // Taken before the request: the server dates the job when it accepts it, later, so the grace
      // period ends at least GRACE_MS after this, and the runner never carries a job out earlier.
      sentAt = Date.now();
      const accepted = await call(url, 'DELETE', `/apps/stop/workers/${w.id}`);
      const stopping = await call(url, 'GET', `/apps/stop/workers/${w.id}`);
      const list = await call(url, 'GET', '/apps/stop/workers');
      const enqueued = await jobsEnqueued(redis);
      // A stopping worker can no longer be resized.
      const resize = await call(url, 'PATCH', `/apps/stop/workers/${w.id}`, { size: 'large' });
      return () => {
        expectAccepted(accepted);
        expectJson(stopping, 200);
        expect(stopping.body).to.include({
          id: w.id,
          state: 'stopping',
          command: w.command,
          size: w.size,
          created_at: w.created_at,
        });
        expect(Date.parse(stopping.body.updated_at)).to.be.greaterThan(Date.parse(w.updated_at));
        expect(list.body).to.deep.equal([stopping.body]);
        expect(enqueued).to.equal(enqueuedBefore + 1);
        expectError(resize, 409, 'conflict');
      };
    });

    await waitFor(
      'the worker to be removed',
      async () => (await call(url, 'GET', `/apps/stop/workers/${w.id}`)).status === 404,
      5_000,
    );
    expect(Date.now() - sentAt).to.be.at.least(GRACE_MS);
    expectError(await call(url, 'GET', `/apps/stop/workers/${w.id}`), 404, 'not_found');
    expect((await call(url, 'GET', '/apps/stop/workers')).text).to.equal('[]');
    expectError(await call(url, 'DELETE', `/apps/stop/workers/${w.id}`), 404, 'not_found');
    // The job is acknowledged and dropped from the stream with the worker, in one script.
    expect(await redis.xlen(APP_KEYS.removals)).to.equal(0);
    const pending = (await redis.xpending(APP_KEYS.removals, REMOVAL_GROUP)) as unknown[];
    expect(pending[0]).to.equal(0);
  });

  it('DELETE of an unknown worker is 404', async () => {
    expectError(
      await call(url, 'DELETE', '/apps/stop/workers/00000000-0000-4000-8000-000000000000'),
      404,
      'not_found',
    );
    expectError(await call(url, 'DELETE', '/apps/stop/workers/zzz'), 404, 'not_found');
  });

  it('a second DELETE while stopping is 202 `{}` again and enqueues nothing; concurrent DELETEs enqueue one job', async () => {
    const w = await whileStopping(url, 'twice', async (w) => {
      const before = await jobsEnqueued(redis).catch(() => 0);
      const first = await call(url, 'DELETE', `/apps/twice/workers/${w.id}`);
      const stopping = await call(url, 'GET', `/apps/twice/workers/${w.id}`);
      const second = await call(url, 'DELETE', `/apps/twice/workers/${w.id}`);
      const enqueued = await jobsEnqueued(redis);
      const after = await call(url, 'GET', `/apps/twice/workers/${w.id}`);
      return () => {
        expectAccepted(first);
        expectJson(stopping, 200);
        expect(stopping.body.state).to.equal('stopping');
        expectAccepted(second);
        expect(enqueued).to.equal(before + 1);
        // The second DELETE changed nothing, not even updated_at.
        expect(after.body).to.deep.equal(stopping.body);
      };
    });

    const v = await whileStopping(url, 'twice', async (v) => {
      const before = await jobsEnqueued(redis);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => call(url, 'DELETE', `/apps/twice/workers/${v.id}`)),
      );
      const enqueued = await jobsEnqueued(redis);
      return () => {
        for (const answer of answers) expectAccepted(answer);
        expect(enqueued).to.equal(before + 1);
      };
    });
    for (const worker of [w, v]) {
      await waitFor(
        'both workers to be removed',
        async () => (await call(url, 'GET', `/apps/twice/workers/${worker.id}`)).status === 404,
        5_000,
      );
    }
  });
});

describe('apps: worker removal across restarts and instances', () => {
  let testRedis: TestRedis;
  let redis: Redis;
  before(async () => {
    testRedis = await startSuiteRedis();
    redis = new Redis(testRedis.url);
  });
  after(async () => {
    redis?.disconnect();
    await testRedis?.stop();
  });

  it('a stop accepted before the server stops is carried out by the next server on the same Redis', async () => {
    // The first instance must stop before the job is due, or it may carry the job out while it stops:
    // the grace period is far longer than a restart takes. A round whose worker is gone after the
    // restart all the same (a machine stalled for longer than it) is run again, up to three rounds.
    const grace = 4_000;
    for (let round = 1; ; round++) {
      const svc = await startTestService({ workerStopGraceMs: grace }, testRedis);
      try {
        const w = await createWorker(svc.url, 'restart');
        expectAccepted(await call(svc.url, 'DELETE', `/apps/restart/workers/${w.id}`));
        const first = svc.service.workerRemovals;
        await svc.restart();
        const still = await call(svc.url, 'GET', `/apps/restart/workers/${w.id}`);
        if (still.status === 404) {
          expect(round, 'rounds whose worker was removed before the restart ended').to.be.below(3);
          continue;
        }
        // Still there after the restart, so the first instance did not carry the job out.
        expectJson(still, 200);
        expect(still.body.state).to.equal('stopping');
        expect(first.removed + first.alreadyDone).to.equal(0);
        const second = svc.service.workerRemovals;
        expect(second.consumer).to.not.equal(first.consumer);
        await waitFor(
          'the restarted server to remove the worker',
          async () => (await call(svc.url, 'GET', `/apps/restart/workers/${w.id}`)).status === 404,
          grace + 3_000,
        );
        // The worker is gone as soon as the removal script has run in Redis; the runner counts the job
        // only once the script's reply reaches it, later (after a lost reply, after the retry that finds
        // it done: `alreadyDone`). It holds the job until then: wait for that, then read its counts.
        await waitFor('the second runner to be done with the job', async () => second.holding === 0);
        expect(second.removed + second.alreadyDone).to.equal(1);
        expect(await redis.xlen(APP_KEYS.removals)).to.equal(0);
        return;
      } finally {
        await svc.close();
      }
    }
  });

  it('two instances on one Redis share the removal jobs, each carried out exactly once', async () => {
    const a = await startTestService({ workerStopGraceMs: GRACE_MS }, testRedis);
    const b = await startTestService({ workerStopGraceMs: GRACE_MS }, testRedis);
    try {
      // Both runners must be blocked on XREADGROUP before the jobs arrive (Redis hands each new job to
      // the client that has waited longest); a runner still starting would leave every job to the other.
      await waitFor(
        'both runners to wait on the removal stream',
        async () => {
          const clients = ((await redis.client('LIST')) as string).split('\n');
          return clients.filter((c) => /cmd=xreadgroup/.test(c) && /flags=\S*b/.test(c)).length >= 2;
        },
        5_000,
      );
      const total = 40;
      const workers: WorkerBody[] = [];
      for (let i = 0; i < total; i++)
        workers.push(await createWorker(i % 2 ? a.url : b.url, 'pair', { command: `job ${i}` }));
      const before = await jobsEnqueued(redis).catch(() => 0);
      for (const [i, w] of workers.entries()) {
        expectAccepted(await call(i % 2 ? b.url : a.url, 'DELETE', `/apps/pair/workers/${w.id}`));
      }
      expect(await jobsEnqueued(redis)).to.equal(before + total);
      await waitFor(
        'every worker to be removed',
        async () => (await call(a.url, 'GET', '/apps/pair/workers')).text === '[]',
        10_000,
      );
      // Each runner counts a job once the reply of its removal script reaches it, and holds it until
      // then: once neither holds one, every job is counted, and none is left for a second execution.
      const runners = [a.service.workerRemovals, b.service.workerRemovals];
      await waitFor('both runners to be done with their jobs', async () =>
        runners.every((runner) => runner.holding === 0),
      );
      // A job whose reply was lost is retried and then found done (`alreadyDone`); a job carried out
      // by both instances would be counted twice.
      const [byA, byB] = runners.map((runner) => runner.removed + runner.alreadyDone) as [number, number];
      expect(byA + byB).to.equal(total);
      expect(byA, 'jobs carried out by the first instance').to.be.greaterThan(0);
      expect(byB, 'jobs carried out by the second instance').to.be.greaterThan(0);
      expect(await redis.xlen(APP_KEYS.removals)).to.equal(0);
      const pending = (await redis.xpending(APP_KEYS.removals, REMOVAL_GROUP)) as unknown[];
      expect(pending[0]).to.equal(0);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
