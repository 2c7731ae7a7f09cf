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
 *
 * The later write tells only when its own answer says something on both states: a PUT of a fresh id
 * (answered success and stored, with or without the pending write made) does; a DELETE of the same id
 * sent again does not when an implementation answers success for an unknown id too, for then a first
 * DELETE lost and the second made at once read the same (the callers send the PUT: support/judged-users.ts).
 *
 * A pending DELETE made on the first user of the list instead of its own (an equality that always
 * holds, met late) is the two defects at once: the first user, as the list showed it when the DELETE
 * was sent, gone at the next write and its own user kept. With `holdLater`, a later write that is
 * itself a DELETE answered success whose change the reads do not show yet may be the same behaviour
 * again: held pending in turn (`heldAgain`), not a DELETE that does nothing or answers success for an
 * unknown id. That reading is the caller's to confirm by the next write (the later DELETE's change
 * coming then): alone, the same reads are also a first write lost and the later one made at once (a
 * lost update), or a later DELETE that removed the first user of the list at once.
 */
import { apply } from './answers.ts';
import { judgeWrite, type ReadBack } from './effects.ts';
import { type Held, type HeldStep, stepHeld } from './held.ts';
import { type DefectName, named } from './named-defects.ts';
import type { Observed, SeenUser } from './observe.ts';
import type { Operation } from './operations.ts';
import { SHOWN_STATE } from './readers.ts';
import { type Disagreement, signatureKey } from './signature.ts';
import { canonicalId, type State, withUser } from './state.ts';
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
  /**
   * The pending write's defects (to be recorded with that write's answer): made late, and, when it was
   * made on the first user of the list instead of its own, that defect too.
   */
  findings: Disagreement[];
  /** The later write judged on the state in which the pending one had been applied. */
  later: HeldStep;
  /** The later write's disagreements, answer and effect (model judgeWrite), on that state. */
  found: Disagreement[];
  /** The later write is a DELETE answered success whose change is not shown yet: to be held pending in turn. */
  heldAgain: boolean;
}

/** What the pending write may have done when the later write arrived: the state before, the write made. */
interface Made {
  before: State;
  op: Operation;
  /** The user it was made on: the first of the list, not its own. */
  onFirst?: SeenUser;
}

export interface LateOptions {
  /** The first user of the list when the pending write was sent, as the reads after it showed it kept. */
  first?: SeenUser | undefined;
  /** The later write may be held pending in turn (see above): the caller confirms it at the next write. */
  holdLater?: boolean | undefined;
}

/**
 * Whether the pending write `pending` (answered success, its effect missing in `held`'s state, as the
 * reads showed it) was applied when the write `later` arrived: `seen` is the later write's answer,
 * `readBack` what the reads showed afterwards (the pending write's own user among them, and `first`'s:
 * a DELETE may have been made on it). The defects and the later write judged on the state with the
 * pending write applied; undefined when that state does not explain the later answer and reads, or
 * the pending write is not one the model names so.
 */
export function appliedLate(
  held: Held,
  pending: Operation,
  later: Operation,
  seen: Observed,
  readBack: ReadBack,
  { first, holdLater = false }: LateOptions = {},
): Late | undefined {
  const made: Made[] = [{ before: held.state, op: pending }];
  const own = pending.kind === 'delete' ? canonicalId(pending.id) : undefined;
  if (pending.kind === 'delete' && first && first.id !== own) {
    const known = held.state.users[first.id] ? held.state : withUser(held.state, first);
    made.push({ before: known, op: { kind: 'delete', id: first.id }, onFirst: first });
  }
  for (const m of made) {
    const late = madeLate(held, m, pending, later, seen, readBack, holdLater);
    if (late) return late;
  }
  return undefined;
}

function madeLate(
  held: Held,
  made: Made,
  pending: Operation,
  later: Operation,
  seen: Observed,
  readBack: ReadBack,
  holdLater: boolean,
): Late | undefined {
  const { state: applied, expected: madeExpected } = apply(made.before, made.op);
  const name = LATE[madeExpected.situation];
  const target = madeExpected.touches[0];
  if (!name || target === undefined || !(target in readBack)) return undefined;
  const step = stepHeld({ ...held, state: applied }, later, seen);
  const judged = judgeWrite(applied, step.expected, seen, step.disagreements, readBack);
  // What a later PUT shows wrong on both readings (a fresh id answered failure, stored or not) says nothing
  // of the pending write: only what the reading with it made alone finds counts against. (A DELETE's or a
  // POST's wrong word may be a change of its own made on another user: that reading is not weighed here.)
  const onBoth = new Set(later.kind === 'put' ? judgedWithout(made.before, held, later, seen, readBack) : []);
  const against = judged.some((d) => ofTheUsers(d) && !onBoth.has(signatureKey(d.signature)));
  const heldAgain = holdLater && against && showsNothingYet(applied, later, seen, readBack);
  if (against && !heldAgain) return undefined;
  // The user the pending write was made on, as the state with it applied (then the later write) holds
  // it, and not as before it: its effect came now. (judgeWrite does not judge a user of an incomplete
  // state it does not hold: checked here.)
  const want = heldAgain ? applied.users[target] : step.after.users[target];
  const was = made.before.users[target];
  const shown = readBack[target] ?? null;
  const cameNow = want ? sameUser(want, shown) && !(was && sameUser(was, shown)) : shown === null && !!was;
  if (!cameNow) return undefined;
  const word = seen.body.kind === 'result' ? seen.body.word : seen.status;
  const verb = pending.kind.toUpperCase();
  const laterLine = heldAgain
    ? `${step.expected.situation} answered ${word}, its own change not shown yet either`
    : `${step.expected.situation} answered ${word}, as the spec says once the ${verb} is made`;
  const situation = apply(held.state, pending).expected.situation;
  const what = made.onFirst
    ? `user ${made.onFirst.id}, the first of the list, was removed only when the next write arrived, not the user the ${verb} addresses`
    : name === 'removedLate'
      ? `user ${target} was still served after it, and removed only when the next write arrived`
      : `${showUser(applied.users[target])} was not served after it, and stored only when the next write arrived`;
  const findings = [named(name, `${situation} answered success; ${what} (${laterLine})`)];
  if (made.onFirst)
    findings.push(
      named(
        'firstUserTouched',
        `${situation} answered success and removed ${showUser(made.onFirst)}, the first user of the list, not its own`,
      ),
    );
  return {
    findings,
    later: heldAgain ? { ...step, held: { ...step.held, state: applied } } : step,
    found: heldAgain ? judged.filter((d) => !ofTheUsers(d)) : judged,
    heldAgain,
  };
}

const ofTheUsers = (d: Disagreement) => OF_THE_USERS.has(d.signature.aspect);

/** The later write's disagreements (keys) on the state without the pending write made. */
function judgedWithout(before: State, held: Held, later: Operation, seen: Observed, readBack: ReadBack) {
  const step = stepHeld({ ...held, state: before }, later, seen);
  return judgeWrite(before, step.expected, seen, step.disagreements, readBack).map((d) =>
    signatureKey(d.signature),
  );
}

/**
 * The later write is a DELETE answered success that changed nothing the reads show (on the state with
 * the pending write made): its change, if any, is still to come.
 */
function showsNothingYet(applied: State, later: Operation, seen: Observed, readBack: ReadBack): boolean {
  if (later.kind !== 'delete' || seen.body.kind !== 'result' || seen.body.word !== 'success') return false;
  return Object.entries(readBack).every(([id, user]) => {
    const held = applied.users[id];
    return held ? sameUser(held, user) : user === null || !applied.complete;
  });
}
