/**
 * Shrinking a failing sequence of operations: drop chunks of steps (halves, quarters, …, as delta
 * debugging does), then single steps until none can go (1-minimal), then simplify what is left (ids
 * written plainly, plain texts), keeping each change only while the sequence still fails the same way.
 * `fails` replays a candidate on a clean state; the number of replays and the time are bounded.
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

/**
 * The same steps with every input written plainly: ids as integers, and each text of another class
 * replaced by a plain word of its own, the same word wherever the same text was sent (so that a POST
 * that resends a user's values still does). The texts already plain stay, and no new word equals one.
 * What a failure named by its input (model/held.ts inputHeld) looks like without that input.
 */
export function plainInputs(ops: readonly Operation[]): Operation[] {
  const used = new Set<string>();
  for (const op of ops)
    if (op.kind === 'PUT' || op.kind === 'POST')
      for (const t of [op.name, op.profession]) if (t.cls === 'plain') used.add(t.text);
  const words = new Map<string, TextValue>();
  const plain = (t: TextValue): TextValue => {
    if (t.cls === 'plain') return t;
    let word = words.get(t.text);
    if (!word) {
      let k = words.size;
      while (used.has(`t${k}`)) k++;
      word = { text: `t${k}`, cls: 'plain' };
      used.add(word.text);
      words.set(t.text, word);
    }
    return word;
  };
  return ops.map((op) => {
    if (!('id' in op)) return op;
    const id = { ...op.id, writing: 'plain' as const };
    if (op.kind === 'PUT' || op.kind === 'POST')
      return { ...op, id, name: plain(op.name), profession: plain(op.profession) };
    return { ...op, id };
  });
}

export interface ShrinkBudget {
  /** Replays at most. */
  attempts: number;
  /** Stop shrinking at this time (Date.now()). */
  deadline: number;
}

export interface Shrunk {
  ops: Operation[];
  /** Replays made (a candidate tried before is not replayed again). */
  attempts: number;
  /**
   * 1-minimal: removing any one step (a restart too) of `ops` was tried last and none kept the failure.
   * False when the budget ran out first: a step may still play no part.
   */
  minimal: boolean;
}

/**
 * Shrinks `ops` while `fails` holds: everything simplified at once, then chunks dropped (halves, quarters,
 * … as delta debugging does), then single steps dropped until no single removal keeps the failure
 * (1-minimal), then values simplified, and single steps again when a value changed. Pure but for `fails`.
 */
export async function shrink(
  ops: readonly Operation[],
  fails: (candidate: readonly Operation[]) => Promise<boolean>,
  budget: ShrinkBudget,
): Promise<Shrunk> {
  let current = [...ops];
  let attempts = 0;
  let outOfBudget = false;
  /** The candidates replayed and whether they failed: a removal tried again on the same steps is not replayed. */
  const tried = new Map<string, boolean>();
  const tryIt = async (candidate: Operation[]): Promise<boolean> => {
    const key = JSON.stringify(candidate, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
    let failed = tried.get(key);
    if (failed === undefined) {
      if (attempts >= budget.attempts || Date.now() > budget.deadline) {
        outOfBudget = true;
        return false;
      }
      attempts++;
      failed = await fails(candidate);
      tried.set(key, failed);
    }
    if (failed) current = candidate;
    return failed;
  };
  const without = (at: number, size = 1) => [...current.slice(0, at), ...current.slice(at + size)];
  /** Drops single steps, last first, pass after pass, until a whole pass drops none: then `current` is 1-minimal. */
  const dropSingles = async (): Promise<void> => {
    for (let dropped = true; dropped && !outOfBudget; ) {
      dropped = false;
      for (let at = current.length - 1; at >= 0; at--) if (await tryIt(without(at))) dropped = true;
    }
  };
  // Everything simplified at once first: most failures do not depend on the values.
  await tryIt(current.map(simplest));
  // Drop chunks: from half the sequence down to two steps (single steps next).
  for (let size = Math.floor(current.length / 2); size >= 2; size = Math.floor(size / 2))
    for (let at = current.length - size; at >= 0; at -= size) {
      if (at >= current.length) continue;
      await tryIt(without(at, size));
    }
  await dropSingles();
  // Simplify values.
  let simplified = false;
  for (let at = 0; at < current.length; at++) {
    let changed = true;
    while (changed) {
      changed = false;
      for (const variant of simpler(current[at] as Operation)) {
        if (await tryIt([...current.slice(0, at), variant, ...current.slice(at + 1)])) {
          changed = simplified = true;
          break;
        }
      }
    }
  }
  // A simpler value can leave a step with no part to play: single steps once more.
  if (simplified) await dropSingles();
  return { ops: current, attempts, minimal: !outOfBudget };
}
