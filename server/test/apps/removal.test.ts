import { expect } from 'chai';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import type { TestRedis } from '../../../testing/redis.ts';
import { APP_KEYS, REMOVAL_GROUP } from '../../src/apps/keys.ts';
import { RemovalRunner } from '../../src/apps/workers/removal.ts';
import { type RemovalJob, WorkerStore } from '../../src/apps/workers/store.ts';
import { openBlockingConnection } from '../../src/redis/connections.ts';
import { Replication } from '../../src/redis/replication.ts';
import { startSuiteRedis } from '../support/service.ts';
import { waitFor } from './helpers.ts';

const logger = pino({ level: process.env.TEST_LOG_LEVEL || 'silent' });

/** A promise with its resolve at hand, to hold a step until the test lets it go. */
function gate(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

describe('apps: the worker removal runner (Redis Stream consumer group)', () => {
  let testRedis: TestRedis;
  let redis: Redis;
  const runners: RemovalRunner[] = [];
  before(async () => {
    testRedis = await startSuiteRedis();
    redis = new Redis(testRedis.url);
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((runner) => runner.stop()));
    await redis?.flushall();
  });
  after(async () => {
    redis?.disconnect();
    await testRedis?.stop();
  });

  const runner = (
    store: WorkerStore,
    options: Partial<ConstructorParameters<typeof RemovalRunner>[0]> = {},
  ) => {
    const created = new RemovalRunner({
      changes: redis,
      blocking: openBlockingConnection({ url: testRedis.url }),
      store,
      logger,
      stopGraceMs: 0,
      ...options,
    });
    runners.push(created);
    return created;
  };

  const stoppingWorkers = async (store: WorkerStore, app: string, count: number) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const worker = await store.create(app, `job ${i}`, 'standard');
      expect(await store.requestStop(app, worker.id)).to.equal('stopping');
      ids.push(worker.id);
    }
    return ids;
  };

  it('takes over a job left pending by a crashed consumer once it has been idle long enough', async () => {
    const store = new WorkerStore({ reads: redis, changes: redis }, new Replication(0, 1000), 0);
    const [id] = await stoppingWorkers(store, 'crash', 1);
    // A consumer reads the job and dies without acknowledging it.
    await redis.xgroup('CREATE', APP_KEYS.removals, REMOVAL_GROUP, '0', 'MKSTREAM');
    // Before the read: Redis counts the job's idle time from its delivery, which is later.
    const readAt = Date.now();
    const read = await redis.xreadgroup(
      'GROUP',
      REMOVAL_GROUP,
      'crashed-consumer',
      'COUNT',
      10,
      'STREAMS',
      APP_KEYS.removals,
      '>',
    );
    expect(read).to.have.length(1);

    const claimIdleMs = 400;
    const rescuer = runner(store, { claimIdleMs, claimIntervalMs: 50 });
    rescuer.start();
    await waitFor(
      'the job to be taken over and carried out',
      async () => (await store.get('crash', id!)) === undefined,
      5_000,
    );
    // Not before the job was idle for claimIdleMs (Redis' clock is this machine's clock).
    expect(Date.now() - readAt).to.be.at.least(claimIdleMs);
    expect(rescuer.removed).to.equal(1);
    expect(await redis.xlen(APP_KEYS.removals)).to.equal(0);
    expect(((await redis.xpending(APP_KEYS.removals, REMOVAL_GROUP)) as unknown[])[0]).to.equal(0);
  });

  it('waits for the grace period of each job before carrying it out', async () => {
    const graceMs = 600;
    const store = new WorkerStore({ reads: redis, changes: redis }, new Replication(0, 1000), graceMs);
    runner(store).start();
    // The store dates the job (due = its Date.now() + the grace) after the worker is read, so a time taken
    // before the request is at most the start of the grace, and `notBefore` at most its end; the runner
    // carries a job out only once Date.now() has reached its due time (a timer firing early waits again).
    // So a read answered before `notBefore` must find the worker, and the removal is seen no earlier:
    // no slack. A round in which no read was answered before then (a stall longer than the grace period)
    // checked nothing early: it is run again with a new worker, up to three rounds.
    for (let round = 1; ; round++) {
      const enqueued = Date.now();
      const notBefore = enqueued + graceMs;
      const [id] = await stoppingWorkers(store, `grace${round}`, 1);
      let early = 0;
      await waitFor(
        'the removal',
        async () => {
          const worker = await store.get(`grace${round}`, id!);
          if (Date.now() < notBefore) {
            expect(worker?.state, 'a read answered within the grace period').to.equal('stopping');
            early++;
          }
          return worker === undefined;
        },
        3_000,
      );
      expect(Date.now() - enqueued).to.be.at.least(graceMs);
      if (early > 0) break;
      expect(round, 'rounds without a read answered within the grace period').to.be.below(3);
    }
  });

  it('a job held by two consumers at once still takes effect once', async () => {
    // Arranged in this order, not left to timing: the first runner reads the job and starts carrying it
    // out, but its removal script is held back (its store waits at a gate) until the second runner has
    // taken the job over (XAUTOCLAIM with no idle time: the job is pending for the first) and carried
    // it out. The first then carries it out a second time: it must find it done.
    const store = new WorkerStore({ reads: redis, changes: redis }, new Replication(0, 1000), 0);
    const reached = gate();
    const release = gate();
    class HeldStore extends WorkerStore {
      override async completeRemoval(job: RemovalJob): Promise<boolean> {
        reached.resolve();
        await release.promise;
        return super.completeRemoval(job);
      }
    }
    const held = new HeldStore({ reads: redis, changes: redis }, new Replication(0, 1000), 0);
    const [id] = await stoppingWorkers(store, 'dup', 1);
    try {
      const one = runner(held, { claimIdleMs: 60_000 });
      one.start();
      await reached.promise; // the first runner is carrying the job out
      const pending = (await redis.xpending(APP_KEYS.removals, REMOVAL_GROUP, '-', '+', 10)) as Array<
        [string, string, number, number]
      >;
      expect(pending.map(([, consumer]) => consumer)).to.deep.equal([one.consumer]);

      const two = runner(store, { claimIdleMs: 0, claimIntervalMs: 20 });
      two.start();
      await waitFor('the second runner to carry the job out', async () => two.removed + two.alreadyDone > 0);
      expect(await store.get('dup', id!)).to.equal(undefined);
      expect(one.holding, 'the first runner still holds the job').to.equal(1);

      release.resolve();
      await waitFor('the first runner to finish the job', async () => one.holding === 0);
      expect({ removed: two.removed, alreadyDone: two.alreadyDone }).to.deep.equal({
        removed: 1,
        alreadyDone: 0,
      });
      expect({ removed: one.removed, alreadyDone: one.alreadyDone }).to.deep.equal({
        removed: 0,
        alreadyDone: 1,
      });
      expect(await redis.xlen(APP_KEYS.removals)).to.equal(0);
      expect(((await redis.xpending(APP_KEYS.removals, REMOVAL_GROUP)) as unknown[])[0]).to.equal(0);
    } finally {
      release.resolve(); // a runner stops only once its running job is done
    }
  });

  it('stops promptly even while blocked on XREADGROUP, and hands its waiting jobs back at once', async () => {
    const store = new WorkerStore({ reads: redis, changes: redis }, new Replication(0, 1000), 60_000);
    const first = runner(store, { blockMs: 10_000 });
    first.start();
    const [id] = await stoppingWorkers(store, 'handback', 1);
    await waitFor('the job to be read', async () => first.holding === 1, 2_000);
    const stopStart = Date.now();
    await first.stop();
    // Had it waited for the blocked read to end, it would have taken the whole block time.
    expect(Date.now() - stopStart).to.be.below(10_000);
    expect((await store.get('handback', id!))?.state).to.equal('stopping');

    // The next runner's claim time is long, yet it takes the handed-back job at once.
    const second = runner(store, { claimIdleMs: 30_000, claimIntervalMs: 50, forgetConsumersAfterMs: 100 });
    second.start();
    await waitFor('the job to be taken over', async () => second.holding === 1, 2_000);
    const idle = (await redis.xpending(APP_KEYS.removals, REMOVAL_GROUP, '-', '+', 10)) as Array<
      [string, string, number, number]
    >;
    expect(idle.map(([, consumer]) => consumer)).to.deep.equal([second.consumer]);
    // The first consumer, holding nothing any more, is forgotten by the group.
    const consumerNames = async () =>
      ((await redis.xinfo('CONSUMERS', APP_KEYS.removals, REMOVAL_GROUP)) as unknown[][]).map(
        (c) => c[c.indexOf('name') + 1],
      );
    await waitFor(
      'the old consumer to be forgotten',
      async () => !(await consumerNames()).includes(first.consumer),
      2_000,
    );
    expect(await consumerNames()).to.deep.equal([second.consumer]);
  });

  it('a runner that holds nothing leaves the group when it stops', async () => {
    const store = new WorkerStore({ reads: redis, changes: redis }, new Replication(0, 1000), 0);
    await stoppingWorkers(store, 'leave', 2);
    const only = runner(store);
    only.start();
    await waitFor('the removals', async () => (await redis.hlen(APP_KEYS.workers('leave'))) === 0, 2_000);
    await only.stop();
    expect(await redis.xinfo('CONSUMERS', APP_KEYS.removals, REMOVAL_GROUP)).to.deep.equal([]);
  });
});
