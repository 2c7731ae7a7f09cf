/**
 * The operations of one sequence, drawn as it goes: random operations on the pool, now and then a
 * write that repeats the texts an earlier write sent for the same id (so that "equal user" cases
 * happen; a POST, the texts the user holds when known: an update to the same values), and every few
 * steps a whole-state check (the list, HEAD, every id of the pool by GET).
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
 * The share of sequences (where the instance has restarts) with one RESTART: a restart costs a
 * process start, some 40 steps' time with the self-test implementation, so about 5 in a 20 s run.
 * It comes right after the sequence's first drain, the shape that shows an emptied collection not
 * saved (USR-COL-08); in a sequence without one, at its end, after a drain half the time (else with
 * the users it holds), before the last state check. A read of the list always comes just before it
 * (a drain ends with one): what a read does (a default user back) shows there, not as the restart's.
 */
const RESTART_SHARE = 0.3;

/**
 * A source of operations for `runSequence`: `length` random operations (a state check after every
 * CHECK_EVERY and at the end); on a fresh instance the first is a read of the list (the collection
 * and its default user come into being, SVC-10). `fill`: a fill of that many users somewhere, and the
 * list read at once (the whole of it judged). `restarts`: RESTART steps too, drawn from a fork of their
 * own (the other operations are the same with or without them).
 */
export function sequenceSource(
  rng: Rng,
  pool: Pool,
  length: number,
  fresh: boolean,
  { fill, restarts = false }: { fill?: number; restarts?: boolean } = {},
): (index: number) => Operation | undefined {
  const queue: Operation[] = fresh ? [{ kind: 'LIST' }] : [];
  const fillAt = fill === undefined ? -1 : rng.fork('fill').int(length);
  const drawsRestart = rng.fork('restarts');
  let restart = restarts && drawsRestart.chance(RESTART_SHARE);
  type Texts = Pick<FormOperation, 'name' | 'profession'>;
  const sentTexts = new Map<number, Texts>();
  // The texts each slot's user holds where the writes drawn took effect as the spec says (undefined: a
  // user whose texts are not known, the default user or one written from a form without a field), so
  // that a repeated POST sends the user's current values (A-R4.1: still a success, not "0 rows changed").
  const held = new Map<number, Texts | undefined>(fresh ? [[0, undefined]] : []);
  let drawn = 0;
  let ended = false;
  return () => {
    while (queue.length === 0 && !ended) {
      if (drawn === length) {
        if (restart)
          queue.push(...(drawsRestart.chance(0.5) ? drain(pool) : [{ kind: 'LIST' } as const]), {
            kind: 'RESTART',
          });
        queue.push(...stateCheck(pool));
        ended = true;
        break;
      }
      const drained = rng.chance(0.03);
      if (drained) {
        queue.push(...drain(pool));
        held.clear();
      }
      if (drained && restart) {
        queue.push({ kind: 'RESTART' });
        restart = false;
      }
      if (drawn === fillAt) queue.push({ kind: 'FILL', count: fill as number }, { kind: 'LIST' });
      let op = randomOperation(rng, pool);
      if ((op.kind === 'PUT' || op.kind === 'POST') && rng.chance(0.25)) {
        const current = op.kind === 'POST' ? held.get(op.id.slot) : undefined;
        const earlier = sentTexts.get(op.id.slot);
        if (current) {
          const { omit: _, ...form } = op;
          op = { ...form, ...current };
        } else if (earlier) op = { ...op, ...earlier };
      }
      if (op.kind === 'PUT' || op.kind === 'POST') {
        const texts = op.omit ? undefined : { name: op.name, profession: op.profession };
        if (op.kind === 'POST' ? held.has(op.id.slot) : !held.has(op.id.slot)) held.set(op.id.slot, texts);
        sentTexts.set(op.id.slot, { name: op.name, profession: op.profession });
      }
      if (op.kind === 'DELETE') held.delete(op.id.slot);
      queue.push(op);
      drawn++;
      if (drawn % CHECK_EVERY === 0 && drawn < length) queue.push(...stateCheck(pool));
    }
    return queue.shift();
  };
}
