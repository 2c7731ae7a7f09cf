/**
 * Runs one sequence of operations against a target, step by step, and judges each answer with the
 * model: the same code explores (operations drawn as it goes), shrinks and confirms (operations given).
 */

import { type Known, notKnown, unlessKnown } from '../model/findings.ts';
import {
  adoptList,
  type Expected,
  judgeRestart,
  judgeWrite,
  listShows,
  named,
  observeUsers,
  type ReadBack,
  type SeenUser,
  servedOrNone,
  servedUsers,
  shownTwice,
} from '../model/index.ts';
import { lying, throughBothReaders } from '../support/liars.ts';
import { ASYNC_TIMEOUT_MS, served, stillServedText, untilRemoved, type Waited } from '../support/removal.ts';
import { now, send, type TimedExchange } from './client.ts';
import {
  type Disagreement,
  type Held,
  initial,
  type Step as ModelStep,
  step as modelStep,
  observed,
  reconsider,
  removed,
  removing,
} from './model.ts';
import type { Observation } from './observation.ts';
import {
  type Concrete,
  type ConcreteFill,
  fillPut,
  isWrite,
  type Operation,
  type Request,
  request,
  resolve,
} from './operations.ts';
import type { Pool } from './values.ts';
import { freshPool, slotCount, valueAt } from './values.ts';

export interface Step {
  op: Operation;
  concrete: Concrete;
  exchange: TimedExchange;
  expected: string;
  disagreements: Disagreement[];
  /** The disagreements with defects reported already that it met and went past (none disagree afresh then). */
  met?: Disagreement[];
}

export interface Where {
  url: string;
  pool: Pool;
  /** `all`: a fresh instance, the whole list is judged; `owned`: only the pool's ids are. */
  scope: 'all' | 'owned';
  /** How long a worker whose DELETE was accepted may still be served (apps.ts W-AWAIT); the setting by default (support/removal.ts). */
  asyncMs?: number;
  /** Stops the implementation and starts it again on the same port and data (a fresh instance's only). */
  restart?: () => Promise<void>;
  /** Judged on MUST disagreements only; else SHOULD ones count too, each a defect of its level. */
  mustOnly?: boolean;
}

export interface Instance {
  url: string;
  stop(): Promise<void>;
  /** Stops it and starts it again on the same port and data: sequences on it then restart it now and then. */
  restart?(): Promise<void>;
}

/** A sequence's place on a fresh instance: all of it judged, and restarts when the instance has them. */
export function onFresh(instance: Instance | undefined, url: string, asyncMs?: number): Where {
  const restart = instance?.restart?.bind(instance);
  return { url, pool: freshPool(), scope: 'all', asyncMs, ...(restart ? { restart } : {}) };
}

/** Whole-list reads and restarts (a restart is judged by the list read after it). */
const readsList = (kind: string) => kind === 'LIST' || kind === 'RESTART';

/**
 * RESTART: the implementation restarted (where it can be: elsewhere only the read), then the list
 * read. It is judged by the users it kept (the model's judgeRestart, a SHOULD: the hand-written
 * restart rules name the same defect); when it kept them, as any read of the list.
 */
async function restartAndRead(where: Where, held: Held) {
  const concrete = { kind: 'RESTART' } as const;
  try {
    await where.restart?.();
  } catch (err) {
    // An implementation that does not come back: like a request without an answer, not judged.
    const read = request(concrete);
    const error = `the restart failed: ${(err as Error).message}`;
    const url = where.url + read.path;
    return {
      concrete,
      exchange: { request: { ...read, url }, observation: undefined, error, call: now(), ret: Infinity },
    };
  }
  let exchange = await send(where.url, request(concrete));
  // The first request after a restart may meet a connection the old process held: sent once more.
  if (!exchange.observation && where.restart) exchange = await send(where.url, request(concrete));
  if (!exchange.observation) return { concrete, exchange };
  const judged = modelStep(held, { kind: 'LIST' }, exchange.observation, !where.mustOnly);
  const seen = observed(exchange.observation);
  if (!where.restart || seen.status < 200 || seen.status > 299 || seen.body.kind !== 'users')
    return { concrete, exchange, judged };
  // The list known to lie (support/readers.ts): the users held read through the reader that does not,
  // as the rules' restarted() reads them; what the restart lost is judged, not what the list shows.
  const truth = lying('GET list')
    ? (await throughTruth(where, Object.keys(held.state.users))).back
    : undefined;
  const kept = truth ? Object.values(truth).filter((u): u is SeenUser => !!u) : seen.body.users;
  const lost = where.mustOnly
    ? []
    : judgeRestart(truth ? { ...held.state, complete: false } : held.state, kept);
  if (!lost.length) return { concrete, exchange, judged };
  // Not kept: one defect, not also a list that disagrees; the run goes on from what the reads showed.
  const state = truth ? observeUsers(held.state, truth) : adoptList(held.state, seen.body.users);
  return {
    concrete,
    exchange,
    judged: {
      ...judged,
      held: { ...judged.held, state },
      expected: 'after a restart, the users held before it, as they were',
      disagreements: lost,
    },
  };
}

/**
 * Sends `requests` one after the other, as every step of a sequence, until `until` (ms, `now()`): a
 * fill's PUTs (and their removal) sent at once raced in an implementation without a lock, and its lost
 * writes were named as sequential defects beside the race the concurrent phase names. A thousand take
 * about a second and a half against the self-test implementation.
 */
async function sendEach(url: string, requests: readonly Request[], until: number): Promise<TimedExchange[]> {
  const out: TimedExchange[] = [];
  for (const r of requests) {
    if (now() > until) break;
    out.push(await send(url, r));
  }
  return out;
}

/**
 * The longest a fill's PUTs, and then their removal, may take: an implementation that takes 10 ms a
 * write (an fsync each) would otherwise spend a whole phase on one fill. A fill cut short is not judged,
 * as a request without an answer; a removal cut short leaves the rest of the run's own block behind
 * (ids no one else uses, which the rules never judge).
 */
const FILL_MAX_MS = 3_000;

/**
 * A fill: its PUTs sent one after the other, then each answer judged by the model in the order of the ids
 * (new ids, distinct: the order they took effect in does not matter). The step shows the first PUT
 * that disagreed, else the last one; its disagreements are that PUT's.
 */
async function fill(where: Where, held: Held, op: ConcreteFill) {
  const puts = Array.from({ length: op.count }, (_, i) => fillPut(op, i));
  const exchanges = await sendEach(where.url, puts.map(request), now() + FILL_MAX_MS);
  const lost = exchanges.find((e) => !e.observation);
  if (lost) return { concrete: op, exchange: lost };
  if (exchanges.length < puts.length)
    return { concrete: op, exchange: exchanges.at(-1) as TimedExchange, cut: true as const };
  let judged: ModelStep | undefined;
  let shown = exchanges.length - 1;
  let state = held;
  for (const [i, put] of puts.entries()) {
    const one = modelStep(state, put, (exchanges[i] as TimedExchange).observation);
    state = one.held;
    if (!judged?.disagreements.length) {
      judged = one;
      shown = i;
    }
  }
  const last = judged as ModelStep;
  return {
    concrete: op,
    exchange: exchanges[shown] as TimedExchange,
    judged: {
      ...last,
      held: state,
      expected: `${op.count} PUTs of new ids ${op.first} to ${op.first + BigInt(op.count - 1)}, each: ${last.expected}`,
    },
  };
}

/**
 * Removes what fills of up to `count` users left on the pool's block (not judged): on a shared target
 * only, where a fill's thousand users must not stay behind (the rules read the list too).
 */
export async function removeFill(where: Where, count: number): Promise<void> {
  if (!count || where.scope !== 'owned') return;
  const ids = Array.from({ length: count }, (_, i) => (where.pool.fill + BigInt(i)).toString());
  await sendEach(
    where.url,
    ids.map((id) => ({ method: 'DELETE', path: `/UserService/users/${id}`, headers: {} })),
    now() + FILL_MAX_MS,
  );
}

/**
 * One operation sent and judged by the model. `W-AWAIT` of a worker the model holds as being removed
 * reads it until it is no longer served (B-6), for at most `where.asyncMs`: still served then is a
 * disagreement; `cut` when `stop()` came first (not judged, like a request without an answer).
 */
export async function sendAndJudge(
  where: Where,
  held: Held,
  op: Operation,
  stop: () => boolean = () => false,
): Promise<
  | { concrete: Concrete; exchange: TimedExchange; judged?: undefined; cut?: true }
  | { concrete: Concrete; exchange: TimedExchange; judged: ModelStep; cut?: undefined }
> {
  if (op.kind === 'RESTART') return restartAndRead(where, held);
  const concrete = resolve(op, where.pool, held.created);
  if (concrete.kind === 'FILL') return fill(where, held, concrete);
  const awaiting =
    concrete.kind === 'W-AWAIT' && 'app' in concrete && removing(held, concrete.app, concrete.target ?? '');
  const asyncMs = where.asyncMs ?? ASYNC_TIMEOUT_MS;
  const read = () => send(where.url, request(concrete));
  const waited: Waited<TimedExchange> = awaiting
    ? await untilRemoved(read, (e) => e.observation?.status, asyncMs, stop)
    : { last: await read(), ms: 0 };
  const exchange = waited.last;
  if (waited.cut) return { concrete, exchange, cut: true };
  if (!exchange.observation) return { concrete, exchange };
  let judged = modelStep(held, concrete, exchange.observation, !where.mustOnly);
  // A refusal is not taken on the answer's word: the id is read back (GET and the list, cross-checked),
  // and a write that took effect is judged as accepted (model.ts reconsider).
  if (judged.refused && isWrite(concrete) && 'value' in concrete && held.state.collection) {
    const back = await readBackChecked(where, held, concrete.value, false);
    if (back) judged = reconsider(held, judged, concrete, exchange.observation, back.back, !where.mustOnly);
  }
  if (!awaiting || !('app' in concrete)) return { concrete, exchange, judged };
  const id = concrete.target ?? '';
  if (served(exchange.observation.status))
    judged.disagreements.push(named('workerStillServed', stillServedText(id, waited.ms, 'the explorer')));
  else judged.held = removed(judged.held, concrete.app, id);
  judged.expected = `the worker no longer served within ${asyncMs} ms of its accepted DELETE (B-6)`;
  return { concrete, exchange, judged };
}

export interface SequenceResult {
  steps: Step[];
  /** The index of the first step that disagreed, if any. */
  failedAt?: number;
  /** A request that got no answer: the sequence stopped there (nothing is judged for being slow). */
  unanswered?: string;
  held: Held;
  /** Steps that met a defect reported already (and went on past it). */
  known: number;
  /** Why the sequence stopped unjudged after a known defect: a state the model cannot hold (goOn). */
  beyond?: string;
}

export const poolIds = (pool: Pool): string[] =>
  Array.from({ length: slotCount(pool) }, (_, i) => valueAt(pool, i).toString());

/**
 * What GET by id (plain) shows of `ids`, as the model's read-back. An id whose answer cannot be read
 * (not well-formed XML) is left out: the read is that defect, not a sign that the user is absent.
 */
export async function readBack(where: Where, ids: readonly string[]): Promise<ReadBack> {
  const back: Record<string, SeenUser | null> = {};
  for (const id of ids) {
    const answer = (await send(where.url, { method: 'GET', path: `/UserService/users/${id}`, headers: {} }))
      .observation;
    const seen = answer && observed(answer);
    // No answer (the implementation exited, the connection was refused) says nothing of the user: the
    // model keeps what it holds, as for an unreadable one; it is not a user gone.
    if (!seen || seen.body.kind === 'unreadable') continue;
    back[id] = seen.status < 300 && seen.body.kind === 'user' ? seen.body.user : null;
  }
  return back;
}

/** The ids a read-back of the whole state covers: the pool's and every user the model holds (a fill's). */
const heldIds = (where: Where, held: Held): string[] => [
  ...new Set([...poolIds(where.pool), ...Object.keys(held.state.users)]),
];

/** GET of the list, as every read of it is sent. */
const LIST_REQUEST: Request = { method: 'GET', path: '/UserService/users', headers: {} };

/** A reader of the users that the readers' check found lying (support/readers.ts): GET by id or the list. */
const usersLie = () => !!lying('GET by id') || !!lying('GET list');

/**
 * The state after a write to `written`, from reads that agree with each other: that id by GET, checked
 * against the list (where the two disagree, the reads tell nothing of it: it is left out, and the model
 * keeps what it holds); with `all`, every other id (heldIds) from the list, one request for all, so that
 * a write that removed a fill's user is seen to. Undefined, with `all`, when the list got no answer.
 * When the readers' check found one of the two lying, through the other alone (throughTruth).
 */
export async function readBackChecked(
  where: Where,
  held: Held,
  written: string,
  all: boolean,
): Promise<{ back: ReadBack; listed?: readonly SeenUser[] } | undefined> {
  if (usersLie())
    return throughTruth(
      where,
      all ? [written, ...heldIds(where, held).filter((id) => id !== written)] : [written],
    );
  const back: Record<string, SeenUser | null> = { ...(await readBack(where, [written])) };
  const list = await send(where.url, LIST_REQUEST);
  if (!list.observation) return all ? undefined : { back };
  const listed = observed(list.observation);
  if (listed.body.kind !== 'users') return { back };
  const users = listed.body.users;
  // A list that leaves out a user GET by id serves lies (the LIST step names it): GET by id is taken.
  if (written in back && !(back[written] && !users.some((u) => u.id === written))) {
    if (!listShows(users, written, back[written] ?? null)) delete back[written];
  }
  if (all)
    Object.assign(
      back,
      await listedOrById(
        where,
        held,
        users,
        heldIds(where, held).filter((id) => id !== written),
      ),
    );
  return { back, listed: users };
}

/** The users the list shows now: undefined when a reader is known to lie, or no list was answered. */
export async function listedNow(url: string): Promise<readonly SeenUser[] | undefined> {
  if (usersLie()) return undefined;
  const list = await send(url, LIST_REQUEST);
  if (!list.observation) return undefined;
  const seen = observed(list.observation);
  return seen.body.kind === 'users' ? seen.body.users : undefined;
}

/**
 * What the list shows of `ids`, and of a user the model holds that the list leaves out, what GET by id
 * serves: a list that leaves out users GET by id serves lies about them (as the rules read back,
 * support/judged-users.ts), and the model's state is not changed by its lie. GET by id wins; the
 * list's omission is the LIST step's one defect (`GET list | state-change | user missing`). For a list
 * that leaves users out for a cause the readers' check does not show (a list the check names is not
 * read here: throughTruth).
 */
async function listedOrById(
  where: Where,
  held: Held,
  users: readonly SeenUser[],
  ids: readonly string[],
): Promise<ReadBack> {
  const byId = new Map(users.map((u) => [u.id, u]));
  const back: Record<string, SeenUser | null> = {};
  const leftOut: string[] = [];
  for (const id of ids) {
    const found = byId.get(id);
    if (found) back[id] = found;
    else if (held.state.users[id]) leftOut.push(id);
    else back[id] = null;
  }
  if (!leftOut.length) return back;
  const served = await readBack(where, leftOut);
  // A user with another id than the one asked for is not that user (a GET by id that lies).
  for (const id of leftOut) if (id in served) back[id] = served[id]?.id === id ? (served[id] ?? null) : null;
  return back;
}

/**
 * What the readers that do not lie show of `ids`, as the rules read back when the readers' check found
 * one lying (support/judged-users.ts): GET by id when the list lies; the list when GET by id lies; when
 * both do, whether GET by id serves a user at all, with the list's fields (model throughBothLiars). An id
 * they cannot tell is left out: the model keeps what it holds. `listed`: the list, when it does not lie.
 */
async function throughTruth(
  where: Where,
  ids: readonly string[],
): Promise<{ back: ReadBack; listed?: readonly SeenUser[] }> {
  if (!lying('GET by id')) return { back: await readBack(where, ids) };
  const list = (await send(where.url, LIST_REQUEST)).observation;
  const users = list && servedUsers(observed(list));
  if (!users) return { back: {} };
  const back: Record<string, SeenUser | null> = {};
  if (!lying('GET list')) {
    for (const id of ids) back[id] = users.find((u) => u.id === id) ?? null;
    return { back, listed: users };
  }
  for (const id of ids) {
    const answer = (await send(where.url, { method: 'GET', path: `/UserService/users/${id}`, headers: {} }))
      .observation;
    const user = throughBothReaders(id, answer && servedOrNone(observed(answer)), users);
    if (user !== undefined) back[id] = user;
  }
  return { back };
}

/**
 * After a disagreement whose signature was reported already: go on from the state the implementation
 * shows (a write's id read back, every id held when the known defect touches other users, or what a
 * list showed), so that exploration looks past a known defect for the next one. A write is
 * judged by its effect first (the model's judgeWrite): a known word defect must not hide an update that
 * changed nothing. Returns the state to go on from and the effect's disagreements not set aside.
 */
export async function goOn(
  where: Where,
  before: Held,
  after: Held,
  step: { op: Concrete; model: Expected; observation: Observation },
  known: readonly Disagreement[],
  setAside: SetAside,
): Promise<{ held: Held; fresh: Disagreement[]; beyond?: string }> {
  const { op } = step;
  if (readsList(op.kind)) {
    const seen = observed(step.observation);
    if (seen.body.kind !== 'users') return { held: after, fresh: [] };
    const ids = heldIds(where, after);
    const back = usersLie()
      ? (await throughTruth(where, ids)).back
      : await listedOrById(where, after, seen.body.users, ids);
    return {
      held: { ...after, state: observeUsers(after.state, back) },
      fresh: [],
      ...beyondModel(seen.body.users),
    };
  }
  if (!isWrite(op) || !('value' in op) || !before.state.collection) return { held: after, fresh: [] };
  const others = known.some((d) => d.signature.aspect === 'other-record-touched');
  const read = await readBackChecked(where, before, op.value, others);
  if (!read) return { held: after, fresh: [] };
  const back = read.back;
  const listed = read.listed ?? [];
  const effect = judgeWrite(before.state, step.model, observed(step.observation), known, back, {
    causes: true,
    listed,
  }).filter((d) => d.level === 'MUST');
  // A write that meets a known defect: what else its effect shows is that defect's doing too.
  const fresh = unlessKnown(setAside, effect);
  return { held: { ...after, state: observeUsers(after.state, back) }, fresh, ...beyondModel(listed) };
}

/**
 * A known defect left a state the model cannot hold (an id listed twice): what follows is not judged
 * (its reads would show that defect again under other names: `GET list | user repeated`, `other fields`).
 */
function beyondModel(listed: readonly SeenUser[]): { beyond?: string } {
  const twice = shownTwice(listed);
  return twice.length
    ? { beyond: `the list shows ${twice.map((id) => `user ${id}`).join(', ')} more than once` }
    : {};
}

/** Signatures set aside (model/findings.ts): a disagreement with one of them does not stop a sequence. */
export type SetAside = Known;

/**
 * Runs operations from `next` (undefined ends the sequence) until one disagrees with a signature not
 * set aside, or until `stop()`.
 */
export async function runSequence(
  where: Where,
  next: (index: number) => Operation | undefined,
  stop: () => boolean = () => false,
  setAside: SetAside = new Set(),
): Promise<SequenceResult> {
  let filled = 0;
  const result = await runSteps(
    where,
    (i) => {
      const op = next(i);
      if (op?.kind === 'FILL') filled = Math.max(filled, op.count);
      return op;
    },
    stop,
    setAside,
  );
  await removeFill(where, filled);
  return result;
}

async function runSteps(
  where: Where,
  next: (index: number) => Operation | undefined,
  stop: () => boolean,
  setAside: SetAside,
): Promise<SequenceResult> {
  let held = initial(where.scope === 'all' ? 'all' : poolIds(where.pool));
  const steps: Step[] = [];
  let known = 0;
  let beyond: string | undefined;
  for (let i = 0; !stop(); i++) {
    const op = next(i);
    if (!op) break;
    const sent = await sendAndJudge(where, held, op, stop);
    if (sent.cut) break;
    const { concrete, exchange, judged } = sent;
    if (!judged || !exchange.observation)
      return {
        steps,
        unanswered: `${exchange.request.method} ${exchange.request.path}: ${exchange.error}`,
        held,
        known,
      };
    // MUST first: a step that shows both is named by the MUST disagreement.
    let fresh = notKnown(setAside, judged.disagreements).sort((a, b) =>
      a.level === b.level ? 0 : a.level === 'MUST' ? -1 : 1,
    );
    const met = fresh.length ? [] : judged.disagreements;
    if (met.length) {
      known++;
      const step = { op: concrete, model: judged.model, observation: exchange.observation };
      const went = await goOn(where, held, judged.held, step, judged.disagreements, setAside);
      held = went.held;
      fresh = went.fresh;
      beyond = went.beyond;
    } else held = judged.held;
    steps.push({
      op,
      concrete,
      exchange,
      expected: judged.expected,
      disagreements: fresh,
      ...(met.length ? { met } : {}),
    });
    if (fresh.length) return { steps, failedAt: i, held, known };
    if (beyond) return { steps, held, known, beyond };
  }
  return { steps, held, known };
}

/** Runs a given list of operations. */
export function replay(
  where: Where,
  ops: readonly Operation[],
  setAside?: SetAside,
): Promise<SequenceResult> {
  return runSequence(where, (i) => ops[i], undefined, setAside);
}
