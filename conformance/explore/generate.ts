/**
 * The operations of one sequence, drawn as it goes: random operations on the pool, now and then a
 * write that repeats the texts an earlier write sent for the same id (so that "equal user" cases
 * happen), and every few steps a whole-state check (the list, HEAD, every id of the pool by GET).
 */
import { type FormOperation, type Operation, randomOperation } from './operations.ts';
import type { Rng } from './prng.ts';
import { type Pool, slotCount } from './values.ts';

/** Random operations between two whole-state checks. */
export const CHECK_EVERY = 8;

export function stateCheck(pool: Pool): Operation[] {
  return [
    { kind: 'LIST' },
    { kind: 'HEAD' },
    ...Array.from(
      { length: slotCount(pool) },
      (_, slot): Operation => ({ kind: 'GET', id: { slot, writing: 'plain' } }),
    ),
  ];
}

/** Every id of the pool deleted, then the list read: an emptied collection must stay empty (SVC-11). */
export function drain(pool: Pool): Operation[] {
  return [
    ...Array.from(
      { length: slotCount(pool) },
      (_, slot): Operation => ({ kind: 'DELETE', id: { slot, writing: 'plain' } }),
    ),
    { kind: 'LIST' },
    { kind: 'GET', id: { slot: 0, writing: 'plain' } },
  ];
}

/**
 * A source of operations for `runSequence`: `length` random operations (a state check after every
 * CHECK_EVERY and at the end); on a fresh instance the first is a read of the list (the collection
 * and its default user come into being, SVC-10).
 */
export function sequenceSource(
  rng: Rng,
  pool: Pool,
  length: number,
  fresh: boolean,
): (index: number) => Operation | undefined {
  const queue: Operation[] = fresh ? [{ kind: 'LIST' }] : [];
  const sentTexts = new Map<number, Pick<FormOperation, 'name' | 'profession'>>();
  let drawn = 0;
  let ended = false;
  return () => {
    while (queue.length === 0 && !ended) {
      if (drawn === length) {
        queue.push(...stateCheck(pool));
        ended = true;
        break;
      }
      if (rng.chance(0.03)) queue.push(...drain(pool));
      let op = randomOperation(rng, pool);
      if ((op.kind === 'PUT' || op.kind === 'POST') && rng.chance(0.25)) {
        const earlier = sentTexts.get(op.id.slot);
        if (earlier) op = { ...op, ...earlier };
      }
      if (op.kind === 'PUT' || op.kind === 'POST')
        sentTexts.set(op.id.slot, { name: op.name, profession: op.profession });
      queue.push(op);
      drawn++;
      if (drawn % CHECK_EVERY === 0 && drawn < length) queue.push(...stateCheck(pool));
    }
    return queue.shift();
  };
}
