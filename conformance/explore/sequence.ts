/**
 * Runs one sequence of operations against a target, step by step, and judges each answer with the
 * model: the same code explores (operations drawn as it goes), shrinks and confirms (operations given).
 */
import {
  disagreement,
  type Expected,
  judgeWrite,
  observeUsers,
  type ReadBack,
  type SeenUser,
} from '../model/index.ts';
import { asyncTimeoutMs, POLL_MS } from './apps.ts';
import { type Exchange, now, send } from './client.ts';
import {
  type Disagreement,
  type Held,
  initial,
  type Step as ModelStep,
  step as modelStep,
  observed,
  removed,
  removing,
  signatureKey,
} from './model.ts';
import type { Observation } from './observation.ts';
import { type Concrete, isWrite, type Operation, request, resolve } from './operations.ts';
import type { Pool } from './values.ts';
import { slotCount, valueAt } from './values.ts';

export interface Step {
  op: Operation;
  concrete: Concrete;
  exchange: Exchange;
  expected: string;
  disagreements: Disagreement[];
}

export interface Where {
  url: string;
  pool: Pool;
  /** `all`: a fresh instance, the whole list is judged; `owned`: only the pool's ids are. */
  scope: 'all' | 'owned';
  /** How long a worker whose DELETE was accepted may still be served (apps.ts W-AWAIT); the setting by default. */
  asyncMs?: number;
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
  | { concrete: Concrete; exchange: Exchange; judged?: undefined; cut?: true }
  | { concrete: Concrete; exchange: Exchange; judged: ModelStep; cut?: undefined }
> {
  const concrete = resolve(op, where.pool, held.created);
  const awaiting =
    concrete.kind === 'W-AWAIT' && 'app' in concrete && removing(held, concrete.app, concrete.target ?? '');
  const began = now();
  const deadline = began + (where.asyncMs ?? asyncTimeoutMs());
  let exchange = await send(where.url, request(concrete));
  const served = (e: Exchange) =>
    !!e.observation && e.observation.status >= 200 && e.observation.status <= 299;
  while (awaiting && served(exchange) && now() < deadline) {
    if (stop()) return { concrete, exchange, cut: true };
    await new Promise((r) => setTimeout(r, POLL_MS));
    exchange = await send(where.url, request(concrete));
  }
  if (!exchange.observation) return { concrete, exchange };
  const judged = modelStep(held, concrete, exchange.observation);
  if (!awaiting || !('app' in concrete)) return { concrete, exchange, judged };
  const id = concrete.target ?? '';
  if (served(exchange))
    judged.disagreements.push(
      disagreement(
        'worker removal',
        'state-change',
        'still served',
        `the worker ${id}, whose DELETE was accepted (202), is still served ${Math.round(now() - began)} ms later (B-6: it is eventually no longer served; CONFORMANCE_ASYNC_TIMEOUT_MS sets how long the explorer waits)`,
      ),
    );
  else judged.held = removed(judged.held, concrete.app, id);
  judged.expected = `the worker no longer served within ${where.asyncMs ?? asyncTimeoutMs()} ms of its accepted DELETE (B-6)`;
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
    if (seen?.body.kind === 'unreadable') continue;
    back[id] = seen && seen.status < 300 && seen.body.kind === 'user' ? seen.body.user : null;
  }
  return back;
}

/**
 * After a disagreement whose signature was reported already: go on from the state the implementation
 * shows (a write's id read back, every id of the pool when the known defect touches other users, or
 * what a list showed), so that exploration looks past a known defect for the next one. A write is
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
): Promise<{ held: Held; fresh: Disagreement[] }> {
  const { op } = step;
  if (op.kind === 'LIST') {
    const seen = observed(step.observation);
    if (seen.body.kind !== 'users') return { held: after, fresh: [] };
    const users = seen.body.users;
    const back = Object.fromEntries(
      poolIds(where.pool).map((id) => [id, users.find((u) => u.id === id) ?? null]),
    );
    return { held: { ...after, state: observeUsers(after.state, back) }, fresh: [] };
  }
  if (!isWrite(op) || !('value' in op) || !before.state.collection) return { held: after, fresh: [] };
  const others = known.some((d) => d.signature.aspect === 'other-record-touched');
  const back = await readBack(where, others ? poolIds(where.pool) : [op.value]);
  const effect = judgeWrite(before.state, step.model, observed(step.observation), known, back).filter(
    (d) => d.level === 'MUST',
  );
  // A write that meets a known defect: what else its effect shows is that defect's doing too.
  const fresh = effect.some((d) => setAside.has(signatureKey(d.signature))) ? [] : effect;
  return { held: { ...after, state: observeUsers(after.state, back) }, fresh };
}

/** Signatures set aside: a disagreement with one of them does not stop a sequence. */
export type SetAside = ReadonlySet<string>;

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
  let held = initial(where.scope === 'all' ? 'all' : poolIds(where.pool));
  const steps: Step[] = [];
  let known = 0;
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
    let fresh = judged.disagreements.filter((d) => !setAside.has(signatureKey(d.signature)));
    if (!fresh.length && judged.disagreements.length) {
      known++;
      const step = { op: concrete, model: judged.model, observation: exchange.observation };
      const went = await goOn(where, held, judged.held, step, judged.disagreements, setAside);
      held = went.held;
      fresh = went.fresh;
    } else held = judged.held;
    steps.push({ op, concrete, exchange, expected: judged.expected, disagreements: fresh });
    if (fresh.length) return { steps, failedAt: i, held, known };
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
