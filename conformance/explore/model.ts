/**
 * The spec's model (conformance/model/) as the explorer steps through it:
 * `step(held, operation, observation) → {held, expected, disagreements}`, where `held` is the model's
 * state and choices plus what the explorer adds on top: the inputs an implementation may refuse.
 *
 * The model names the answers the spec allows; the explorer sends inputs the model leaves open whether
 * an implementation accepts them (A-PATH-1, A-R11, RES-USER-6): an id written with leading zeros or a
 * plus sign, in the form or in the path; an id that is zero, negative or beyond 32, 53 or 64 bits; a
 * text of a class such as `long-4096` or `non-bmp`. An implementation may refuse such an input (a 4xx
 * without a result, or the failure result where success was due): the refused write changes nothing.
 * It is then held to its choice: the same input (the same set of features, in the same place) accepted
 * once and refused later, or the other way round, is a disagreement (`refusal`). Whatever it accepts is
 * judged by the model as any other input.
 */
import {
  adopt,
  apply,
  type Choices,
  type Disagreement,
  disagreement,
  type Expected,
  initialState,
  judge,
  judgeBytes,
  type Operation as ModelOperation,
  noChoices,
  type Observed,
  observed,
  type Signature,
  type State,
  sharedState,
  signatureKey,
} from '../model/index.ts';
import { appToModel, type Created, learn, NOTHING_CREATED } from './apps.ts';
import { mediaTypeOf, type Observation } from './observation.ts';
import type { Concrete } from './operations.ts';
import { idClass } from './values.ts';

export { type Disagreement, type Expected, type Signature, signatureKey };

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
  /** The ids the section B creates were answered with, in order: what a ref stands for (apps.ts). */
  created?: Created;
}

export interface Step {
  held: Held;
  /** The model's expectation. */
  model: Expected;
  /** The implementation refused the input: nothing changed. */
  refused?: true;
  /** What the model expected, in words, for the report. */
  expected: string;
  disagreements: Disagreement[];
}

/** A fresh instance (`all`), or the ids the run owns on a shared target. */
export function initial(scope: 'all' | readonly string[]): Held {
  return scope === 'all'
    ? { state: initialState(), choices: {}, accepts: {} }
    : { state: sharedState(), choices: {}, accepts: {}, owned: scope };
}

/** A stable text of what the model holds, for the linearizability checker's cache. */
export function key(held: Held): string {
  const users = Object.entries(held.state.users).sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify([held.state.collection, users, held.choices, held.accepts]);
}

export function toModel(op: Concrete): ModelOperation {
  if ('app' in op) return appToModel(op);
  switch (op.kind) {
    case 'PUT':
    case 'POST': {
      const user: { id: string; name?: string; profession?: string } = {
        id: op.written,
        name: op.name.text,
        profession: op.profession.text,
      };
      if (op.omit) delete user[op.omit];
      return { kind: op.kind === 'PUT' ? 'put' : 'post', user };
    }
    case 'FILL':
      throw new Error('a fill is judged PUT by PUT (sequence.ts)');
    case 'DELETE':
      return { kind: 'delete', id: op.written };
    case 'GET':
      return { kind: 'get', id: op.written };
    case 'LIST':
    case 'RESTART':
      return { kind: 'list' };
    case 'HEAD':
      return { kind: 'head-list' };
    case 'OPTIONS':
      return { kind: 'options' };
  }
}

export { observed };

/** The features of an input the model lets an implementation refuse (none: it must be accepted). */
export function features(op: Concrete): string[] {
  if (!('value' in op)) return [];
  const place = op.kind === 'PUT' || op.kind === 'POST' ? 'form' : 'path';
  const out: string[] = [];
  if (op.written !== op.value) out.push(`${place} id: ${op.writing}`);
  const cls = idClass(BigInt(op.value));
  if (cls !== 'ordinary') out.push(`id: ${cls}`);
  if ('name' in op) {
    for (const [field, t] of [
      ['name', op.name],
      ['profession', op.profession],
    ] as const)
      if (op.omit !== field && t.cls !== 'plain') out.push(`text: ${t.cls}`);
    if (op.omit) out.push(`form: without ${op.omit}`);
  }
  return [...new Set(out)].sort();
}

const showUser = (u: { id: string; name?: string; profession?: string }) =>
  `user ${u.id}${u.name === undefined ? ' (fields of its choice)' : ` (${JSON.stringify(u.name)}, ${JSON.stringify(u.profession)})`}`;

/** The users a list must hold, in words: after a fill, the first few and how many more. */
const SHOWN_USERS = 12;
const showUsers = (users: readonly { id: string; name?: string; profession?: string }[]) =>
  users.length === 0
    ? 'no user'
    : users.length <= SHOWN_USERS
      ? users.map(showUser).join(', ')
      : `${users.length} users: ${users.slice(0, SHOWN_USERS).map(showUser).join(', ')}, … and ${users.length - SHOWN_USERS} more`;

/** The model's expectation in words: the situation, the answer, the state afterwards. */
export function describeExpected(expected: Expected, after: State): string {
  const status =
    expected.status.kind === 'success'
      ? '2xx'
      : expected.status.kind === 'exact'
        ? expected.status.statuses.join(' or ')
        : expected.status.kind === 'exact-or-not-served'
          ? `${expected.status.statuses.join(' or ')}, or not 2xx`
          : expected.status.kind === 'choice'
            ? 'the status it chose for such answers'
            : expected.status.kind === 'not-served'
              ? 'not 2xx'
              : 'any status';
  const body = expected.body;
  const what =
    body.kind === 'result'
      ? `<result>${body.word}</result>`
      : body.kind === 'user'
        ? `the user element of ${showUser(body.user)}`
        : body.kind === 'no-user'
          ? `no user element (no user ${body.id})`
          : body.kind === 'users'
            ? `${body.exact ? 'exactly' : 'among others'} ${showUsers(body.users)}${body.absent.length ? `, and none of ${body.absent.join(', ')}` : ''}`
            : body.kind === 'operations'
              ? '<operations>GET, PUT, POST, DELETE</operations>'
              : body.kind === 'none'
                ? 'no body'
                : body.kind === 'domain'
                  ? `with 200/201 the whole domain${body.domain ? ` ${JSON.stringify(body.domain)}` : ''}${body.hostname ? ` (hostname ${body.hostname})` : ''}, with 202 {}`
                  : body.kind === 'created'
                    ? `with 200/201 the whole ${body.resource}, with 202 {}`
                    : body.kind === 'empty-object'
                      ? '{}'
                      : body.kind === 'array'
                        ? 'a JSON array'
                        : 'any body';
  const media =
    expected.media === 'xml' ? ' application/xml' : expected.media === 'json' ? ' application/json' : '';
  const id = expected.touches[0];
  const afterwards =
    id === undefined ? '' : `; afterwards ${after.users[id] ? showUser(after.users[id]) : `no user ${id}`}`;
  return `${expected.situation}: ${status}${media}, ${what}${afterwards}`;
}

/**
 * The model's judge, with the choices of the answer's situation (see Held.choices); the bytes of a
 * result or of the operations too (RES-RESULT-1, RES-OPS-1), as USR-RESULT-01 and USR-OPT-02 judge them.
 */
function judgeIn(choices: Held['choices'], expected: Expected, seen: Observed) {
  const situation = expected.situation.replace(', first read', '');
  const judged = judge(expected, seen, choices[situation] ?? noChoices());
  const exact = expected.body.kind === 'result' || expected.body.kind === 'operations';
  return {
    disagreements: [...judged.disagreements, ...(exact ? judgeBytes(expected.situation, seen) : [])],
    choices: { ...choices, [situation]: judged.choices },
  };
}

const is2xx = (status: number) => status >= 200 && status <= 299;

/**
 * The next model state after `op` answered `obs` (undefined: no answer, any answer is allowed).
 * `should`: SHOULD disagreements count too (a failure result answered 5xx), each with its level: a
 * sequence reports them as defects of that level, which warn rather than fail. A concurrent history
 * is judged on MUST disagreements only: a SHOULD is not a matter of order.
 */
export function step(held: Held, op: Concrete, obs: Observation | undefined, should = false): Step {
  const judged = stepAll(held, op, obs);
  const counted = (d: Disagreement) => should || d.level === 'MUST';
  if ('app' in op) {
    // Section B: the model learns a created resource from the answer, and the ref its id (apps.ts).
    const kept = judged.disagreements.filter(counted);
    if (!obs) return { ...judged, disagreements: kept };
    const seen = observed(obs);
    const state = adopt(judged.held.state, toModel(op), seen);
    const created = learn(judged.held.created ?? NOTHING_CREATED, op, seen);
    return { ...judged, held: { ...judged.held, state, created }, disagreements: kept };
  }
  const kept = judged.disagreements.filter(counted);
  if (!obs || (op.kind !== 'LIST' && op.kind !== 'HEAD')) return { ...judged, disagreements: kept };
  // A-R7: HEAD answers the headers GET of the list answers (the model reads no media type without a body).
  const type = mediaTypeOf(obs) ?? 'none';
  if (op.kind === 'LIST') return { ...judged, held: { ...judged.held, listType: type }, disagreements: kept };
  if (held.listType !== undefined && held.listType !== type)
    kept.push(
      disagreement(
        'HEAD list',
        'media-type',
        type,
        `HEAD of the list answered ${type}, where GET of the list answers ${held.listType}`,
      ),
    );
  return { ...judged, disagreements: kept };
}

function stepAll(held: Held, op: Concrete, obs: Observation | undefined): Step {
  const modelOp = toModel(op);
  const applied = apply(held.state, modelOp);
  let expected = applied.expected;
  // On a shared target the ids the run owns and the model does not hold must not be listed.
  if (held.owned && expected.body.kind === 'users') {
    const users = held.state.users;
    expected = { ...expected, body: { ...expected.body, absent: held.owned.filter((id) => !users[id]) } };
  }
  const words = describeExpected(expected, applied.state);
  const next = (state: State, choices: Held['choices'], accepts = held.accepts): Held => ({
    ...held,
    state,
    choices,
    accepts,
  });
  if (!obs)
    return { held: next(applied.state, held.choices), model: expected, expected: words, disagreements: [] };
  const seen = observed(obs);
  const feats = features(op);
  /** An answer nothing is learnt or held from: the write changed nothing. */
  const unchanged: Step = {
    held: next(held.state, held.choices),
    model: expected,
    refused: true,
    expected: words,
    disagreements: [],
  };
  // A-R11: a form without a field may be answered anything, a server error too (HTTP-04 warns of
  // that, a SHOULD): nothing is learnt or held from it, and it changed nothing.
  if ('omit' in op && op.omit && seen.body.kind !== 'result' && seen.status >= 500) return unchanged;
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
              'accepted and refused',
              `${op.kind} with ${name} is ${accepted ? 'accepted' : 'refused'} (${obs.status}), where the same input was ${before ? 'accepted' : 'refused'} before`,
            ),
          ];
    const accepts = (accepted: boolean) => ({ ...held.accepts, [name]: accepted });
    /** The input accepted: held as such, and the answer judged. */
    const accepted = (): Step => {
      const judged = judgeIn(held.choices, expected, seen);
      return {
        held: next(applied.state, judged.choices, accepts(true)),
        model: expected,
        expected: words,
        disagreements: [...hold(true), ...judged.disagreements],
      };
    };
    const word = seen.body.kind === 'result' ? seen.body.word : undefined;
    const wanted = expected.body.kind === 'result' ? expected.body.word : undefined;
    if (op.kind === 'GET') {
      const due = expected.body.kind === 'user';
      const served = is2xx(seen.status) && seen.body.kind === 'user';
      // Where no user is due, a refusal and "no such user" look alike: nothing to learn or hold.
      if (!due && !served)
        return {
          held: next(applied.state, held.choices),
          model: expected,
          expected: words,
          disagreements: [],
        };
      if (due && !served)
        return {
          held: next(applied.state, held.choices, accepts(false)),
          model: expected,
          expected: words,
          disagreements: hold(false),
        };
      return accepted();
    }
    if (op.kind !== 'PUT' && op.kind !== 'POST' && op.kind !== 'DELETE') throw new Error('unreachable');
    // Where the failure result is due anyway, a failure tells nothing of the input (refused, or the
    // failure due), so its status is not held to the one chosen for such failures: an implementation
    // may answer a refused input otherwise (400 to a form without a field). Nothing learnt or changed.
    const bare4xx = word === undefined && seen.status >= 400 && seen.status < 500;
    if (wanted === 'failure' && (word === 'failure' || bare4xx)) return unchanged;
    const refused = bare4xx || (word === 'failure' && wanted === 'success');
    if (refused)
      return {
        held: next(held.state, held.choices, accepts(false)),
        model: expected,
        refused: true,
        expected: words,
        disagreements: hold(false),
      };
    if (word === 'success' && wanted === 'success') {
      return accepted();
    }
  }
  const judged = judgeIn(held.choices, expected, seen);
  return {
    held: next(applied.state, judged.choices),
    model: expected,
    expected: words,
    disagreements: judged.disagreements,
  };
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
