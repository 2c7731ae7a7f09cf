import { expect } from 'chai';
import { KeyedCombiner, KeyedQueue } from '../../src/concurrency/keyed-queue.ts';

/** A promise with its resolve and reject at hand, to hold a task until the test lets it go. */
function gate<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Waits a few event-loop turns (real timers), so that anything that could start has started. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('concurrency/keyed-queue: KeyedQueue', () => {
  it('runs the tasks of one key one at a time, in the order they were submitted', async () => {
    const queue = new KeyedQueue<string>();
    const events: string[] = [];
    let running = 0;
    let most = 0;
    const tasks = Array.from({ length: 30 }, (_, i) =>
      queue.run('k', async () => {
        running++;
        most = Math.max(most, running);
        events.push(`start ${i}`);
        await new Promise((resolve) => setTimeout(resolve, i % 3));
        events.push(`end ${i}`);
        running--;
        return i;
      }),
    );
    expect(await Promise.all(tasks)).to.deep.equal(Array.from({ length: 30 }, (_, i) => i));
    expect(most).to.equal(1);
    expect(events).to.deep.equal(Array.from({ length: 30 }, (_, i) => [`start ${i}`, `end ${i}`]).flat());
    await settle();
    expect(queue.busyKeys).to.equal(0);
  });

  it('starts a task of an idle key at once, and runs tasks of different keys in parallel', async () => {
    const queue = new KeyedQueue<number>();
    const bStarted = gate();
    let aStarted = false;
    // a waits for b to start: if keys were serialised with each other, this would never finish.
    const a = queue.run(1, async () => {
      aStarted = true;
      await bStarted.promise;
      return 'a';
    });
    expect(aStarted, 'started synchronously').to.equal(true);
    const b = queue.run(2, async () => {
      bStarted.resolve();
      return 'b';
    });
    expect(await Promise.all([a, b])).to.deep.equal(['a', 'b']);
  });

  it('a failing task (rejected or thrown synchronously) fails its caller only; the next task still runs', async () => {
    const queue = new KeyedQueue<string>();
    const first = queue.run('k', async () => {
      throw new Error('first failed');
    });
    const second = queue.run('k', () => {
      throw new Error('second threw synchronously');
    });
    const third = queue.run('k', async () => 'third ran');
    const outcomes = await Promise.allSettled([first, second, third]);
    expect(
      outcomes.map((o) => (o.status === 'rejected' ? (o.reason as Error).message : o.value)),
    ).to.deep.equal(['first failed', 'second threw synchronously', 'third ran']);
    expect(() =>
      queue.run('idle', () => {
        throw new Error('sync');
      }),
    ).to.not.throw();
    await queue.run('idle', () => Promise.reject(new Error('x'))).catch(() => {});
    await settle();
    expect(queue.busyKeys).to.equal(0);
  });

  it('holds a key only while it has work: many keys used once leave nothing behind', async () => {
    const queue = new KeyedQueue<number>();
    await Promise.all(Array.from({ length: 1000 }, (_, i) => queue.run(i, async () => i)));
    await settle();
    expect(queue.busyKeys).to.equal(0);
  });
});

describe('concurrency/keyed-queue: KeyedCombiner', () => {
  it('a value for an idle key runs alone, at once', async () => {
    const batches: number[][] = [];
    const combiner = new KeyedCombiner<string, number, string>(async (_key, values) => {
      batches.push([...values]);
      return 'done';
    });
    const answer = combiner.submit('k', 7);
    expect(batches, 'run synchronously').to.deep.equal([[7]]);
    expect(await answer).to.equal('done');
  });

  it('values that arrive while their key is busy run together, once, in order; every submitter gets that outcome', async () => {
    const release = gate();
    const batches: number[][] = [];
    let running = 0;
    let most = 0;
    const combiner = new KeyedCombiner<string, number, string>(async (_key, values) => {
      running++;
      most = Math.max(most, running);
      batches.push([...values]);
      if (batches.length === 1) await release.promise;
      running--;
      return `batch ${batches.length} ended with ${values.at(-1)}`;
    });
    const first = combiner.submit('k', 0);
    const waiting = Array.from({ length: 9 }, (_, i) => combiner.submit('k', i + 1));
    await settle();
    expect(batches).to.deep.equal([[0]]);
    release.resolve();
    expect(await first).to.equal('batch 1 ended with 0');
    expect(await Promise.all(waiting)).to.deep.equal(Array(9).fill('batch 2 ended with 9'));
    expect(batches).to.deep.equal([[0], [1, 2, 3, 4, 5, 6, 7, 8, 9]]);
    expect(most).to.equal(1);
    // Values submitted once the second batch started form a third batch.
    expect(await combiner.submit('k', 10)).to.equal('batch 3 ended with 10');
  });

  it('a failed batch fails each of its submitters; the next batch still runs', async () => {
    const release = gate();
    const combiner = new KeyedCombiner<string, string, string>(async (_key, values) => {
      if (values[0] === 'hold') await release.promise;
      if (values.includes('bad')) throw new Error(`failed: ${values.join(',')}`);
      return values.join(',');
    });
    const held = combiner.submit('k', 'hold');
    const failing = [combiner.submit('k', 'bad'), combiner.submit('k', 'other')];
    release.resolve();
    expect(await held).to.equal('hold');
    for (const outcome of await Promise.allSettled(failing)) {
      expect(outcome.status).to.equal('rejected');
      expect(((outcome as PromiseRejectedResult).reason as Error).message).to.equal('failed: bad,other');
    }
    expect(await combiner.submit('k', 'after')).to.equal('after');
    await settle();
    expect(combiner.busyKeys).to.equal(0);
  });

  it('keys do not wait for each other', async () => {
    const release = gate();
    const combiner = new KeyedCombiner<number, string, string>(async (key, values) => {
      if (key === 1) await release.promise;
      return values.join(',');
    });
    const held = combiner.submit(1, 'a');
    expect(await combiner.submit(2, 'b')).to.equal('b');
    release.resolve();
    expect(await held).to.equal('a');
  });
});
