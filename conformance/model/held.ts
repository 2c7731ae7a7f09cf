/**
 * What the model holds of one implementation while the rules (support/judged.ts) or the explorer
 * (explore/model.ts) step through it, and the one pure step that judges an answer and goes on:
 * `stepHeld(held, operation, observed) → {held, expected, disagreements}`.
 *
 * The held state is the model's state plus what the implementation chose or showed on the way: the
 * choices where the spec is open, held per situation; the inputs it accepts or refuses; on a shared
 * target, the ids the run owns; the ids its section B creates were answered with.
 *
 * The model names the answers the spec allows; some inputs it leaves open whether an implementation
 * accepts them (A-PATH-1, A-R11, RES-USER-6): an id written with leading zeros or a plus sign, in the form
 * or in the path; an id that is zero, negative or beyond 32, 53 or 64 bits; a text of a class such as
 * `long-4096` or `non-bmp`. The caller names such an input by its features (the explorer draws them). An
 * implementation may refuse such an input (a 4xx without a result, or the failure result where success
 * was due): the refused write changes nothing. It is then held to its choice: the same input (the same
 * set of features) accepted once and refused later, or the other way round, is a disagreement
 * (`refusal`). Whatever it accepts is judged by the model as any other input.
 */
import { apply, type Expected } from './answers.ts';
import { type Choices, noChoices } from './choices.ts';
import { adopt, refusalCause } from './effects.ts';
import { createdId } from './formats.ts';
import { judge, judgeBytes } from './judge.ts';
import { is2xx, type Observed } from './observe.ts';
import type { Operation } from './operations.ts';
import { type Disagreement, disagreement, type Signature } from './signature.ts';
import { initialState, type State, sharedState } from './state.ts';

/** The ids the section B creates were answered with, in order (the explorer's refs index them). */
export interface Created {
  domains: readonly string[];
  workers: readonly string[];
}
export const NOTHING_CREATED: Created = { domains: [], workers: [] };

export interface Held {
  state: State;
  /**
   * The model's choices, held per situation (`PUT (existing id)`, `DELETE (unknown id)`): the spec
   * leaves the status of each failure open, and an implementation may answer 409 to one and 404 to
   * another (the reference server does); it is held to what it answered in the same situation.
   */
  choices: Readonly<Record<string, Choices>>;
  /** Input features (`form id: zeros + text: long-4096`) → accepted (true) or refused (false). */
  accepts: Readonly<Record<string, boolean>>;
  /** The media type of the last list answer: HEAD of the list answers the same headers (A-R7). */
  listType?: string;
  /** The ids the run owns on a shared target (a listed one the model does not hold is extra); undefined on a fresh instance. */
  owned?: readonly string[];
  /** The ids the section B creates were answered with, in order. */
  created?: Created;
}

/** A fresh instance (`all`), a shared target whose other users are unknown (`shared`), or the ids the run owns on one. */
export function initialHeld(scope: 'all' | 'shared' | readonly string[]): Held {
  if (scope === 'all') return { state: initialState(), choices: {}, accepts: {} };
  if (scope === 'shared') return { state: sharedState(), choices: {}, accepts: {} };
  return { state: sharedState(), choices: {}, accepts: {}, owned: scope };
}

const ACCEPTED_AND_REFUSED = 'accepted and refused';
/**
 * A disagreement named by the input's features (the same input accepted once and refused later): the
 * input is its cause only when the same steps with plain inputs do not disagree there too (the explorer
 * asks, explore/confirm.ts withoutTheInput); a failure of plain inputs has the rules' name.
 */
export const inputHeld = (s: Signature): boolean => s.aspect === 'status' && s.seen === ACCEPTED_AND_REFUSED;

/** A stable text of what the model holds of section A, for the linearizability search's cache. */
export function heldKey(held: Held): string {
  const users = Object.entries(held.state.users).sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify([held.state.collection, users, held.choices, held.accepts]);
}

/** The situation an answer's choices are held in. */
const situationOf = (expected: Expected) => expected.situation.replace(', first read', '');

/**
 * The model's judge, with the choices of the answer's situation (see Held.choices); with `bytes`, the
 * bytes of a result or of the operations too (RES-RESULT-1, RES-OPS-1).
 */
export function judgeHeld(
  choices: Held['choices'],
  expected: Expected,
  seen: Observed,
  bytes = false,
): { disagreements: Disagreement[]; choices: Held['choices'] } {
  const situation = situationOf(expected);
  const judged = judge(expected, seen, choices[situation] ?? noChoices());
  const exact = bytes && (expected.body.kind === 'result' || expected.body.kind === 'operations');
  return {
    disagreements: [...judged.disagreements, ...(exact ? judgeBytes(expected.situation, seen) : [])],
    choices: { ...choices, [situation]: judged.choices },
  };
}

/** What the model expects of `op` on `held`: on a shared target the ids the run owns and does not hold must not be listed. */
export function expectedOf(held: Held, op: Operation): { state: State; expected: Expected } {
  const applied = apply(held.state, op);
  if (!held.owned || applied.expected.body.kind !== 'users') return applied;
  const users = held.state.users;
  const absent = held.owned.filter((id) => !users[id]);
  return {
    state: applied.state,
    expected: { ...applied.expected, body: { ...applied.expected.body, absent } },
  };
}

export interface HeldStep {
  held: Held;
  /** The model's expectation. */
  expected: Expected;
  /** The state the model expected afterwards (before what the answer taught it). */
  after: State;
  /** The implementation refused the input: nothing changed. */
  refused?: true;
  disagreements: Disagreement[];
}

export interface StepOptions {
  /** The features of an input the model lets an implementation refuse (see above); without them, none is refusable. */
  features?: readonly string[];
  /** Judge the bytes of a result or of the operations too (judgeHeld). */
  bytes?: boolean;
}

const isApp = (op: Operation) => op.kind.startsWith('domain-') || op.kind.startsWith('worker-');

/** The ids learned after a create was answered `seen` (unchanged for any other operation). */
export function learnCreated(created: Created, op: Operation, seen: Observed): Created {
  if ((op.kind !== 'domain-create' && op.kind !== 'worker-create') || !is2xx(seen.status)) return created;
  const id = createdId(seen);
  if (id === undefined) return created;
  return op.kind === 'domain-create'
    ? { ...created, domains: [...created.domains, id] }
    : { ...created, workers: [...created.workers, id] };
}

/**
 * The one step: `op` answered `seen` (undefined: no answer, any answer is allowed), judged on `held`;
 * the held state to go on from (a section B create's resource and id learnt from its answer, model
 * adopt), the expectation and every disagreement (MUST and SHOULD, each with its level).
 */
export function stepHeld(
  held: Held,
  op: Operation,
  seen: Observed | undefined,
  options: StepOptions = {},
): HeldStep {
  const judged = stepInput(held, op, seen, options);
  if (!seen || !isApp(op)) return judged;
  const state = adopt(judged.held.state, op, seen);
  const created = learnCreated(judged.held.created ?? NOTHING_CREATED, op, seen);
  return { ...judged, held: { ...judged.held, state, created } };
}

function stepInput(held: Held, op: Operation, seen: Observed | undefined, options: StepOptions): HeldStep {
  const { state: after, expected } = expectedOf(held, op);
  const next = (state: State, choices: Held['choices'], accepts = held.accepts): Held => ({
    ...held,
    state,
    choices,
    accepts,
  });
  if (!seen) return { held: next(after, held.choices), expected, after, disagreements: [] };
  const feats = options.features;
  if (feats) {
    /** An answer nothing is learnt or held from: the write changed nothing. */
    const unchanged: HeldStep = {
      held: next(held.state, held.choices),
      expected,
      after,
      refused: true,
      disagreements: [],
    };
    const omits =
      (op.kind === 'put' || op.kind === 'post') &&
      (op.user.name === undefined || op.user.profession === undefined);
    // A-R11: a form without a field may be answered anything, a server error too (HTTP-04 warns of
    // that, a SHOULD): nothing is learnt or held from it, and it changed nothing.
    if (omits && seen.body.kind !== 'result' && seen.status >= 500) return unchanged;
    // A body no reader can parse is that defect (the judge names it), not a refusal of the input.
    if (feats.length > 0 && seen.body.kind !== 'unreadable') {
      const name = feats.join(' + ');
      const before = held.accepts[name];
      const hold = (accepted: boolean): Disagreement[] =>
        before === undefined || before === accepted
          ? []
          : [
              disagreement(
                // One signature for leading zeros and plus signs alike: one read or write path that parses ids its own way.
                `input with ${name.replace(/id: (zeros|plus)/, 'id: another writing')}`,
                'status',
                ACCEPTED_AND_REFUSED,
                `${op.kind.toUpperCase()} with ${name} is ${accepted ? 'accepted' : 'refused'} (${seen.status}), where the same input was ${before ? 'accepted' : 'refused'} before`,
              ),
            ];
      const accepts = (accepted: boolean) => ({ ...held.accepts, [name]: accepted });
      /** The input accepted: held as such, and the answer judged. */
      const accepted = (): HeldStep => {
        const judged = judgeHeld(held.choices, expected, seen, options.bytes);
        return {
          held: next(after, judged.choices, accepts(true)),
          expected,
          after,
          disagreements: [...hold(true), ...judged.disagreements],
        };
      };
      const word = seen.body.kind === 'result' ? seen.body.word : undefined;
      const wanted = expected.body.kind === 'result' ? expected.body.word : undefined;
      if (op.kind === 'get') {
        const due = expected.body.kind === 'user';
        const served = is2xx(seen.status) && seen.body.kind === 'user';
        // Where no user is due, a refusal and "no such user" look alike: nothing to learn or hold.
        if (!due && !served) return { held: next(after, held.choices), expected, after, disagreements: [] };
        if (due && !served)
          return {
            held: next(after, held.choices, accepts(false)),
            expected,
            after,
            disagreements: hold(false),
          };
        return accepted();
      }
      if (op.kind !== 'put' && op.kind !== 'post' && op.kind !== 'delete') throw new Error('unreachable');
      // Where the failure result is due anyway, a failure tells nothing of the input (refused, or the
      // failure due), so its status is not held to the one chosen for such failures: an implementation
      // may answer a refused input otherwise (400 to a form without a field). Nothing learnt or changed.
      const bare4xx = word === undefined && seen.status >= 400 && seen.status < 500;
      if (wanted === 'failure' && (word === 'failure' || bare4xx)) return unchanged;
      const refused = bare4xx || (word === 'failure' && wanted === 'success');
      // A PUT of a new id refused where the model sees a cause other than its input (an id deleted
      // before, another user with the same fields): not held as a refusal of the input. Judged only when
      // the same input was accepted before, and then named by that cause, not as accepted and refused.
      const cause =
        refused && op.kind === 'put' && wanted === 'success' && expected.touches[0] !== undefined
          ? refusalCause(
              held.state,
              { id: expected.touches[0], name: op.user.name, profession: op.user.profession },
              expected.situation,
            )
          : undefined;
      if (cause)
        return {
          held: next(held.state, held.choices),
          expected,
          after,
          refused: true,
          disagreements: hold(false).length ? [cause] : [],
        };
      if (refused)
        return {
          held: next(held.state, held.choices, accepts(false)),
          expected,
          after,
          refused: true,
          disagreements: hold(false),
        };
      if (word === 'success' && wanted === 'success') return accepted();
    }
  }
  const judged = judgeHeld(held.choices, expected, seen, options.bytes);
  return { held: next(after, judged.choices), expected, after, disagreements: judged.disagreements };
}

/** A worker whose removal was accepted and is now seen carried out: the model no longer holds it (B-6). */
export function removed(held: Held, app: string, id: string): Held {
  const apps = held.state.apps;
  const workers = { ...(apps[app]?.workers ?? {}) };
  delete workers[id];
  const domains = apps[app]?.domains ?? {};
  return { ...held, state: { ...held.state, apps: { ...apps, [app]: { domains, workers } } } };
}

/** Whether the model holds the worker `id` of `app` as being removed (an accepted DELETE). */
export const removing = (held: Held, app: string, id: string): boolean =>
  held.state.apps[app]?.workers[id]?.removing === true;
