/**
 * Shrinking a failing sequence of operations: drop chunks of steps (halves, quarters, … single steps,
 * as delta debugging does), then simplify what is left (ids written plainly, plain texts), keeping each
 * change only while the sequence still fails the same way. `fails` replays a candidate on a clean
 * state; the number of replays is bounded.
 */
import type { Operation, TextValue } from './operations.ts';
import { FILL_BIG, FILL_SMALL } from './values.ts';

/** Simpler variants of one operation, simplest first. */
export function simpler(op: Operation): Operation[] {
  // A fill: just past 100 users, or just past 1,000 (values.ts FILL_SMALL, FILL_BIG), smallest first.
  if (op.kind === 'FILL')
    return [FILL_SMALL[0], FILL_BIG[0]].filter((n) => n < op.count).map((count) => ({ ...op, count }));
  if (!('id' in op)) return [];
  const out: Operation[] = [];
  if (op.id.writing !== 'plain') out.push({ ...op, id: { ...op.id, writing: 'plain' } });
  if (op.kind === 'PUT' || op.kind === 'POST') {
    const plain = (t: TextValue, word: string): TextValue =>
      t.cls === 'plain' && t.text === word ? t : { text: word, cls: 'plain' };
    const name = plain(op.name, 'n');
    const profession = plain(op.profession, 'p');
    if (name !== op.name) out.push({ ...op, name });
    if (profession !== op.profession) out.push({ ...op, profession });
  }
  return out;
}

/** The simplest variant of an operation: the id written plainly, the texts `n` and `p`. */
export function simplest(op: Operation): Operation {
  if (!('id' in op)) return op;
  const id = { ...op.id, writing: 'plain' as const };
  if (op.kind === 'PUT' || op.kind === 'POST')
    return { ...op, id, name: { text: 'n', cls: 'plain' }, profession: { text: 'p', cls: 'plain' } };
  return { ...op, id };
}

export interface ShrinkBudget {
  /** Replays at most. */
  attempts: number;
  /** Stop shrinking at this time (Date.now()). */
  deadline: number;
}

export async function shrink(
  ops: readonly Operation[],
  fails: (candidate: readonly Operation[]) => Promise<boolean>,
  budget: ShrinkBudget,
): Promise<{ ops: Operation[]; attempts: number }> {
  let current = [...ops];
  let attempts = 0;
  const tryIt = async (candidate: Operation[]): Promise<boolean> => {
    if (attempts >= budget.attempts || Date.now() > budget.deadline) return false;
    attempts++;
    if (await fails(candidate)) {
      current = candidate;
      return true;
    }
    return false;
  };
  // Everything simplified at once first: most failures do not depend on the values.
  await tryIt(current.map(simplest));
  // Drop chunks: from half the sequence down to one step.
  for (let size = Math.max(1, Math.floor(current.length / 2)); size >= 1; size = Math.floor(size / 2)) {
    for (let at = current.length - size; at >= 0; at -= size) {
      if (at >= current.length) continue;
      await tryIt([...current.slice(0, at), ...current.slice(at + size)]);
    }
    if (size === 1) break;
  }
  // One more pass of single steps: an earlier drop may have made others droppable.
  for (let at = current.length - 1; at >= 0; at--)
    await tryIt([...current.slice(0, at), ...current.slice(at + 1)]);
  // Simplify values.
  for (let at = 0; at < current.length; at++) {
    let changed = true;
    while (changed) {
      changed = false;
      for (const variant of simpler(current[at] as Operation)) {
        if (await tryIt([...current.slice(0, at), variant, ...current.slice(at + 1)])) {
          changed = true;
          break;
        }
      }
    }
  }
  return { ops: current, attempts };
}
