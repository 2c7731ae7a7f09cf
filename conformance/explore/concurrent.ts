/**
 * One round of concurrent exploration: several clients send random operations on a few ids at once;
 * every exchange is recorded with its call and return times; the reads after the last answer close the
 * history; the history is checked, id by id, for linearizability against the model.
 */

import { moreThanOneSuccess, NAMED_DEFECTS } from '../model/index.ts';
import {
  checkHistory,
  type HistoryOp,
  minimalWitness,
  partition,
  type SequentialModel,
} from '../model/order.ts';
import { send, type TimedExchange } from './client.ts';
import { type Held, initial, key, step as modelStep, type Signature } from './model.ts';
import type { Observation } from './observation.ts';
import {
  type Concrete,
  type FormOperation,
  type Kind,
  type Operation,
  randomOperation,
  request,
  resolve,
} from './operations.ts';
import type { Rng } from './prng.ts';
import { type Pool, valueAt } from './values.ts';

/** The ids of a round: three of the pool's core slots (N, N+1, N+1000). */
export const ROUND_SLOTS = [0, 1, 2] as const;
const WRITES: readonly Kind[] = ['PUT', 'POST', 'DELETE'];
/**
 * Every pair of writes, on one id and on two ids: round r makes clients 0 and 1 open with pair r mod 18,
 * at the same moment, so that every pair meets within 18 rounds whatever else the clients draw.
 */
export const PAIRS: ReadonlyArray<{ a: Kind; b: Kind; sameId: boolean }> = WRITES.flatMap((a) =>
  WRITES.flatMap((b) => [true, false].map((sameId) => ({ a, b, sameId }))),
);

export interface Recorded extends HistoryOp<Concrete, Observation> {
  op: Operation;
  exchange: TimedExchange;
  /** One of the reads after the round. */
  after: boolean;
  /** One of the writes before the round. */
  before?: boolean;
}

export interface RoundPlan {
  /** Sent one after the other before the clients start: the ids the opening pair meets on. */
  setup: Operation[];
  clients: Operation[][];
}

/** The operations of each client for round `round` (drawn from per-client generators: replayable). */
export function planRound(
  rng: Rng,
  pool: Pool,
  round: number,
  clients: number,
  opsPerClient: number,
): RoundPlan {
  const kinds: Kind[] = ['PUT', 'POST', 'DELETE', 'GET'];
  const narrow = { ...pool, core: ROUND_SLOTS.map((s) => valueAt(pool, s)), edge: [] };
  const pair = PAIRS[round % PAIRS.length] as (typeof PAIRS)[number];
  const made = randomOperation(rng, narrow, ['PUT'], true) as FormOperation;
  return {
    // Two of the three ids exist when the round begins, so that the opening writes meet on a user.
    setup: [0, 1].map((slot): Operation => ({ ...made, id: { slot, writing: 'plain' } })),
    clients: Array.from({ length: clients }, (_, c) => {
      const r = rng.fork(`client-${c}`);
      const ops = Array.from({ length: opsPerClient }, () => randomOperation(r, narrow, kinds, true));
      const opening =
        c === 0
          ? { kind: pair.a, slot: 0 }
          : c === 1
            ? { kind: pair.b, slot: pair.sameId ? 0 : 1 }
            : undefined;
      if (opening) {
        const drawn = randomOperation(r, narrow, ['PUT'], true) as FormOperation;
        const id = { slot: opening.slot, writing: 'plain' as const };
        ops[0] =
          opening.kind === 'DELETE'
            ? { kind: 'DELETE', id }
            : { ...drawn, kind: opening.kind as 'PUT' | 'POST', id };
      }
      return ops;
    }),
  };
}

/**
 * Runs a round: all clients at once, then one read of every id after the last answer. A request left
 * unanswered stops the round (its client and the others send nothing more, nor the reads after): a
 * stalled implementation would otherwise cost every remaining request its time-out. `unanswered` names
 * that request; such a round is not judged.
 */
export async function runRound(
  url: string,
  pool: Pool,
  plan: RoundPlan,
): Promise<{ history: Recorded[]; unanswered?: string }> {
  const history: Recorded[] = [];
  const reader = plan.clients.length;
  let unanswered: string | undefined;
  const sendOne = async (client: number, op: Operation) => {
    if (unanswered !== undefined) return;
    const concrete = resolve(op, pool);
    const exchange = await send(url, request(concrete));
    history.push({
      client,
      call: exchange.call,
      ret: exchange.ret,
      input: concrete,
      output: exchange.observation,
      op,
      exchange,
      after: false,
    });
    if (!exchange.observation && unanswered === undefined)
      unanswered = `${exchange.request.method} ${exchange.request.path}: ${exchange.error ?? 'no answer'}`;
  };
  for (const op of plan.setup) await sendOne(reader, op);
  for (const op of history) op.before = true;
  await Promise.all(
    plan.clients.map(async (ops, client) => {
      for (const op of ops) await sendOne(client, op);
    }),
  );
  const before = history.length;
  for (const slot of ROUND_SLOTS) await sendOne(reader, { kind: 'GET', id: { slot, writing: 'plain' } });
  for (const op of history.slice(before)) op.after = true;
  return unanswered === undefined ? { history } : { history, unanswered };
}

function sequentialModel(ids: readonly string[]): SequentialModel<Held, Concrete, Observation> {
  return {
    init: initial(ids),
    step(held, input, output) {
      const judged = modelStep(held, input, output);
      return judged.disagreements.length ? undefined : judged.held;
    },
    key,
  };
}

/** The signature of every race (the model's, as the hand-written race rules report it). */
export const LOST_UPDATE: Signature = NAMED_DEFECTS.lostUpdate.signature;

/** The first write of a witness answered with a server error, if any: then the 5xx is what no order explains. */
export const serverErrorIn = (witness: readonly Recorded[]): Recorded | undefined =>
  witness.find((o) => o.input.kind !== 'GET' && o.output !== undefined && o.output.status >= 500);

export interface RoundVerdict {
  ok: boolean;
  /** The id whose history is not linearizable, its smallest witness, and the model's objection. */
  failure?: {
    id: string;
    witness: Array<Recorded & { relaxed: boolean }>;
    signature: Signature;
    message: string;
    expected: string;
  };
}

const idOf = (c: Concrete) => ('value' in c ? c.value : '');

/** Checks a round's history, id by id. */
export function judgeRound(history: readonly Recorded[], ids: readonly string[]): RoundVerdict {
  for (const [id, ops] of partition(history, idOf)) {
    const model = sequentialModel(ids);
    const verdict = checkHistory(model, ops);
    if (verdict.ok) continue;
    const witness = minimalWitness(
      model,
      ops,
      (op) => op.input.kind === 'GET' || (op.output !== undefined && resultIsFailure(op.output)),
    ) as Array<Recorded & { relaxed: boolean }>;
    // The model's objection: the first operation (by return) that no linearisation could place.
    const best = checkHistory(model, witness);
    let held = model.init;
    for (const i of best.longest)
      held = model.step(held, (witness[i] as Recorded).input, (witness[i] as Recorded).output) as Held;
    const placed = new Set(best.longest);
    const stuck = witness
      .map((op, i) => ({ op, i }))
      .filter(({ op, i }) => !placed.has(i) && !op.relaxed)
      .sort((x, y) => x.op.ret - y.op.ret)[0];
    const judged = stuck ? modelStep(held, stuck.op.input, stuck.op.output) : undefined;
    const first = judged?.disagreements[0];
    const message = `no order of the operations on user ${id} explains every answer${first ? `; after the longest order found, ${first.message}` : ''}`;
    const others = history.filter((o) => idOf(o.input) !== id);
    const twice = (['DELETE', 'PUT'] as const).find((kind) => doubleSuccess(model, ops, kind, others));
    return {
      ok: false,
      failure: {
        id,
        witness,
        // One signature for every race (which answer a search gets stuck on varies from run to run),
        // but the one the hand-written race rules give a second delete or create answered success.
        signature: twice
          ? moreThanOneSuccess(twice, `${twice}s of user ${id} at once both answered success: ${message}`)
              .signature
          : LOST_UPDATE,
        message,
        expected: judged?.expected ?? '',
      },
    };
  }
  return { ok: true };
}

/** A success result in an answer's body. */
export const SUCCESS_RESULT = /<result>\s*success\s*<\/result>/;

const answeredSuccess = (op: Recorded) =>
  !!op.output && op.output.status < 300 && SUCCESS_RESULT.test(op.output.body);

/**
 * Whether writes of `kind` on the id answered success while another such success overlapped them, and
 * the history is explained by some order once their answers are set aside (their effects still within
 * their intervals; of overlapping successes one is kept, the first called, else the first answered):
 * the further successes are the defect, not a lost change. A PUT set aside so must also have overlapped
 * no write of another id that answered success: a create whose change such a write took back (a stale
 * copy written back, `write-lost-racing-create`) leaves the same answers on its own id, and is a lost
 * update; with no such write there is nothing it could have been lost to.
 */
export function doubleSuccess(
  model: SequentialModel<Held, Concrete, Observation>,
  ops: readonly Recorded[],
  kind: 'PUT' | 'DELETE',
  others: readonly Recorded[] = [],
): boolean {
  const overlap = (a: Recorded, b: Recorded) => a.call < b.ret && b.call < a.ret;
  const otherWrites = others.filter((o) => o.input.kind !== 'GET' && answeredSuccess(o));
  const loneSuccess = (op: Recorded) => kind === 'DELETE' || !otherWrites.some((w) => overlap(w, op));
  const orders = [(a: Recorded, b: Recorded) => a.call - b.call, (a: Recorded, b: Recorded) => a.ret - b.ret];
  return orders.some((order) => {
    const kept: Recorded[] = [];
    const aside = new Set<Recorded>();
    for (const op of [...ops].sort(order))
      if (op.input.kind === kind && !op.before && !op.after && answeredSuccess(op))
        if (kept.some((k) => overlap(k, op))) aside.add(op);
        else kept.push(op);
    if (aside.size === 0 || ![...aside].every(loneSuccess)) return false;
    const answersAside = ops.map((op) => (aside.has(op) ? { ...op, output: undefined } : op));
    return checkHistory(model, answersAside).ok;
  });
}

function resultIsFailure(obs: Observation): boolean {
  return /<result>\s*failure\s*<\/result>/.test(obs.body) || obs.status >= 400;
}
