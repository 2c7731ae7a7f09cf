/**
 * The operations the explorer sends (section A of the spec), as data: generated from a seeded Rng,
 * written against the slots of an id pool (so that a sequence replays on another pool), resolved to a
 * concrete operation (the id's value and how it is written), and rendered as an HTTP request.
 */
import { formEncode } from '../support/form.ts';
import {
  type AppOperation,
  appRequest,
  type ConcreteApp,
  type Created,
  isAppOperation,
  NOTHING_CREATED,
  resolveApp,
} from './apps.ts';
import type { Rng } from './prng.ts';
import {
  type Pool,
  slot,
  TEXTS,
  type TextClass,
  text,
  valueAt,
  type Writing,
  writeId,
  writing,
} from './values.ts';

export interface IdRef {
  slot: number;
  writing: Writing;
}
export interface TextValue {
  text: string;
  cls: TextClass;
}

/** A form field left out of the form (A-R11: open what a write answers; RES-USER-1 whatever is stored). */
export type Omitted = 'name' | 'profession';
export type FormOperation = {
  kind: 'PUT' | 'POST';
  id: IdRef;
  name: TextValue;
  profession: TextValue;
  omit?: Omitted;
};
export type PathOperation = { kind: 'DELETE' | 'GET'; id: IdRef };
export type ListOperation = { kind: 'LIST' | 'HEAD' | 'OPTIONS' };
/**
 * `count` new users created by PUT at consecutive ids from the pool's fill block (a big collection:
 * A-R1.1, LIM-1), sent a few at a time; each answer judged by the model as a PUT of a new id.
 */
export type FillOperation = { kind: 'FILL'; count: number };
/** Section A operations (the XML users). */
export type UserOperation = FormOperation | PathOperation | ListOperation | FillOperation;
/**
 * The implementation stopped and started again on the same port and data, then the list read (a fresh
 * instance's only: elsewhere the read alone). Not an HTTP operation: a script shows it as a comment.
 */
export type RestartOperation = { kind: 'RESTART' };
/** Section A and section B (apps.ts) operations, and restarts. */
export type Operation = UserOperation | AppOperation | RestartOperation;
export type Kind = Exclude<UserOperation['kind'], 'FILL'>;

/** An operation with its id resolved on a pool: the value (canonical decimal) and the text sent. */
interface ResolvedId {
  value: string;
  written: string;
  writing: Writing;
}
export type ConcreteForm = ResolvedId & {
  kind: 'PUT' | 'POST';
  name: TextValue;
  profession: TextValue;
  omit?: Omitted;
};
export type ConcretePath = ResolvedId & { kind: 'DELETE' | 'GET' };
/** A fill with its block resolved: ids `first` … `first + count - 1`. */
export type ConcreteFill = FillOperation & { first: bigint };
export type Concrete =
  | ConcreteForm
  | ConcretePath
  | ListOperation
  | ConcreteFill
  | RestartOperation
  | ConcreteApp;

/** The PUT of the fill's `i`-th user: plain texts, the name telling the id. */
export function fillPut(fill: ConcreteFill, i: number): ConcreteForm {
  const value = (fill.first + BigInt(i)).toString();
  return {
    kind: 'PUT',
    value,
    written: value,
    writing: 'plain',
    name: { text: `fill-${value}`, cls: 'plain' },
    profession: { text: 'filler', cls: 'plain' },
  };
}

/** Relative frequencies: writes and reads by id most, whole-list reads now and then. */
const WEIGHTS: ReadonlyArray<[Kind, number]> = [
  ['PUT', 26],
  ['POST', 20],
  ['DELETE', 15],
  ['GET', 22],
  ['LIST', 9],
  ['HEAD', 5],
  ['OPTIONS', 3],
];

export function kindOf(rng: Rng, kinds: readonly Kind[] = WEIGHTS.map(([k]) => k)): Kind {
  const allowed = WEIGHTS.filter(([k]) => kinds.includes(k));
  let n = rng.next() * allowed.reduce((sum, [, w]) => sum + w, 0);
  for (const [k, w] of allowed) {
    n -= w;
    if (n < 0) return k;
  }
  return (allowed.at(-1) as [Kind, number])[0];
}

/** How often a PUT or POST of a sequence leaves a field out of its form (A-R11). */
const OMIT_CHANCE = 0.04;

/**
 * A random operation on `pool`, of one of `kinds` (all by default); `plainTexts`: plain words only
 * (the concurrent rounds, where what matters is the order, and a short text keeps a history readable),
 * and never a form without a field.
 */
export function randomOperation(
  rng: Rng,
  pool: Pool,
  kinds?: readonly Kind[],
  plainTexts = false,
): UserOperation {
  const kind = kinds ? kindOf(rng, kinds) : kindOf(rng);
  const id = (): IdRef => ({ slot: slot(rng, pool), writing: writing(rng) });
  const value = (): TextValue => (plainTexts ? { text: TEXTS.plain(rng), cls: 'plain' } : text(rng));
  switch (kind) {
    case 'PUT':
    case 'POST': {
      const form: FormOperation = { kind, id: id(), name: value(), profession: value() };
      if (!plainTexts && rng.chance(OMIT_CHANCE)) form.omit = rng.pick(['name', 'profession'] as const);
      return form;
    }
    case 'DELETE':
    case 'GET':
      return { kind, id: id() };
    default:
      return { kind };
  }
}

/** `created`: the ids the section B creates of this run were answered with (apps.ts refs). */
export function resolve(op: Operation, pool: Pool, created: Created = NOTHING_CREATED): Concrete {
  if (isAppOperation(op)) return resolveApp(op, pool.app, created);
  if (op.kind === 'FILL') return { ...op, first: pool.fill };
  if (!('id' in op)) return op;
  const value = valueAt(pool, op.id.slot);
  const id = { value: value.toString(), written: writeId(value, op.id.writing), writing: op.id.writing };
  return op.kind === 'PUT' || op.kind === 'POST'
    ? {
        kind: op.kind,
        ...id,
        name: op.name,
        profession: op.profession,
        ...(op.omit ? { omit: op.omit } : {}),
      }
    : { kind: op.kind, ...id };
}

export interface Request {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const USERS = '/UserService/users';
/**
 * The request of an operation (of a fill: its first PUT, sequence.ts sends the others; of a restart:
 * the read of the list after it). A plus sign in the path is sent as it is (only a form decodes it).
 */
export function request(op: Concrete): Request {
  if ('app' in op) return appRequest(op);
  switch (op.kind) {
    case 'FILL':
      return request(fillPut(op, 0));
    case 'PUT':
    case 'POST': {
      const fields: Record<string, string> = {
        id: op.written,
        name: op.name.text,
        profession: op.profession.text,
      };
      if (op.omit) delete fields[op.omit];
      return {
        method: op.kind,
        path: USERS,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: formEncode(fields),
      };
    }
    case 'DELETE':
    case 'GET':
      return { method: op.kind, path: `${USERS}/${op.written}`, headers: {} };
    case 'LIST':
    case 'RESTART':
      return { method: 'GET', path: USERS, headers: {} };
    case 'HEAD':
      return { method: 'HEAD', path: USERS, headers: {} };
    case 'OPTIONS':
      return { method: 'OPTIONS', path: USERS, headers: {} };
  }
}

export const isWrite = (op: { kind: string }) =>
  op.kind === 'PUT' || op.kind === 'POST' || op.kind === 'DELETE';
