/**
 * Per-key turn-taking inside one process, so that writers of one record do not run optimistic
 * transactions against each other (they would conflict and retry); writers of different records still
 * run in parallel. Conflicts with other processes remain, and are retried (see conflict-retry.ts).
 */

/** Starts `task` now, turning a synchronous throw into a rejected promise. */
function start<T>(task: () => Promise<T>): Promise<T> {
  try {
    return task();
  } catch (err) {
    return Promise.reject(err);
  }
}

/**
 * Runs tasks one at a time per key, in the order they were submitted. A task whose key is idle starts
 * at once (synchronously); a failed task does not stop the ones after it. The map holds only the keys
 * that have a task running or waiting.
 */
export class KeyedQueue<K> {
  private readonly tails = new Map<K, Promise<void>>();

  run<T>(key: K, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key);
    const result = previous === undefined ? start(task) : previous.then(task);
    // The tail settles when the task does, and forgets the key unless another task queued behind it.
    const forget = () => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
    const tail = result.then(forget, forget);
    this.tails.set(key, tail);
    return result;
  }

  /** Keys with a task running or waiting. */
  get busyKeys(): number {
    return this.tails.size;
  }
}

interface Batch<V, R> {
  values: V[];
  result: Promise<R>;
}

/**
 * Combines the values submitted for one key while that key is busy: they wait together, and when their
 * turn comes `run` is called once with all of them (in submission order); every submitter gets that
 * one outcome. A value submitted while the key is idle runs alone, at once. At most one batch per key
 * runs at a time; batches of different keys run in parallel.
 *
 * This is only sound where applying the batch's values one after another, with nothing in between,
 * yields the outcome `run` reports for each of them (for users: a wholesale replace, see
 * docs/concurrency.md).
 */
export class KeyedCombiner<K, V, R> {
  private readonly queue = new KeyedQueue<K>();
  /** Per key, the batch still accepting values (it has not started). */
  private readonly open = new Map<K, Batch<V, R>>();

  constructor(private readonly run: (key: K, values: readonly V[]) => Promise<R>) {}

  submit(key: K, value: V): Promise<R> {
    const waiting = this.open.get(key);
    if (waiting !== undefined) {
      waiting.values.push(value);
      return waiting.result;
    }
    const values = [value];
    const batch = { values } as Batch<V, R>;
    this.open.set(key, batch);
    batch.result = this.queue.run(key, () => {
      // From now on this batch is closed: later values form the next one.
      if (this.open.get(key) === batch) this.open.delete(key);
      return this.run(key, values);
    });
    return batch.result;
  }

  /** Keys with a batch running or waiting. */
  get busyKeys(): number {
    return this.queue.busyKeys;
  }
}
