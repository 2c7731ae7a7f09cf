/**
 * A write whose effect shows only at the next write (issue 45): a DELETE answered success whose user the
 * reads still show, gone once another write arrived (an implementation that applies a write it holds
 * back when the next one comes). Judged by what happened, as one defect of the earlier write: the model
 * holds the write whose effect the reads showed missing as pending; at the next write, when the answer
 * and the reads afterwards agree with the state in which the pending write had been applied first, that
 * is the defect, and the later write is judged on that state (a second DELETE of the user answering
 * failure is then right). A later write the state with the pending write applied does not explain (it
 * changed another user, or answered as the user were still there) leaves the pending write as it was
 * judged: its effect missing.
 */
import { apply } from './answers.ts';
import { judgeWrite, type ReadBack } from './effects.ts';
import { type Held, type HeldStep, stepHeld } from './held.ts';
import { type DefectName, named } from './named-defects.ts';
import type { Observed } from './observe.ts';
import type { Operation } from './operations.ts';
import { SHOWN_STATE } from './readers.ts';
import type { Disagreement } from './signature.ts';
import { sameUser, showUser } from './users.ts';

/**
 * What the reads after a write say of the users (a status or a representation is judged apart): what a
 * read shows of them, and the write's word and lost updates.
 */
const OF_THE_USERS: ReadonlySet<string> = new Set([...SHOWN_STATE, 'result-word', 'lost-update']);

/** The named defect of a write made late, by the situation the spec judges it in; undefined: none known. */
const LATE: Readonly<Record<string, DefectName>> = {
  'DELETE (existing id)': 'removedLate',
  'PUT (new id)': 'storedLate',
};

export interface Late {
  /** The pending write's defect (to be recorded with that write's answer). */
  finding: Disagreement;
  /** The later write judged on the state in which the pending one had been applied. */
  later: HeldStep;
  /** The later write's disagreements, answer and effect (model judgeWrite), on that state. */
  found: Disagreement[];
}

/**
 * Whether the pending write `pending` (answered success, its effect missing in `held`'s state, as the
 * reads showed it) was applied when the write `later` arrived: `seen` is the later write's answer,
 * `readBack` what the reads showed afterwards (the pending write's own user among them). The defect and
 * the later write judged on the state with the pending write applied; undefined when that state does
 * not explain the later answer and reads, or the pending write is not one the model names so.
 */
export function appliedLate(
  held: Held,
  pending: Operation,
  later: Operation,
  seen: Observed,
  readBack: ReadBack,
): Late | undefined {
  const { state: applied, expected: pendingExpected } = apply(held.state, pending);
  const name = LATE[pendingExpected.situation];
  const own = pendingExpected.touches[0];
  if (!name || own === undefined || !(own in readBack)) return undefined;
  const step = stepHeld({ ...held, state: applied }, later, seen);
  const found = judgeWrite(applied, step.expected, seen, step.disagreements, readBack);
  if (found.some((d) => OF_THE_USERS.has(d.signature.aspect))) return undefined;
  // The pending write's own user as the state with it applied (then the later write) holds it, and
  // not as before it: its effect came now. (judgeWrite does not judge a user of an incomplete state it
  // does not hold: checked here.)
  const want = step.after.users[own];
  const was = held.state.users[own];
  const shown = readBack[own] ?? null;
  const cameNow = want ? sameUser(want, shown) && !(was && sameUser(was, shown)) : shown === null && !!was;
  if (!cameNow) return undefined;
  const what =
    name === 'removedLate'
      ? `user ${own} was still served after it, and removed only when the next write arrived`
      : `${showUser(want)} was not served after it, and stored only when the next write arrived`;
  const laterLine = `${step.expected.situation} answered ${seen.body.kind === 'result' ? seen.body.word : seen.status}`;
  return {
    finding: named(
      name,
      `${pendingExpected.situation} answered success; ${what} (${laterLine}, as the spec says once the ${pending.kind.toUpperCase()} is made)`,
    ),
    later: step,
    found,
  };
}
