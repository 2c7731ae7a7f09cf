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

export type FormOperation = { kind: 'PUT' | 'POST'; id: IdRef; name: TextValue; profession: TextValue };
export type PathOperation = { kind: 'DELETE' | 'GET'; id: IdRef };
export type ListOperation = { kind: 'LIST' | 'HEAD' | 'OPTIONS' };
/** Section A operations (the XML users). */
export type UserOperation = FormOperation | PathOperation | ListOperation;
/** Section A and section B (apps.ts) operations. */
export type Operation = UserOperation | AppOperation;
export type Kind = UserOperation['kind'];

/** An operation with its id resolved on a pool: the value (canonical decimal) and the text sent. */
interface ResolvedId {
  value: string;
  written: string;
  writing: Writing;
}
export type ConcreteForm = ResolvedId & { kind: 'PUT' | 'POST'; name: TextValue; profession: TextValue };
export type ConcretePath = ResolvedId & { kind: 'DELETE' | 'GET' };
export type Concrete = ConcreteForm | ConcretePath | ListOperation | ConcreteApp;

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

/**
 * A random operation on `pool`, of one of `kinds` (all by default); `plainTexts`: plain words only
 * (the concurrent rounds, where what matters is the order, and a short text keeps a history readable).
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
    case 'POST':
      return { kind, id: id(), name: value(), profession: value() };
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
  if (!('id' in op)) return op;
  const value = valueAt(pool, op.id.slot);
  const id = { value: value.toString(), written: writeId(value, op.id.writing), writing: op.id.writing };
  return op.kind === 'PUT' || op.kind === 'POST'
    ? { kind: op.kind, ...id, name: op.name, profession: op.profession }
    : { kind: op.kind, ...id };
}

export interface Request {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const USERS = '/UserService/users';
/** The request of an operation. A plus sign in the path is sent as it is (only a form decodes it). */
export function request(op: Concrete): Request {
  if ('app' in op) return appRequest(op);
  switch (op.kind) {
    case 'PUT':
    case 'POST':
      return {
        method: op.kind,
        path: USERS,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: formEncode({ id: op.written, name: op.name.text, profession: op.profession.text }),
      };
    case 'DELETE':
    case 'GET':
      return { method: op.kind, path: `${USERS}/${op.written}`, headers: {} };
    case 'LIST':
      return { method: 'GET', path: USERS, headers: {} };
    case 'HEAD':
      return { method: 'HEAD', path: USERS, headers: {} };
    case 'OPTIONS':
      return { method: 'OPTIONS', path: USERS, headers: {} };
  }
}

export const isWrite = (op: { kind: string }) =>
  op.kind === 'PUT' || op.kind === 'POST' || op.kind === 'DELETE';
