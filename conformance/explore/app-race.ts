/**
 * Section B under races, in the concurrent phase: a round creates one domain (or worker) on an app of
 * its own, sends two or three changes of it at once (DELETEs of one domain, a PATCH and a DELETE of
 * one domain, DELETEs of one worker), then reads it. The answers are judged by the model: some order
 * of the changes must explain every answer and the read after them (the orders of at most three
 * changes are all tried; real-time order is not imposed, which can only accept more). A round no
 * order explains is reported with the model's signature of the order that explains it best (fewest
 * disagreeing answers, then the latest first disagreement: model/order.ts bestExplanation).
 */
import { unlessKnown } from '../model/findings.ts';
import { bestExplanation } from '../model/order.ts';
import type { AppOperation, Created } from './apps.ts';
import { hostname } from './apps.ts';
import { send, type TimedExchange } from './client.ts';
import { type Disagreement, type Held, initial, step as modelStep } from './model.ts';
import { type Concrete, request, resolve } from './operations.ts';
import type { Rng } from './prng.ts';
import { type SetAside, sendAndJudge, type Where } from './sequence.ts';

export type RacePattern = 'domain-deletes' | 'patch-delete' | 'worker-deletes';
export const RACE_PATTERNS: readonly RacePattern[] = ['domain-deletes', 'patch-delete', 'worker-deletes'];

export interface RaceOp {
  client: number;
  op: AppOperation;
  concrete: Concrete;
  exchange: TimedExchange;
}

export interface AppRace {
  pattern: RacePattern;
  /** The create before the race (and any read), judged one after the other. */
  before: Array<{ op: AppOperation; exchange: TimedExchange }>;
  race: RaceOp[];
  after: Array<{ op: AppOperation; concrete: Concrete; exchange: TimedExchange }>;
  /** Undefined when some order explains every answer, or the round could not be judged. */
  failure?: { disagreement: Disagreement; expected: string; order: number[] };
  /** Why the round was not judged (its set-up failed, a request went unanswered). */
  skipped?: string;
  /** What the round created (removed afterwards). */
  created?: Created;
}

/**
 * One round. `setAside`: signatures reported already; an answer that disagrees with one of them is
 * taken as it is (the model goes on from it), as a sequence goes past a known defect (sequence.ts
 * goOn): its other disagreements are the same answer seen from another side (a second DELETE of a
 * worker answered 200 with the worker: `status 200`, and `200 not {}`), one defect, not a second.
 */
export async function appRaceRound(
  where: Where,
  pattern: RacePattern,
  rng: Rng,
  setAside: SetAside = new Set(),
): Promise<AppRace> {
  const fresh = (ds: readonly Disagreement[]) => unlessKnown(setAside, ds);
  const domain = pattern !== 'worker-deletes';
  const create: AppOperation = domain
    ? { kind: 'D-CREATE', hostname: hostname(rng) }
    : { kind: 'W-CREATE', command: `explore-race-${rng.int(36 ** 6).toString(36)}` };
  let held: Held = initial([]);
  const made = await sendAndJudge(where, held, create);
  const result: AppRace = { pattern, before: [{ op: create, exchange: made.exchange }], race: [], after: [] };
  if (!made.judged || fresh(made.judged.disagreements).length || !made.judged.held.created)
    return { ...result, skipped: 'the create before the race was not answered as the model expects' };
  held = made.judged.held;
  result.created = held.created;
  if ((domain ? held.created?.domains : held.created?.workers)?.length !== 1)
    return { ...result, skipped: 'the create before the race carried no id' };
  const ops: AppOperation[] =
    pattern === 'domain-deletes'
      ? [0, 1, 2].map(() => ({ kind: 'D-DELETE', ref: 0 }))
      : pattern === 'patch-delete'
        ? [
            { kind: 'D-PATCH', ref: 0, hostname: hostname(rng) },
            { kind: 'D-DELETE', ref: 0 },
          ]
        : [0, 1, 2].map(() => ({ kind: 'W-DELETE', ref: 0 }));
  const concretes = ops.map((op) => resolve(op, where.pool, held.created));
  // The first change goes at once, each other one after 0 to 20 ms (drawn): two requests sent at the
  // same instant reach a server in either order, and a race is often in the few ms after the first.
  const delays = ops.map((_, i) => (i === 0 ? 0 : rng.int(21)));
  const exchanges = await Promise.all(
    concretes.map(async (c, i) => {
      if (delays[i]) await new Promise((r) => setTimeout(r, delays[i]));
      return send(where.url, request(c));
    }),
  );
  result.race = ops.map((op, i) => ({
    client: i,
    op,
    concrete: concretes[i] as Concrete,
    exchange: exchanges[i] as TimedExchange,
  }));
  if (exchanges.some((e) => !e.observation))
    return { ...result, skipped: 'a request of the race went unanswered' };
  // The read after the race (a domain: no longer served once some DELETE answered 200; a worker: any).
  const read: AppOperation = { kind: domain ? 'D-GET' : 'W-GET', ref: 0 };
  const readConcrete = resolve(read, where.pool, held.created);
  const readExchange = await send(where.url, request(readConcrete));
  result.after = [{ op: read, concrete: readConcrete, exchange: readExchange }];
  if (!readExchange.observation) return { ...result, skipped: 'the read after the race went unanswered' };
  // The order that explains the round best (model/order.ts bestExplanation, as the APP-RACE rules
  // take it): the fewest disagreeing answers, then the latest first disagreement.
  type Change = { c: Concrete; e: TimedExchange };
  const best = bestExplanation(
    held,
    ops.map((_, i): Change => ({ c: concretes[i] as Concrete, e: exchanges[i] as TimedExchange })),
    [{ c: readConcrete, e: readExchange }],
    (state: Held, { c, e }: Change) => {
      const judged = modelStep(state, c, e.observation);
      const [first] = fresh(judged.disagreements);
      return {
        state: judged.held,
        ...(first ? { found: { disagreement: first, expected: judged.expected } } : {}),
      };
    },
    {
      same: ({ c, e }) => JSON.stringify([c, e.observation]),
      state: (h) => JSON.stringify(h.state.apps),
    },
  );
  if (best.first) result.failure = { ...best.first.found, order: best.order };
  return result;
}
