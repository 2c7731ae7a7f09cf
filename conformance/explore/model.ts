/**
 * The spec's model (conformance/model/) as the explorer steps through it:
 * `step(held, operation, observation) → {held, expected, disagreements}`: the model's one step
 * (model/held.ts `stepHeld`, which the rules take too) on the explorer's operations, with the features
 * of the inputs it draws that an implementation may refuse (A-PATH-1, A-R11, RES-USER-6: an id written
 * with leading zeros or a plus sign, in the form or in the path; an id that is zero, negative or beyond
 * 32, 53 or 64 bits; a text of a class such as `long-4096` or `non-bmp`), and the expectation in words.
 */
import {
  type Disagreement,
  disagreement,
  type Expected,
  type Held,
  heldKey,
  initialHeld,
  judgeWrite,
  lieOf,
  type Operation as ModelOperation,
  observed,
  observeUsers,
  type ReadBack,
  type Reader,
  removed,
  removing,
  type Signature,
  type State,
  sameUser,
  signatureKey,
  stepHeld,
} from '../model/index.ts';
import { liars } from '../support/liars.ts';
import { appToModel } from './apps.ts';
import { mediaTypeOf, type Observation } from './observation.ts';
import type { Concrete } from './operations.ts';
import { idClass } from './values.ts';

export type { Held };
export { type Disagreement, type Expected, type Signature, signatureKey };

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
export const initial = (scope: 'all' | readonly string[]): Held => initialHeld(scope);

/** A stable text of what the model holds, for the linearizability checker's cache. */
export const key = heldKey;

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

/** The reader of the users an operation reads through (model/readers.ts). */
const READER: Partial<Record<Concrete['kind'], Reader>> = {
  GET: 'GET by id',
  LIST: 'GET list',
  RESTART: 'GET list',
  HEAD: 'HEAD list',
};

/**
 * The next model state after `op` answered `obs` (undefined: no answer, any answer is allowed): the
 * model's one step (model/held.ts stepHeld), the inputs the explorer draws refusable (`features`) and the
 * bytes of a result or of the operations judged too (RES-RESULT-1, RES-OPS-1, as USR-RESULT-01 and
 * USR-OPT-02 judge them).
 * `should`: SHOULD disagreements count too (a failure result answered 5xx), each with its level: a
 * sequence reports them as defects of that level, which warn rather than fail. A concurrent history
 * is judged on MUST disagreements only: a SHOULD is not a matter of order.
 * A read through a reader the readers' check found lying (support/readers.ts, support/liars.ts) is not
 * judged for its lie (model/readers.ts lieOf): the check named it once; its answer's form still is.
 */
export function step(held: Held, op: Concrete, obs: Observation | undefined, should = false): Step {
  const judged = stepHeld(held, toModel(op), obs && observed(obs), { features: features(op), bytes: true });
  const known = liars();
  const reader = 'app' in op ? undefined : READER[op.kind];
  const counted = (d: Disagreement) => (should || d.level === 'MUST') && !lieOf(known, reader, d);
  const kept = judged.disagreements.filter(counted);
  const out: Step = {
    held: judged.held,
    model: judged.expected,
    ...(judged.refused ? { refused: true as const } : {}),
    expected: describeExpected(judged.expected, judged.after),
    disagreements: kept,
  };
  if (!obs || 'app' in op || (op.kind !== 'LIST' && op.kind !== 'HEAD')) return out;
  // A-R7: HEAD answers the headers GET of the list answers (the model reads no media type without a body).
  const type = mediaTypeOf(obs) ?? 'none';
  if (op.kind === 'LIST') return { ...out, held: { ...out.held, listType: type } };
  if (held.listType === undefined || held.listType === type) return out;
  const headers = disagreement(
    'HEAD list',
    'media-type',
    type,
    `HEAD of the list answered ${type}, where GET of the list answers ${held.listType}`,
  );
  if (counted(headers)) kept.push(headers);
  return out;
}

/**
 * Never trust the answer being judged (issue 45): a write the model took as a refusal of its input (the
 * failure result, or a 4xx, where success was due; `step` said `refused`) judged again by what reads of
 * its id showed afterwards (`back`, GET by id and the list, cross-checked by the caller). When they show
 * the write's effect, the input was accepted and the answer lied: the write is judged as one the model
 * must accept, by its answer and its effect (judgeWrite: `PUT (new id) | result-word | failure` for a PUT
 * that stored its user and answered failure, the signature the hand-written rules give it), the input is
 * held as accepted, and the model goes on from the state the reads showed. When they show nothing
 * changed, or tell nothing of the id, the refusal stands.
 */
export function reconsider(
  held: Held,
  judged: Step,
  op: Concrete,
  obs: Observation,
  back: ReadBack,
  should = false,
): Step {
  if (!judged.refused || !('value' in op) || !(op.value in back)) return judged;
  const id = op.value;
  const seen = back[id] ?? null;
  const was = held.state.users[id];
  if (was ? sameUser(was, seen) : seen === null) return judged;
  const seenObs = observed(obs);
  const accepted = stepHeld(held, toModel(op), seenObs, { bytes: true });
  const found = judgeWrite(
    held.state,
    accepted.expected,
    seenObs,
    accepted.disagreements,
    { [id]: seen },
    {
      causes: true,
    },
  );
  const name = features(op).join(' + ');
  return {
    held: {
      ...accepted.held,
      state: observeUsers(accepted.held.state, { [id]: seen }),
      accepts: { ...held.accepts, [name]: true },
    },
    model: accepted.expected,
    expected: describeExpected(accepted.expected, accepted.after),
    disagreements: found.filter((d) => should || d.level === 'MUST'),
  };
}

export { removed, removing };
